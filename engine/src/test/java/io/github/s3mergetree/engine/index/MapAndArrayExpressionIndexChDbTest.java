package io.github.s3mergetree.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Differential test of {@code bloom_filter} skip indexes over expressions of Map and Array columns,
 * as observability tables declare them ({@code mapKeys(attributes)}, {@code mapValues(attributes)},
 * {@code attributes['service.name']}, {@code arrayDistinct(tags)}, {@code splitByChar(',', s)}),
 * against ClickHouse 26.x (chDB): index files equal to chDB's on insert and merge, the same
 * granules dropped by {@code EXPLAIN indexes = 1}.
 */
class MapAndArrayExpressionIndexChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "id UInt32, attributes Map(String, String), tags Array(String), lm"
                    + " Map(LowCardinality(String), UInt32), csv String";

    static final String INDEXES =
            ", INDEX bf_keys mapKeys(attributes) TYPE bloom_filter"
                    + ", INDEX bf_values mapValues(attributes) TYPE bloom_filter(0.01)"
                    + ", INDEX bf_svc attributes['service.name'] TYPE bloom_filter GRANULARITY 2"
                    + ", INDEX bf_tags arrayDistinct(tags) TYPE bloom_filter"
                    + ", INDEX bf_lkeys mapKeys(lm) TYPE bloom_filter(0.05)"
                    + ", INDEX bf_split splitByChar(',', csv) TYPE bloom_filter"
                    + ", INDEX bf_len length(tags) TYPE minmax";

    static final String GENERATOR =
            "SELECT toUInt32(number * 3 + SEED) AS id, CAST(arrayConcat(if(number % 3 = 0, [],"
                    + " [('service.name', concat('svc', toString(intDiv(number, 200) % 5)))]),"
                    + " arrayMap(i -> (concat(if(number % 11 = 0, 'ключ', 'k'), toString((intDiv(number,"
                    + " 30) + i) % 40)), concat('v', toString((intDiv(number, 40) * 7 + i) % 90))),"
                    + " range(number % 4))), 'Map(String, String)'), if(number % 10 = 0, [],"
                    + " arrayMap(i -> concat('t', toString((intDiv(number, 50) + i % 2) % 30)),"
                    + " range(number % 5))), CAST(arrayMap(i -> (concat('a', toString((intDiv(number,"
                    + " 60) + i) % 13)), toUInt32(i)), range(number % 3)), 'Map(LowCardinality(String),"
                    + " UInt32)'), arrayStringConcat(arrayMap(i -> concat('x', toString((intDiv(number,"
                    + " 80) + i) % 25)), range(number % 4)), ',') FROM numbers(ROWS)";

    static final List<String> FILTERS =
            List.of(
                    "has(mapKeys(attributes), 'k3')",
                    "mapContains(attributes, 'ключ7')",
                    "has(mapValues(attributes), 'v14')",
                    "attributes['service.name'] = 'svc2'",
                    "has(arrayDistinct(tags), 't5')",
                    "has(mapKeys(lm), 'a4')",
                    "has(splitByChar(',', csv), 'x3')",
                    "length(tags) = 4");

    @Test
    void indexesOverMapAndArrayExpressionsAreClickHousesOwn() throws Exception {
        int dropping =
                new SkipIndexDifferential(
                                ch, tmp, "mapidx", STRUCTURE, INDEXES, GENERATOR, "", FILTERS,
                                false)
                        .run();
        assertThat(dropping).isGreaterThan(3);
    }
}
