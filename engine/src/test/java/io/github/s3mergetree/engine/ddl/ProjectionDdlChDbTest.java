package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code PROJECTION name (SELECT …)} in CREATE TABLE: normal and aggregating projections are parsed
 * into {@link ProjectionDefinition}s whose stored columns, sorting key and query are what
 * ClickHouse 26.7 (chDB) derives for the same table (its part's {@code <name>.proj/columns.txt},
 * {@code system.projections}); the canonical statement round-trips and ClickHouse accepts it; what
 * ClickHouse refuses is refused with its message; what this engine does not write is refused as
 * unsupported, naming the projection.
 */
class ProjectionDdlChDbTest {
    @ChDbSession static ChDb ch;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private static final String COLUMNS =
            "k UInt32, s String, x UInt64, d DateTime, f Float32, i Int16,"
                    + " m UInt64 MATERIALIZED x * 2";

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "PROJECTION p (SELECT k, s, x ORDER BY s)",
                "PROJECTION p (SELECT x ORDER BY s)",
                "PROJECTION p (SELECT * ORDER BY (s, k))",
                "PROJECTION p (SELECT * ORDER BY s, k)",
                "PROJECTION p (SELECT k, x ORDER BY toDate(d))",
                "PROJECTION p (SELECT k, x + 1 AS y ORDER BY k)",
                "PROJECTION p (SELECT k, m ORDER BY m)",
                "PROJECTION `p q` (SELECT s, k ORDER BY x), PROJECTION r (SELECT k ORDER BY i)",
                "PROJECTION a (SELECT k, count(), sum(x), min(x), max(x) GROUP BY k)",
                "PROJECTION a (SELECT s, k, count(x), sum(i) AS si, max(f), min(d) GROUP BY k, s)",
                "PROJECTION a (SELECT toDate(d), sum(f), count(*) GROUP BY toDate(d))",
                "PROJECTION a (SELECT count(), sum(x))",
                "PROJECTION p (SELECT k ORDER BY s), PROJECTION a (SELECT k, max(i) GROUP BY k)",
            })
    void clickHouseDerivesTheSameColumnsKeyAndQuery(String projections) {
        String ddl =
                "CREATE TABLE t ("
                        + COLUMNS
                        + ", "
                        + projections
                        + ") ENGINE = MergeTree ORDER BY k SETTINGS min_bytes_for_wide_part = 0";
        TableSchema schema = TableSchema.parse(ddl);
        String canonical = schema.toCreateTableSql();
        assertThat(TableSchema.parse(canonical)).isEqualTo(schema);
        String name = "p" + TABLES.incrementAndGet();
        ch.execute(canonical.replaceFirst("CREATE TABLE `?t`?", "CREATE TABLE " + name));
        ch.execute(
                "INSERT INTO "
                        + name
                        + " SELECT number % 7, toString(number % 3), number,"
                        + " toDateTime('2024-01-01 00:00:00') + number * 3600, number / 4,"
                        + " number - 50 FROM numbers(100)");
        String partPath =
                ch.query("SELECT path FROM system.parts WHERE active AND table = '" + name + "'");
        List<String> expected = new ArrayList<>();
        List<String> ours = new ArrayList<>();
        for (ProjectionDefinition p : schema.projections()) {
            expected.add(
                    ch.query(
                            "SELECT name, type, sorting_key, query FROM system.projections"
                                    + " WHERE table = '"
                                    + name
                                    + "' AND name = '"
                                    + p.name().replace("'", "\\'")
                                    + "'"));
            ours.add(
                    p.name()
                            + "\t"
                            + (p.aggregating() ? "Aggregate" : "Normal")
                            + "\t"
                            + p.sortingKey().columnNames().stream()
                                    .map(c -> "'" + c.replace("'", "\\'") + "'")
                                    .toList()
                                    .toString()
                                    .replace(", ", ",")
                            + "\t"
                            + p.query());
            // the projection part's columns.txt lists exactly what the definition says it stores
            expected.add(
                    ch.query(
                            "SELECT arrayStringConcat(arrayFilter(l -> l != '',"
                                    + " arraySlice(splitByChar('\\n', file('"
                                    + partPath
                                    + p.directoryName()
                                    + "/columns.txt', 'RawBLOB')), 3)), '|')"));
            List<String> columns = new ArrayList<>();
            if (p.aggregating()) {
                for (int i = 0; i < p.columns().size(); i++) {
                    columns.add(
                            "`" + p.columns().get(i) + "` " + p.sortingKey().types().get(i).name());
                }
                for (ProjectionDefinition.Aggregate a : p.aggregates()) {
                    columns.add("`" + a.columnName() + "` " + a.stateTypeName());
                }
            } else {
                for (String c : p.columns()) {
                    columns.add("`" + c + "` " + schema.columnTypes().get(c).name());
                }
            }
            ours.add(String.join("|", columns));
        }
        assertThat(ours).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "PROJECTION p (SELECT k, sum(x) GROUP BY k ORDER BY k)",
                "PROJECTION p (SELECT k ORDER BY x), PROJECTION p (SELECT x ORDER BY k)",
                "PROJECTION p (SELECT k, x)",
                "PROJECTION p (SELECT k, sum(d) GROUP BY k)",
                "PROJECTION p (SELECT k, sum(s) GROUP BY k)",
            })
    void refusesWhatClickHouseRefusesWithItsMessage(String projections) {
        String ddl =
                "CREATE TABLE t ("
                        + COLUMNS
                        + ", "
                        + projections
                        + ") ENGINE = MergeTree ORDER BY k";
        Throwable theirs =
                catchThrowable(
                        () -> ch.execute(ddl.replace("TABLE t ", "TABLE r" + TABLES.get() + " ")));
        assertThat(theirs).isInstanceOf(ChDbException.class);
        String message = clickHouseMessage(theirs.getMessage());
        assertThatThrownBy(() -> TableSchema.parse(ddl))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(message);
    }

    @Test
    void refusesProjectionsOnOtherEnginesUnlessDeduplicateMergeProjectionModeAllowsThem() {
        String ddl =
                "CREATE TABLE t (k UInt32, x UInt64, PROJECTION p (SELECT k, x ORDER BY x))"
                        + " ENGINE = ReplacingMergeTree ORDER BY k";
        Throwable theirs = catchThrowable(() -> ch.execute(ddl.replace("TABLE t ", "TABLE rr ")));
        String message = clickHouseMessage(theirs.getMessage());
        assertThat(message).contains("ReplacingMergeTree");
        assertThatThrownBy(() -> TableSchema.parse(ddl))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(message);
        for (String mode : List.of("drop", "rebuild")) {
            TableSchema t =
                    TableSchema.parse(
                            ddl + " SETTINGS deduplicate_merge_projection_mode = '" + mode + "'");
            assertThat(t.projections()).hasSize(1);
            assertThat(TableSchema.parse(t.toCreateTableSql())).isEqualTo(t);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "PROJECTION p (SELECT k, avg(x) GROUP BY k)",
                "PROJECTION p (SELECT k, uniq(s) GROUP BY k)",
                "PROJECTION p (SELECT k, max(s) GROUP BY k)",
                "PROJECTION p (SELECT k, x WHERE x > 1 ORDER BY x)",
                "PROJECTION p (SELECT k, x ORDER BY x) WITH SETTINGS (index_granularity = 10)",
                "PROJECTION p (SELECT _part_offset ORDER BY s)",
                "PROJECTION p (SELECT k, _part_offset ORDER BY x)",
            })
    void refusesWhatItDoesNotWriteAsUnsupported(String projection) {
        String ddl =
                "CREATE TABLE t ("
                        + COLUMNS
                        + ", "
                        + projection
                        + ") ENGINE = MergeTree ORDER BY k";
        // ClickHouse takes each of them
        ch.execute(ddl.replace("TABLE t ", "TABLE u" + TABLES.incrementAndGet() + " "));
        assertThatThrownBy(() -> TableSchema.parse(ddl))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("projection p")
                .satisfies(
                        e ->
                                assertThat(((UnsupportedDdlException) e).construct())
                                        .isEqualTo("PROJECTION"));
    }

    @Test
    void aColumnNotGroupedIsRefused() {
        String ddl =
                "CREATE TABLE t (k UInt32, x UInt64, PROJECTION p (SELECT k, x, count() GROUP BY"
                        + " k)) ENGINE = MergeTree ORDER BY k";
        assertThat(catchThrowable(() -> ch.execute(ddl.replace("TABLE t ", "TABLE ng "))))
                .hasMessageContaining("NOT_AN_AGGREGATE");
        assertThatThrownBy(() -> TableSchema.parse(ddl))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(
                        "Column `x` is not under aggregate function and not in" + " GROUP BY keys");
    }

    /** The text between {@code DB::Exception: } and the error code's {@code (NAME)}. */
    private static String clickHouseMessage(String chdbError) {
        int from = chdbError.indexOf("DB::Exception: ") + "DB::Exception: ".length();
        int to = chdbError.lastIndexOf(". (");
        return chdbError.substring(from, to);
    }
}
