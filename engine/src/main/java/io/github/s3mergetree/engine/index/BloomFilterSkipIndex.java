package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.types.DataType;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code TYPE bloom_filter[(false_positive)]}: per index granule and index column a bloom filter of
 * the distinct value hashes ({@link BloomFilterValueHash}) of its rows (ClickHouse's {@code
 * MergeTreeIndexBloomFilter}, file {@code .idx}, default false-positive rate 0.025).
 *
 * <p>As ClickHouse: the rate gives bits per value and the number of hash functions from its lookup
 * table ({@code BloomFilterHash::calculationBestPractices}); every filter of a granule has {@code
 * ceil(bits_per_row * n / 8)} bytes, n the largest number of distinct hashes among the index
 * columns; hash function i sets bit {@code Hash128to64(hash, seed_i) mod bits}. A granule is
 * written as VarUInt n followed by each column's filter bytes.
 */
final class BloomFilterSkipIndex extends SkipIndex {
    /** ClickHouse's {@code BloomFilterHash::bf_hash_seed}. */
    private static final long[] SEEDS = {
        0xbd3aed12799c2d20L, 0x8f713c6e20ddff9bL, 0xf6bf190ea4af89caL, 0x7cbdf722b9f5eeffL,
        0x44c25354924989a5L, 0xb422a089e6b9c639L, 0x808fece72e01a942L, 0x32bf776866364882L,
        0x8fcd8b8a94865f7aL, 0x693c00ad8a837a91L, 0xd0a3472113cad8fdL, 0xfdc79247e80f1effL,
        0x5f1810f703a66398L, 0x7b519d1316b11ca9L, 0x8ce146563615192cL
    };

    private static final int MAX_BITS_PER_ROW = 20;

    /** The smallest usable number of hash functions per bits per row. */
    private static final int[] MIN_PROBABILITY_INDEX_EACH_BITS = {
        0, 0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 8, 9, 10, 10, 11, 12, 12, 13, 14
    };

    /** False-positive rate by bits per row and hash functions (as decimal literals). */
    private static final String[][] PROBABILITY_LOOKUP_TABLE = {
        {"1.0"},
        {"1.0", "1.0"},
        {"1.0", "0.393", "0.400"},
        {"1.0", "0.283", "0.237", "0.253"},
        {"1.0", "0.221", "0.155", "0.147", "0.160"},
        {"1.0", "0.181", "0.109", "0.092", "0.092", "0.101"},
        {"1.0", "0.154", "0.0804", "0.0609", "0.0561", "0.0578", "0.0638"},
        {"1.0", "0.133", "0.0618", "0.0423", "0.0359", "0.0347", "0.0364"},
        {"1.0", "0.118", "0.0489", "0.0306", "0.024", "0.0217", "0.0216", "0.0229"},
        {"1.0", "0.105", "0.0397", "0.0228", "0.0166", "0.0141", "0.0133", "0.0135", "0.0145"},
        {"1.0", "0.0952", "0.0329", "0.0174", "0.0118", "0.00943", "0.00844", "0.00819", "0.00846"},
        {"1.0", "0.0869", "0.0276", "0.0136", "0.00864", "0.0065", "0.00552", "0.00513", "0.00509"},
        {"1.0", "0.08", "0.0236", "0.0108", "0.00646", "0.00459", "0.00371", "0.00329", "0.00314"},
        {
            "1.0", "0.074", "0.0203", "0.00875", "0.00492", "0.00332", "0.00255", "0.00217",
            "0.00199", "0.00194"
        },
        {
            "1.0", "0.0689", "0.0177", "0.00718", "0.00381", "0.00244", "0.00179", "0.00146",
            "0.00129", "0.00121", "0.0012"
        },
        {
            "1.0",
            "0.0645",
            "0.0156",
            "0.00596",
            "0.003",
            "0.00183",
            "0.00128",
            "0.001",
            "0.000852",
            "0.000775",
            "0.000744"
        },
        {
            "1.0",
            "0.0606",
            "0.0138",
            "0.005",
            "0.00239",
            "0.00139",
            "0.000935",
            "0.000702",
            "0.000574",
            "0.000505",
            "0.00047",
            "0.000459"
        },
        {
            "1.0",
            "0.0571",
            "0.0123",
            "0.00423",
            "0.00193",
            "0.00107",
            "0.000692",
            "0.000499",
            "0.000394",
            "0.000335",
            "0.000302",
            "0.000287",
            "0.000284"
        },
        {
            "1.0",
            "0.054",
            "0.0111",
            "0.00362",
            "0.00158",
            "0.000839",
            "0.000519",
            "0.00036",
            "0.000275",
            "0.000226",
            "0.000198",
            "0.000183",
            "0.000176"
        },
        {
            "1.0",
            "0.0513",
            "0.00998",
            "0.00312",
            "0.0013",
            "0.000663",
            "0.000394",
            "0.000264",
            "0.000194",
            "0.000155",
            "0.000132",
            "0.000118",
            "0.000111",
            "0.000109"
        },
        {
            "1.0",
            "0.0488",
            "0.00906",
            "0.0027",
            "0.00108",
            "0.00053",
            "0.000303",
            "0.000196",
            "0.00014",
            "0.000108",
            "8.89e-05",
            "7.77e-05",
            "7.12e-05",
            "6.79e-05",
            "6.71e-05"
        }
    };

