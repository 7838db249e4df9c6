package io.github.s3mergetree.engine.hash;

import io.github.s3mergetree.engine.io.LittleEndian;
import java.util.Objects;

/**
 * Google CityHash <b>v1.0.2</b>, the exact version ClickHouse pins in {@code contrib/cityhash102}.
 *
 * <p>Why this version: ClickHouse persists CityHash values (the checksum in front of every
 * compressed block, the file hashes of {@code checksums.txt}, SQL {@code cityHash64}), so it never
 * upgraded; CityHash 1.0.3 and 1.1 produce different values. See spec §3.
 *
 * <p>All arithmetic is modulo 2<sup>64</sup> (Java {@code long} wrap-around); input bytes are
 * treated as unsigned and multi-byte loads are unaligned little-endian loads ({@link
 * LittleEndian}). The methods are static, allocation-free and thread-safe. A 128-bit result is
 * returned through a caller-provided {@code long[2]}: {@code out2[0]} = low64 (the reference
 * implementation's {@code first}), {@code out2[1]} = high64 ({@code second}).
 */
public final class CityHash102 {

    // Some primes between 2^63 and 2^64 for various uses.
    private static final long K0 = 0xc3a5c85c97cb3127L;
    private static final long K1 = 0xb492b66fbe98f273L;
    private static final long K2 = 0x9ae16a3b2f90404fL;
    private static final long K3 = 0xc949d7c7509e6557L;
    private static final long K_MUL = 0x9ddfea08eb382d69L;

    private CityHash102() {}

    /**
     * CityHash64 of {@code b[off, off+len)}; equals ClickHouse's SQL {@code cityHash64} of a single
     * String argument.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     */
    public static long cityHash64(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len <= 32) {
            if (len <= 16) {
                return hashLen0to16(b, off, len);
            }
            return hashLen17to32(b, off, len);
        }
        if (len <= 64) {
            return hashLen33to64(b, off, len);
        }

        // For strings over 64 bytes we hash the end first, and then as we
        // loop we keep 56 bytes of state: v, w, x, y, and z.
        long x = fetch64(b, off);
        long y = fetch64(b, off + len - 16) ^ K1;
        long z = fetch64(b, off + len - 56) ^ K0;

        // v = WeakHashLen32WithSeeds(s + len - 64, len, y)
        int p = off + len - 64;
        long a = len + fetch64(b, p);
        long bb = Long.rotateRight(y + a + fetch64(b, p + 24), 21);
        long c = a;
        a += fetch64(b, p + 8) + fetch64(b, p + 16);
        bb += Long.rotateRight(a, 44);
        long v0 = a + fetch64(b, p + 24);
        long v1 = bb + c;

        // w = WeakHashLen32WithSeeds(s + len - 32, len * k1, k0)
        p = off + len - 32;
        a = len * K1 + fetch64(b, p);
        bb = Long.rotateRight(K0 + a + fetch64(b, p + 24), 21);
        c = a;
        a += fetch64(b, p + 8) + fetch64(b, p + 16);
        bb += Long.rotateRight(a, 44);
        long w0 = a + fetch64(b, p + 24);
        long w1 = bb + c;

        z += shiftMix(v1) * K1;
        x = Long.rotateRight(z + x, 39) * K1;
        y = Long.rotateRight(y, 33) * K1;

