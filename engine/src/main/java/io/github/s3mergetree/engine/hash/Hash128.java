package io.github.s3mergetree.engine.hash;

import io.github.s3mergetree.engine.io.LittleEndian;
import java.util.Objects;

/**
 * An immutable 128-bit CityHash value {@code (low, high)} = the reference implementation's {@code
 * (first, second)}, as used in compressed-block checksums and {@code checksums.txt}.
 *
 * <p>Why a dedicated type: the two halves are easy to swap by accident, and three orders exist in
 * practice. This type fixes them:
 *
 * <ul>
 *   <li>on disk (block checksums, {@code checksums.txt} v3/v4): {@code LE(low) || LE(high)}, see
 *       {@link #writeTo} / {@link #readFrom};
 *   <li>{@link #toHex()}: 32 lowercase hex digits, <b>high64 first, then low64</b> — the order in
 *       which ClickHouse prints a UInt128 checksum ({@code getHexUIntLowercase}), e.g. in the
 *       {@code CHECKSUM_DOESNT_MATCH} message "Reference: 19f1a729049f9365b945bd85b0a6623a" for the
 *       block checksum whose on-disk bytes are {@code 3a 62 a6 b0 85 bd 45 b9 65 93 9f 04 29 a7 f1
 *       19}, i.e. low64 {@code b945bd85b0a6623a}, high64 {@code 19f1a729049f9365} (spec §2, §14);
 *   <li>{@link #toString()}: {@code low64 high64} as two labelled hex numbers, the order of the
 *       spec's test-vector tables.
 * </ul>
 *
 * @param low the low 64 bits ({@code first} of the reference implementation)
 * @param high the high 64 bits ({@code second})
 */
public record Hash128(long low, long high) {

    /** The hash of an empty file under HashingWriteBuffer semantics: {@code (0, 0)}. */
    public static final Hash128 ZERO = new Hash128(0, 0);

    /** Number of bytes of the on-disk form. */
    public static final int BYTES = 16;

    /**
     * Reads the on-disk form {@code LE(low) || LE(high)} from {@code src[off, off+16)}.
     *
     * @throws IndexOutOfBoundsException if fewer than 16 bytes are available at {@code off}
     */
    public static Hash128 readFrom(byte[] src, int off) {
        Objects.checkFromIndexSize(off, BYTES, src.length);
        return new Hash128(
                LittleEndian.getLongUnchecked(src, off),
                LittleEndian.getLongUnchecked(src, off + 8));
    }

    /**
     * Parses the {@link #toHex()} form (32 hex digits, high64 first, case-insensitive).
     *
     * @throws IllegalArgumentException if {@code hex} is not 32 hex digits
     */
    public static Hash128 fromHex(String hex) {
        if (hex == null || hex.length() != 32) {
            throw new IllegalArgumentException(
                    "expected 32 hex digits (high64 then low64), got: " + hex);
        }
        try {
            return new Hash128(
                    Long.parseUnsignedLong(hex.substring(16), 16),
                    Long.parseUnsignedLong(hex.substring(0, 16), 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "expected 32 hex digits (high64 then low64), got: " + hex, e);
        }
    }

    /** Returns the value held by a {@code long[2]} result of {@link CityHash102}: {low, high}. */
    public static Hash128 of(long[] lowHigh) {
        return new Hash128(lowHigh[0], lowHigh[1]);
    }

    /**
     * Writes the on-disk form {@code LE(low) || LE(high)} to {@code dst[off, off+16)}.
     *
     * @throws IndexOutOfBoundsException if fewer than 16 bytes are available at {@code off}
     */
    public void writeTo(byte[] dst, int off) {
        Objects.checkFromIndexSize(off, BYTES, dst.length);
        LittleEndian.putLongUnchecked(dst, off, low);
        LittleEndian.putLongUnchecked(dst, off + 8, high);
    }

    /** Returns the 16-byte on-disk form {@code LE(low) || LE(high)}. */
    public byte[] toBytes() {
        byte[] b = new byte[BYTES];
        writeTo(b, 0);
        return b;
    }

    /**
     * Returns 32 lowercase hex digits, high64 first then low64: ClickHouse's printing order of a
     * UInt128 checksum (error messages such as {@code CHECKSUM_DOESNT_MATCH}).
     */
    public String toHex() {
        return hex16(high) + hex16(low);
    }

    /**
     * Returns {@code "Hash128{low=<16 hex>, high=<16 hex>}"} (the spec tables' low-first order).
     */
    @Override
    public String toString() {
        return "Hash128{low=" + hex16(low) + ", high=" + hex16(high) + "}";
    }

    private static String hex16(long v) {
        String s = Long.toHexString(v);
        return "0000000000000000".substring(s.length()) + s;
    }
}
