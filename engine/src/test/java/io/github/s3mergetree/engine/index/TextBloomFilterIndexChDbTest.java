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
 * Differential test of {@code TYPE tokenbf_v1} and {@code TYPE ngrambf_v1} against ClickHouse 26.x
 * (chDB): texts with punctuation, UTF-8 multibyte characters, empty and very long values, over
 * String, LowCardinality(String), FixedString, Array(String) and {@code lower(s)}; index files
 * byte-identical to chDB's on insert and merge, and the same granules dropped by {@code EXPLAIN
 * indexes = 1} for {@code =}, {@code IN}, {@code has}, {@code hasToken} and {@code LIKE}.
 */
class TextBloomFilterIndexChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "id UInt32, s String, lc LowCardinality(String), fs FixedString(12), a"
                    + " Array(String), t String";

    /** Words with punctuation and multibyte characters, joined by varying separators. */
    static final String GENERATOR =
            "WITH ['hello', 'World', 'мир', '東京', 'ž', 'x1', 'foo-bar', 'a.b,c', 'emoji😀ok',"
                    + " '', 'Ünïcödé', 'tab\\tsep', 'dot.', 'under_score', 'zero0', 'q'] AS words, ['"
                    + " ', ', ', '-', '/', ''] AS seps SELECT toUInt32(number * 3 + SEED) AS id,"
                    + " concat(if(number % 3 = 0, 'K', 'k'), toString(cityHash64(number, SEED) %"
                    + " 400)), concat('lc', toString(number % 7), if(number % 2 = 0, ' мир', '')),"
                    + " toFixedString(substring(concat(words[number % 16 + 1], ' ',"
                    + " toString(number % 50)), 1, 12), 12), if(intDiv(number, 100) % 6 = 2, [],"
                    + " arrayPushBack(arrayMap(i -> concat(words[(number + i) % 16 + 1], toString(i)),"
                    + " range(number % 4)), concat('el', toString(intDiv(number, 120))))), multiIf(number % 97 = 0, repeat(concat('long', toString(number), ' ž"
                    + " '), 300), number % 11 = 0, '', number % 89 = 0, concat('bad', unhex('E2')), concat(arrayStringConcat(arrayMap(i ->"
                    + " concat(words[cityHash64(number, i, SEED) % 16 + 1], seps[number % 5 + 1]),"
                    + " range(number % 8))), ' Rare', toString(intDiv(number, 150)))) FROM numbers(ROWS)";

    static final List<String> FILTERS =
            List.of(
                    "hasToken(t, 'hello')",
                    "hasToken(t, 'Ünïcödé')",
                    "t LIKE '%мир%'",
                    "t LIKE '%東京%'",
                    "t LIKE '%emoji😀%'",
                    "t = 'foo-bar'",
                    "t IN ('hello World', 'q')",
                    "lower(t) LIKE '%hello world%'",
                    "hasToken(lower(t), 'world')",
                    "has(a, 'x12')",
                    "lc = 'lc3'",
                    "lc LIKE '%lc4%'",
                    "fs = 'q 7'",
                    "s LIKE '%k17%'",
                    "s = 'K9'",
                    "hasToken(t, 'Rare7')",
                    "t LIKE '%Rare12%'",
                    "hasToken(lower(t), 'rare3')",
                    "lower(t) LIKE '%rare9 %'",
                    "has(a, 'el5')",
                    "t IN ('Rare3', 'x')");

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void tokenbfFilesAreClickHousesOwnOnInsertAndMerge(long granularityBytes) throws Exception {
        String indexes =
                ", INDEX tb_t t TYPE tokenbf_v1(512, 3, 0)"
                        + ", INDEX tb_lc lc TYPE tokenbf_v1(64, 2, 7) GRANULARITY 2"
                        + ", INDEX tb_a a TYPE tokenbf_v1(256, 1, 1)"
                        + ", INDEX tb_fs fs TYPE tokenbf_v1(130, 4, 0) GRANULARITY 3"
                        + ", INDEX tb_lower lower(t) TYPE tokenbf_v1(1024, 2, 3)"
                        + ", INDEX tb_multi (s, t) TYPE tokenbf_v1(301, 5, 18446744073709551615)"
                        + " GRANULARITY 4";
        assertThat(run("tb" + granularityBytes, indexes, granularityBytes)).isGreaterThan(5);
    }

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void ngrambfFilesAreClickHousesOwnOnInsertAndMerge(long granularityBytes) throws Exception {
        String indexes =
                ", INDEX ng_t t TYPE ngrambf_v1(3, 1024, 2, 0)"
                        + ", INDEX ng_t4 t TYPE ngrambf_v1(4, 2048, 3, 5) GRANULARITY 2"
                        + ", INDEX ng_s s TYPE ngrambf_v1(1, 100, 2, 9)"
                        + ", INDEX ng_lc lc TYPE ngrambf_v1(2, 256, 2, 0)"
                        + ", INDEX ng_a a TYPE ngrambf_v1(3, 512, 2, 0) GRANULARITY 4"
                        + ", INDEX ng_fs fs TYPE ngrambf_v1(5, 64, 1, 0)"
                        + ", INDEX ng_lower lower(t) TYPE ngrambf_v1(3, 777, 2, 0)"
                        + ", INDEX ng_multi (s, t) TYPE ngrambf_v1(2, 300, 3, 1) GRANULARITY 3";
        assertThat(run("ng" + granularityBytes, indexes, granularityBytes)).isGreaterThan(5);
    }

    private int run(String name, String indexes, long granularityBytes) throws Exception {
        return new SkipIndexDifferential(
                        ch,
                        tmp,
                        name,
                        STRUCTURE,
                        indexes,
                        GENERATOR,
                        ", index_granularity_bytes = " + granularityBytes,
                        FILTERS,
                        false)
                .run();
    }
}
