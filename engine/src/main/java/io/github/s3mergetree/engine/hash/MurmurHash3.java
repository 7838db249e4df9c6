package io.github.s3mergetree.engine.hash;

import io.github.s3mergetree.engine.io.LittleEndian;
import java.util.Objects;

/**
 * MurmurHash3 x64 128 (Austin Appleby's reference {@code MurmurHash3_x64_128}), as ClickHouse's
 * {@code murmurHash3_64} uses it: seed 0, the two 64-bit halves xor-ed.
 *
 * <p>Why: {@code murmurHash3_64(...)} is a common sharding key of {@code Distributed} tables; rows
 * are routed by its value, so it must be bit-exact.
 */
public final class MurmurHash3 {
    private MurmurHash3() {}

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    /**
     * SQL {@code murmurHash3_64} of {@code b[off, off+len)}: {@code h1 ^ h2} of x64_128, seed 0.
     */
    public static long hash64(byte[] b, int off, int len) {
        Objects.checkFromIndexSize(off, len, b.length);
        long h1 = 0;
        long h2 = 0;
        int blocks = len / 16;
        for (int i = 0; i < blocks; i++) {
            long k1 = LittleEndian.getLong(b, off + i * 16);
            long k2 = LittleEndian.getLong(b, off + i * 16 + 8);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        int tail = off + blocks * 16;
        int rest = len & 15;
        long k1 = 0;
        long k2 = 0;
        for (int i = rest - 1; i >= 8; i--) {
            k2 ^= (b[tail + i] & 0xffL) << ((i - 8) * 8);
        }
        if (rest > 8) {
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
        }
        for (int i = Math.min(rest, 8) - 1; i >= 0; i--) {
            k1 ^= (b[tail + i] & 0xffL) << (i * 8);
        }
        if (rest > 0) {
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
        }
        h1 ^= len;
        h2 ^= len;
        h1 += h2;
        h2 += h1;
        h1 = fmix64(h1);
        h2 = fmix64(h2);
        h1 += h2;
        h2 += h1;
        return h1 ^ h2;
    }

    private static long fmix64(long k) {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