    private final int bitsPerRow;
    private final int hashFunctions;

    BloomFilterSkipIndex(SkipIndexDefinition definition, EvaluationContext evaluation) {
        super(definition, evaluation);
        double p = 0.025;
        if (!definition.arguments().isEmpty()) {
            p = Math.min(1.0, Math.max(Double.parseDouble(definition.arguments().get(0)), 0.0));
        }
        int[] best = calculationBestPractices(p);
        this.bitsPerRow = best[0];
        this.hashFunctions = best[1];
    }

    /**
     * Bits per value and hash functions for the false-positive rate {@code p}: ClickHouse's {@code
     * BloomFilterHash::calculationBestPractices}. Its table is of {@code long double}; comparing
     * {@code p} exactly with the decimal entry gives the same answer.
     */
    static int[] calculationBestPractices(double p) {
        if (p >= 0.283) {
            return new int[] {2, 2};
        }
        BigDecimal exact = new BigDecimal(p);
        for (int bits = 1; bits < MAX_BITS_PER_ROW; bits++) {
            int min = MIN_PROBABILITY_INDEX_EACH_BITS[bits];
            if (entry(bits, min).compareTo(exact) <= 0) {
                for (int k = min; k > 0; k--) {
                    if (entry(bits, k).compareTo(exact) > 0) {
                        return new int[] {bits, k + 1};
                    }
                }
            }
        }
        return new int[] {
            MAX_BITS_PER_ROW - 1, MIN_PROBABILITY_INDEX_EACH_BITS[MAX_BITS_PER_ROW - 1]
        };
    }

    /** A table entry; the rows are zero-filled past their literals, as in C++. */
    private static BigDecimal entry(int bits, int k) {
        String[] row = PROBABILITY_LOOKUP_TABLE[bits];
        return k < row.length ? new BigDecimal(row[k]) : BigDecimal.ZERO;
    }

    @Override
    public String fileExtension() {
        return ".idx";
    }

    @Override
    public Aggregator newAggregator() {
        return new BloomFilterAggregator(types(), bitsPerRow, hashFunctions);
    }

    private static final class BloomFilterAggregator implements Aggregator {
        private final List<DataType> types;
        private final int bitsPerRow;
        private final int hashFunctions;
        private final List<Set<Long>> hashes;
        private long rows;

        BloomFilterAggregator(List<DataType> types, int bitsPerRow, int hashFunctions) {
            this.types = types;
            this.bitsPerRow = bitsPerRow;
            this.hashFunctions = hashFunctions;
            this.hashes = types.stream().map(t -> (Set<Long>) new HashSet<Long>()).toList();
        }

        @Override
        public boolean isEmpty() {
            return rows == 0;
        }

        @Override
        public void update(List<Column> columns, int from, int to) {
            for (int c = 0; c < types.size(); c++) {
                BloomFilterValueHash.hash(
                        types.get(c), columns.get(c), from, to, hashes.get(c)::add);
            }
            rows += to - from;
        }

        @Override
        public void serialize(ByteSink out) {
            long n = 0;
            for (Set<Long> h : hashes) {
                n = Math.max(n, h.size());
            }
            long bytes = (bitsPerRow * n + 7) / 8;
            out.writeVarUInt(n);
            for (Set<Long> h : hashes) {
                BloomFilterBits filter = new BloomFilterBits(bytes);
                for (long hash : h) {
                    for (int i = 0; i < hashFunctions; i++) {
                        filter.addHashWithSeed(hash, SEEDS[i]);
                    }
                }
                filter.write(out);
            }
        }
    }
}
