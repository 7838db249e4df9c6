package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.io.ByteSink;

/**
 * The bit array of one ClickHouse bloom filter ({@code Interpreters/BloomFilter}): {@code size}
 * bytes held in 64-bit words, bit {@code p} being bit {@code p % 64} of word {@code p / 64}, and
 * written as the first {@code size} bytes of the little-endian words.
 *
 * <p>Why: the {@code bloom_filter}, {@code tokenbf_v1} and {@code ngrambf_v1} skip indexes all
 * store such filters and set their bits in one of ClickHouse's two ways, kept here so that both are
 * computed exactly as ClickHouse does.
 */
final class BloomFilterBits {
    private static final long SEED_GEN_A = 845897321L;
    private static final long SEED_GEN_B = 217728422L;

    private final long sizeBytes;
    private final long[] words;

    BloomFilterBits(long sizeBytes) {
        this.sizeBytes = sizeBytes;
        this.words = new long[Math.toIntExact((sizeBytes + 7) / 8)];
    }

    /** {@code addHashWithSeed}: sets bit {@code Hash128to64(hash, seed) mod (8 * size)}. */
    void addHashWithSeed(long hash, long seed) {
        set(Long.remainderUnsigned(CityHash102.hash128to64(hash, seed), 8 * sizeBytes));
    }

    /**
     * {@code add(data)} of the text filters: {@code hashes} bits {@code h1 + i * h2 + i * i mod (8
     * * size)}, h1 and h2 CityHash64WithSeed of the bytes with {@code seed} and {@code A * seed +
     * B}.
     */
    void add(byte[] data, int off, int len, long seed, int hashes) {
        long h1 = CityHash102.cityHash64WithSeed(data, off, len, seed);
        long h2 = CityHash102.cityHash64WithSeed(data, off, len, SEED_GEN_A * seed + SEED_GEN_B);
        long bits = 8 * sizeBytes;
        for (long i = 0; i < hashes; i++) {
            set(Long.remainderUnsigned(h1 + i * h2 + i * i, bits));
        }
    }

    private void set(long pos) {
        words[(int) (pos >>> 6)] |= 1L << (pos & 63);
    }

    /** Writes the filter's {@code size} bytes. */
    void write(ByteSink out) {
        long left = sizeBytes;
        for (long w : words) {
            for (int b = 0; b < 8 && left > 0; b++, left--) {
                out.writeByte((int) (w >>> (8 * b)) & 0xFF);
            }
        }
    }
}
