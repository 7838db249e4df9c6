package io.github.s3mergetree.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of the data-skipping indexes against ClickHouse 26.x (chDB): the same rows
 * inserted into our table and into chDB's own give the same {@code skp_idx_*} files (decompressed
 * content and marks), our parts attach and pass CHECK TABLE with chDB's rows, {@code EXPLAIN
 * indexes = 1} drops the same granules on both, and merges (ours horizontal and vertical, chDB's
 * OPTIMIZE FINAL) give the same index files.
 */
class SkipIndexChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "id UInt32, s String, lc LowCardinality(String), n Nullable(Int64), f Float64, d Date,"
                    + " a Array(String), ln LowCardinality(Nullable(String)), f32 Float32";

    static final String INDEXES =
            ", INDEX mm_id id TYPE minmax"
                    + ", INDEX mm_multi (s, n, f, d) TYPE minmax GRANULARITY 3"
                    + ", INDEX mm_lc lc TYPE minmax GRANULARITY 2"
                    + ", INDEX mm_lower lower(s) TYPE minmax"
                    + ", INDEX mm_a a TYPE minmax GRANULARITY 4"
                    + ", INDEX mm_ln (ln, f32) TYPE minmax"
                    + ", INDEX st_s s TYPE set(0)"
                    + ", INDEX st_nd (n, d) TYPE set(20) GRANULARITY 2"
                    + ", INDEX st_lc lc TYPE set(10)"
                    + ", INDEX st_a a TYPE set(150) GRANULARITY 3"
                    + ", INDEX st_f (f, f32, ln) TYPE set(1000) GRANULARITY 5";

    /**
     * Rows with ids {@code 3 * number + SEED}: whole granules (100 rows) of NULLs in n and of NaNs
     * in f, mixed-case strings, arrays of 0-3 strings.
     */
    static final String GENERATOR =
            "SELECT toUInt32(number * 3 + SEED), concat(if(number % 3 = 0, 'K', 'k'),"
                    + " toString(cityHash64(number, SEED) % 41)), concat('lc', toString(number %"
                    + " 7)), if(intDiv(number, 100) % 5 = 0 OR number % 11 = 0, NULL,"
                    + " toInt64(cityHash64(number) % 1000) - 500), if(intDiv(number, 100) % 7 ="
                    + " 3 OR number % 13 = 0, nan, (number % 97) / 7 - 3), toDate('2024-01-01') +"
                    + " intDiv(number, 37), arrayMap(i -> concat('a', toString((number + i) %"
                    + " 29)), range(number % 4)), if(number % 5 = 0, NULL, concat('n',"
                    + " toString(number % 17))), if(intDiv(number, 100) % 4 = 1, nan, toFloat32(number"
                    + " % 23) / 3) FROM numbers(ROWS)";

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void indexFilesAreClickHousesOwnOnInsertAndMerge(long granularityBytes) throws Exception {
        int dropping =
                new SkipIndexDifferential(
                                ch,
                                tmp,
                                "t" + granularityBytes,
                                STRUCTURE,
                                INDEXES,
                                GENERATOR,
                                ", index_granularity_bytes = " + granularityBytes,
                                FILTERS,
                                true)
                        .run();
        // the comparison means something: the skip indexes do drop granules
        assertThat(dropping).isGreaterThan(5);
    }

    /** Queries whose plans use the indexes: the Skip sections' "Granules: a/b" lines. */
    static final List<String> FILTERS =
            List.of(
                    "id BETWEEN 600 AND 700",
                    "d = toDate('2024-01-20')",
                    "s = 'K7'",
                    "lower(s) = 'k40'",
                    "lc = 'lc3'",
                    "n = 17",
                    "n IS NULL",
                    "f > 9",
                    "has(a, 'a3')",
                    "ln = 'n4'",
                    "f32 < 0.5",
                    "s IN ('k1', 'K2')",
                    "n = 1 AND d = toDate('2024-02-01')");
}
