package io.github.s3mergetree.engine.compress;

import java.util.Objects;

/**
 * The common frame of the specialised ClickHouse codecs (Delta, DoubleDelta, Gorilla, T64, FPC,
 * Multiple): argument checks and identity by {@link #clickHouseName()} plus the parameters the
 * payload depends on ({@link #identity()}).
 *
 * <p>Why: these codecs write their own parameters (element size, type byte, level) at the start of
 * every payload, so a decoder needs no parameters; the instance's parameters only drive
 * compression. Subclasses implement {@link #encode} and {@link #decode} over checked ranges.
 */
abstract class SpecialisedCodec implements CompressionCodec {

    /** The parameters that decide the payload, for {@code equals}; by default the name. */
    String identity() {
        return clickHouseName();
    }

    abstract int encode(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff);

    abstract void decode(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen);

    @Override
    public final int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff) {
        Objects.checkFromIndexSize(srcOff, srcLen, src.length);
        CompressionCodecs.checkDst(maxCompressedLength(srcLen), dst, dstOff, clickHouseName());
        return encode(src, srcOff, srcLen, dst, dstOff);
    }

    @Override
    public final void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen) {
        Objects.checkFromIndexSize(srcOff, srcLen, src.length);
        Objects.checkFromIndexSize(dstOff, uncompressedLen, dst.length);
        try {
            decode(src, srcOff, srcLen, dst, dstOff, uncompressedLen);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "malformed "
                            + CompressionCodecs.methodName(methodByte())
                            + " payload of "
                            + srcLen
                            + " bytes (uncompressed size "
                            + uncompressedLen
                            + "): it refers past its end",
                    e);
        }
    }

    /** Fails with a message naming the codec when {@code condition} is false. */
    final void require(boolean condition, String what) {
        if (!condition) {
            throw new IllegalArgumentException(
                    "malformed "
                            + CompressionCodecs.methodName(methodByte())
                            + " payload: "
                            + what);
        }
    }

    static int toIntBound(long bound, String codec, int srcLen) {
        if (bound > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException(
                    codec + " bound " + bound + " for " + srcLen + " bytes does not fit an int");
        }
        return (int) bound;
    }

    /** Reads {@code size} (1, 2, 4 or 8) little-endian bytes as an unsigned value. */
    static long load(byte[] b, int off, int size) {
        long v = 0;
        for (int i = size - 1; i >= 0; i--) {
            v = (v << 8) | (b[off + i] & 0xffL);
        }
        return v;
    }

    /** Writes the low {@code size} bytes of {@code v} little-endian. */
    static void store(byte[] b, int off, int size, long v) {
        for (int i = 0; i < size; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }

    /** The mask of the low {@code size} bytes. */
    static long mask(int size) {
        return size == 8 ? -1L : (1L << (8 * size)) - 1;
    }

    /** {@code v} (the low {@code size} bytes) sign-extended to 64 bits. */
    static long signExtend(long v, int size) {
        int shift = 64 - 8 * size;
        return (v << shift) >> shift;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null
                && o.getClass() == getClass()
                && ((SpecialisedCodec) o).identity().equals(identity());
    }

    @Override
    public final int hashCode() {
        return identity().hashCode();
    }

    @Override
    public final String toString() {
        return clickHouseName();
    }
}