        // Decrease len to the nearest multiple of 64, and operate on 64-byte chunks.
        int remaining = (len - 1) & ~63;
        int s = off;
        do {
            x = Long.rotateRight(x + y + v0 + fetch64(b, s + 16), 37) * K1;
            y = Long.rotateRight(y + v1 + fetch64(b, s + 48), 42) * K1;
            x ^= w1;
            y ^= v0;
            z = Long.rotateRight(z ^ w0, 33);

            // v = WeakHashLen32WithSeeds(s, v.second * k1, x + w.first)
            a = v1 * K1 + fetch64(b, s);
            long d = fetch64(b, s + 24);
            bb = Long.rotateRight(x + w0 + a + d, 21);
            c = a;
            a += fetch64(b, s + 8) + fetch64(b, s + 16);
            bb += Long.rotateRight(a, 44);
            v0 = a + d;
            v1 = bb + c;

            // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y)
            a = z + w1 + fetch64(b, s + 32);
            d = fetch64(b, s + 56);
            bb = Long.rotateRight(y + a + d, 21);
            c = a;
            a += fetch64(b, s + 40) + fetch64(b, s + 48);
            bb += Long.rotateRight(a, 44);
            w0 = a + d;
            w1 = bb + c;

            long t = z;
            z = x;
            x = t;
            s += 64;
            remaining -= 64;
        } while (remaining != 0);
        return hashLen16(hashLen16(v0, w0) + shiftMix(y) * K1 + z, hashLen16(v1, w1) + x);
    }

    /**
     * CityHash128 of {@code b[off, off+len)}: the checksum ClickHouse stores in front of every
     * compressed block. Writes low64 to {@code out2[0]} and high64 to {@code out2[1]}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b} or {@code out2} is
     *     shorter than 2
     */
    public static void cityHash128(byte[] b, int off, int len, long[] out2) {
        Objects.checkFromIndexSize(off, len, b.length);
        Objects.checkIndex(1, out2.length);
        if (len >= 16) {
            cityHash128WithSeedUnchecked(
                    b, off + 16, len - 16, fetch64(b, off) ^ K3, fetch64(b, off + 8), out2);
        } else if (len >= 8) {
            cityHash128WithSeedUnchecked(
                    b, off, 0, fetch64(b, off) ^ (len * K0), fetch64(b, off + len - 8) ^ K1, out2);
        } else {
            cityHash128WithSeedUnchecked(b, off, len, K0, K1, out2);
        }
    }

    /**
     * CityHash128WithSeed of {@code b[off, off+len)} with the seed {@code (seedLow, seedHigh)}
     * (reference {@code uint128(first, second)}). Used chained over 2048-byte chunks for part file
     * hashes (see {@link HashingOutput}). Writes low64 to {@code out2[0]}, high64 to {@code
     * out2[1]}.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b} or {@code out2} is
     *     shorter than 2
     */
    public static void cityHash128WithSeed(
            byte[] b, int off, int len, long seedLow, long seedHigh, long[] out2) {
        Objects.checkFromIndexSize(off, len, b.length);
        Objects.checkIndex(1, out2.length);
        cityHash128WithSeedUnchecked(b, off, len, seedLow, seedHigh, out2);
    }

    private static void cityHash128WithSeedUnchecked(
            byte[] b, int off, int len, long seedLow, long seedHigh, long[] out2) {
        if (len < 128) {
            cityMurmur(b, off, len, seedLow, seedHigh, out2);
            return;
        }

        // We expect len >= 128 to be the common case. Keep 56 bytes of state: v, w, x, y, and z.
        long x = seedLow;
        long y = seedHigh;
        long z = len * K1;
        int s = off;
        long v0 = Long.rotateRight(y ^ K1, 49) * K1 + fetch64(b, s);
        long v1 = Long.rotateRight(v0, 42) * K1 + fetch64(b, s + 8);
        long w0 = Long.rotateRight(y + z, 35) * K1 + x;
        long w1 = Long.rotateRight(x + fetch64(b, s + 88), 53) * K1;

        long a;
        long bb;
        long c;
        long d;
        long t;
        // This is the same inner loop as CityHash64(), manually unrolled.
        do {
            for (int round = 0; round < 2; round++) {
                x = Long.rotateRight(x + y + v0 + fetch64(b, s + 16), 37) * K1;
                y = Long.rotateRight(y + v1 + fetch64(b, s + 48), 42) * K1;
                x ^= w1;
                y ^= v0;
                z = Long.rotateRight(z ^ w0, 33);

                // v = WeakHashLen32WithSeeds(s, v.second * k1, x + w.first)
                a = v1 * K1 + fetch64(b, s);
                d = fetch64(b, s + 24);
                bb = Long.rotateRight(x + w0 + a + d, 21);
                c = a;
                a += fetch64(b, s + 8) + fetch64(b, s + 16);
                bb += Long.rotateRight(a, 44);
                v0 = a + d;
                v1 = bb + c;

                // w = WeakHashLen32WithSeeds(s + 32, z + w.second, y)
                a = z + w1 + fetch64(b, s + 32);
                d = fetch64(b, s + 56);
                bb = Long.rotateRight(y + a + d, 21);
                c = a;
                a += fetch64(b, s + 40) + fetch64(b, s + 48);
                bb += Long.rotateRight(a, 44);
                w0 = a + d;
                w1 = bb + c;

                t = z;
                z = x;
                x = t;
                s += 64;
            }
            len -= 128;
        } while (len >= 128);
        y += Long.rotateRight(w0, 37) * K0 + z;
        x += Long.rotateRight(v0 + z, 49) * K0;
        // If 0 < len < 128, hash up to 4 chunks of 32 bytes each from the end of s.
        for (int tailDone = 0; tailDone < len; ) {
            tailDone += 32;
            y = Long.rotateRight(y - x, 42) * K0 + v1;
            w0 += fetch64(b, s + len - tailDone + 16);
            x = Long.rotateRight(x, 49) * K0 + w0;
            w0 += v0;

            // v = WeakHashLen32WithSeeds(s + len - tail_done, v.first, v.second)
            int p = s + len - tailDone;
            a = v0 + fetch64(b, p);
            d = fetch64(b, p + 24);
            bb = Long.rotateRight(v1 + a + d, 21);
            c = a;
            a += fetch64(b, p + 8) + fetch64(b, p + 16);
            bb += Long.rotateRight(a, 44);
            v0 = a + d;
            v1 = bb + c;
        }
        // At this point our 48 bytes of state should contain more than enough information for a
        // strong 128-bit hash. We use two different 48-byte-to-8-byte hashes to get a 16-byte
        // final result.
        x = hashLen16(x, v0);
        y = hashLen16(y, w0);
        out2[0] = hashLen16(x + v1, w1) + y;
        out2[1] = hashLen16(x + w1, y + v1);
    }

    /** A subroutine for CityHash128(): returns a decent 128-bit hash for strings of any length. */
    private static void cityMurmur(
            byte[] b, int off, int len, long seedLow, long seedHigh, long[] out2) {
        long a = seedLow;
        long bb = seedHigh;
        long c;
        long d;
        int l = len - 16;
        if (l <= 0) { // len <= 16
            a = shiftMix(a * K1) * K1;
            c = bb * K1 + hashLen0to16(b, off, len);
            d = shiftMix(a + (len >= 8 ? fetch64(b, off) : c));
        } else { // len > 16
            c = hashLen16(fetch64(b, off + len - 8) + K1, a);
            d = hashLen16(bb + len, c + fetch64(b, off + len - 16));
            a += d;
            int s = off;
            do {
                a ^= shiftMix(fetch64(b, s) * K1) * K1;
                a *= K1;
                bb ^= a;
                c ^= shiftMix(fetch64(b, s + 8) * K1) * K1;
                c *= K1;
                d ^= c;
                s += 16;
                l -= 16;
            } while (l > 0);
        }
        a = hashLen16(a, c);
        bb = hashLen16(d, bb);
        out2[0] = a ^ bb;
        out2[1] = hashLen16(bb, a);
    }

    private static long hashLen0to16(byte[] b, int off, int len) {
        if (len > 8) {
            long a = fetch64(b, off);
            long bb = fetch64(b, off + len - 8);
            return hashLen16(a, Long.rotateRight(bb + len, len)) ^ bb;
        }
        if (len >= 4) {
            long a = fetch32(b, off);
            return hashLen16(len + (a << 3), fetch32(b, off + len - 4));
        }
        if (len > 0) {
            int a = b[off] & 0xff;
            int bb = b[off + (len >>> 1)] & 0xff;
            int c = b[off + len - 1] & 0xff;
            long y = (a + (bb << 8)) & 0xffffffffL;
            long z = (len + (c << 2)) & 0xffffffffL;
            return shiftMix(y * K2 ^ z * K3) * K2;
        }
        return K2;
    }

    private static long hashLen17to32(byte[] b, int off, int len) {
        long a = fetch64(b, off) * K1;
        long bb = fetch64(b, off + 8);
        long c = fetch64(b, off + len - 8) * K2;
        long d = fetch64(b, off + len - 16) * K0;
        return hashLen16(
                Long.rotateRight(a - bb, 43) + Long.rotateRight(c, 30) + d,
                a + Long.rotateRight(bb ^ K3, 20) - c + len);
    }

    private static long hashLen33to64(byte[] b, int off, int len) {
        long z = fetch64(b, off + 24);
        long a = fetch64(b, off) + (len + fetch64(b, off + len - 16)) * K0;
        long bb = Long.rotateRight(a + z, 52);
        long c = Long.rotateRight(a, 37);
        a += fetch64(b, off + 8);
        c += Long.rotateRight(a, 7);
        a += fetch64(b, off + 16);
        long vf = a + z;
        long vs = bb + Long.rotateRight(a, 31) + c;
        a = fetch64(b, off + 16) + fetch64(b, off + len - 32);
        z = fetch64(b, off + len - 8);
        bb = Long.rotateRight(a + z, 52);
        c = Long.rotateRight(a, 37);
        a += fetch64(b, off + len - 24);
        c += Long.rotateRight(a, 7);
        a += fetch64(b, off + len - 16);
        long wf = a + z;
        long ws = bb + Long.rotateRight(a, 31) + c;
        long r = shiftMix((vf + ws) * K2 + (wf + vs) * K0);
        return shiftMix(r * K0 + vs) * K2;
    }

    /**
     * CityHash64WithSeed of {@code b[off, off+len)}: {@code Hash128to64(CityHash64 - k2, seed)}, as
     * ClickHouse's text bloom filters ({@code BloomFilter::add}) hash a token.
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     */
    public static long cityHash64WithSeed(byte[] b, int off, int len, long seed) {
        return hashLen16(cityHash64(b, off, len) - K2, seed);
    }

    /**
     * The reference's {@code Hash128to64(uint128(low, high))}: mixes two 64-bit values into one
     * (ClickHouse's bloom filters use it to combine a value hash with a seed).
     */
    public static long hash128to64(long low, long high) {
        return hashLen16(low, high);
    }

    /** Hash128to64 of the reference: a Murmur-inspired mix of a 128-bit value into 64 bits. */
    private static long hashLen16(long u, long v) {
        long a = (u ^ v) * K_MUL;
        a ^= (a >>> 47);
        long bb = (v ^ a) * K_MUL;
        bb ^= (bb >>> 47);
        return bb * K_MUL;
    }

    private static long shiftMix(long val) {
        return val ^ (val >>> 47);
    }

    // Every public method checks its range [off, off + len) first, and the hash reads only inside
    // it (as the reference does: ClickHouse runs it on exact buffers), so the loads are unchecked.
    private static long fetch64(byte[] b, int i) {
        assert i >= 0 && i <= b.length - 8 : i;
        return LittleEndian.getLongUnchecked(b, i);
    }

    /** Unsigned little-endian 32-bit load, zero-extended (the reference's {@code uint32}). */
    private static long fetch32(byte[] b, int i) {
        assert i >= 0 && i <= b.length - 4 : i;
        return LittleEndian.getIntUnchecked(b, i) & 0xffffffffL;
    }
}
