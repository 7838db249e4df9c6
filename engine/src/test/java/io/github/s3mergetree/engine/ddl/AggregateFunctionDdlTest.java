package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code AggregateFunction(f, T…)} state columns in DDL: accepted with ClickHouse's type names when
 * ClickHouse (chDB) accepts them, refused when it refuses them, with ClickHouse's message where
 * ClickHouse's reason applies.
 */
class AggregateFunctionDdlTest {
    @ChDbSession static ChDb ch;
    static int tables;

    /** Column lists after {@code k UInt8}: accepted by both with equal type names. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "s AggregateFunction(sum, UInt64)",
                "s AggregateFunction(SUM, Nullable(Int8)), a AggregateFunction(AVG, Decimal(9, 2))",
                "s AggregateFunction(any_value, String), l AggregateFunction(last_value, UInt8)",
                "s AggregateFunction(first_value, Array(String))",
                "c AggregateFunction(count), n AggregateFunction(count, Nullable(String))",
                "m AggregateFunction(min, DateTime64(3, 'UTC')), x AggregateFunction(max, String)",
                "a AggregateFunction(argMax, String, DateTime), b AggregateFunction(argMin,"
                        + " Array(UInt8), Float64)",
                "g AggregateFunction(groupArray, String), h AggregateFunction(groupArray(3),"
                        + " Nullable(UInt32))",
                "v AggregateFunction(0, sum, UInt64), w AggregateFunction(1, avg, Int16)",
                "s AggregateFunction(sum, UInt64), p SimpleAggregateFunction(sum, UInt64)",
                "u AggregateFunction(uniqExact, String), v AggregateFunction(uniqExact,"
                        + " Nullable(UInt128))",
                "u AggregateFunction(uniq, String), v AggregateFunction(uniq,"
                        + " Nullable(Decimal(9, 2))), w AggregateFunction(uniq, UUID)",
                "c AggregateFunction(uniqCombined, String), d AggregateFunction(uniqCombined64,"
                        + " Nullable(Float64))",
                "g AggregateFunction(groupArrayArray, Array(String)), h"
                        + " AggregateFunction(groupArrayArray(3), Array(Nullable(UInt8)))",
            })
    void acceptsWithClickHousesTypeNames(String columns) {
        String ddl = ddl(columns, "ORDER BY k");
        ch.execute(ddl);
        TableSchema s = DdlParser.parse(ddl);
        List<String> types = s.columns().stream().map(c -> c.type().name()).toList();
        assertThat(types)
                .isEqualTo(
                        ch
                                .rows(
                                        "SELECT type FROM system.columns WHERE database ="
                                                + " currentDatabase() AND table = 't"
                                                + tables
                                                + "' ORDER BY position")
                                .stream()
                                .map(r -> r[0])
                                .toList());
        assertThat(DdlParser.parse(s.toCreateTableSql())).isEqualTo(s);
    }

    /**
     * "columns|ORDER BY …|message": ClickHouse refuses the table with the message, and so do we.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "s AggregateFunction(foo, UInt8)|ORDER BY k|Unknown aggregate function foo",
                "s AggregateFunction(sum, String)|ORDER BY k|Illegal type String of argument for"
                        + " aggregate function sum",
                "s AggregateFunction(avg, UUID)|ORDER BY k|Illegal type UUID of argument for"
                        + " aggregate function avg",
                "s AggregateFunction(sum)|ORDER BY k|Aggregate function sum requires single"
                        + " argument",
                "s AggregateFunction(uniqExact)|ORDER BY k|Incorrect number of arguments for"
                        + " aggregate function uniqExact",
                "s AggregateFunction(uniq)|ORDER BY k|Incorrect number of arguments for aggregate"
                        + " function uniq",
                "s AggregateFunction(uniq(1), UInt8)|ORDER BY k|Aggregate function uniq cannot"
                        + " have parameters",
                "s AggregateFunction(uniqCombined)|ORDER BY k|Incorrect number of arguments for"
                        + " aggregate function uniqCombined",
                "s AggregateFunction(groupArrayArray, UInt8)|ORDER BY k|Illegal type UInt8 of"
                        + " argument for aggregate function with Array suffix. Must be array.",
                "s AggregateFunction(groupArrayArray(0), Array(UInt8))|ORDER BY k|Parameter for"
                        + " aggregate function groupArray should be positive number",
                "s AggregateFunction(groupArrayArray)|ORDER BY k|Array aggregate functions"
                        + " require at least one argument",
                "s AggregateFunction(sum, UInt8, UInt8)|ORDER BY k|Aggregate function sum requires"
                        + " single argument",
                "s AggregateFunction(argMax, UInt8)|ORDER BY k|Aggregate function argMax requires"
                        + " two arguments",
                "s AggregateFunction(count, UInt8, String)|ORDER BY k|Aggregate function count"
                        + " requires zero or one argument",
                "s AggregateFunction(sum(1), UInt8)|ORDER BY k|Aggregate function sum cannot have"
                        + " parameters",
                "s AggregateFunction(groupArray(0), UInt8)|ORDER BY k|Parameter for aggregate"
                        + " function groupArray should be positive number",
                "s AggregateFunction(groupArray(1, 2), UInt8)|ORDER BY k|Incorrect number of"
                        + " parameters for aggregate function groupArray, should be 0 or 1",
                "s AggregateFunction(sum, UInt64)|ORDER BY (k, s)|Column `s` with type"
                        + " AggregateFunction(sum, UInt64) is not allowed in key expression, it's"
                        + " not comparable",
                "s AggregateFunction(sum, UInt64)|PARTITION BY s ORDER BY k|Column `s` with type"
                        + " AggregateFunction(sum, UInt64) is not allowed in key expression, it's"
                        + " not comparable",
                "s AggregateFunction(sum, UInt64), o String|ORDER BY k|Column(s) o of the"
                        + " AggregatingMergeTree table are neither part of the sorting key nor"
                        + " aggregate measures",
            })
    void refusesAsClickHouse(String testCase) {
        String[] parts = testCase.split("\\|");
        String ddl = ddl(parts[0], parts[1]);
        assertThatThrownBy(() -> ch.execute(ddl))
                .isInstanceOf(ChDbException.class)
                .hasMessageContaining(parts[2]);
        assertThatThrownBy(() -> DdlParser.parse(ddl))
                .isInstanceOfAny(DdlParseException.class, UnsupportedDdlException.class)
                .hasMessageContaining(parts[2]);
    }

    /** Accepted by ClickHouse, refused here naming what this engine supports. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "s AggregateFunction(sumIf, UInt64, UInt8)",
                "s AggregateFunction(avg, Date)",
                "s AggregateFunction(uniqExact, Float64)",
                "s AggregateFunction(uniqExact, UInt8, String)",
                "s AggregateFunction(uniqCombined(12), UInt64)",
                "s AggregateFunction(uniqCombined, UUID)",
                "s AggregateFunction(uniqCombined64, UInt64, String)",
                "s AggregateFunction(groupArray, Decimal(9, 2))",
                "s AggregateFunction(groupArray, Array(UInt8))",
                "s AggregateFunction(groupArray(2), Nullable(FixedString(2)))",
                "s AggregateFunction(groupArray, UUID)",
                "s AggregateFunction(groupArray, Date32)",
                "s AggregateFunction(groupArrayArray, Array(Array(UInt16)))",
                "s AggregateFunction(groupArrayArray, Array(DateTime64(3)))",
                "s AggregateFunction(uniq, UInt8, String)",
                "s AggregateFunction(uniq, Array(UInt8))",
                "s AggregateFunction(uniq, Tuple(UInt8, String))",
                "s AggregateFunction(quantiles(0.5, 0.9), Float64)",
                "s AggregateFunction(any, LowCardinality(String))",
                "s AggregateFunction(min, Array(UInt8))",
                "s AggregateFunction(argMax, Nullable(String), UInt8)",
            })
    void refusesWhatThisEngineCannotMergeNamingIt(String columns) {
        String ddl = ddl(columns, "ORDER BY k");
        ch.execute(ddl);
        assertThatThrownBy(() -> DdlParser.parse(ddl))
                .isInstanceOfAny(DdlParseException.class, UnsupportedDdlException.class)
                .hasMessageContaining("not supported by this engine");
    }

    /** SummingMergeTree merges state columns' states; this engine's merges would keep one row's. */
    @Test
    void summingMergeTreeWithStateColumnsIsRefusedNamingTheColumn() {
        String ddl =
                "CREATE TABLE s (k UInt8, v UInt64, s AggregateFunction(sum, UInt64))"
                        + " ENGINE = SummingMergeTree ORDER BY k";
        ch.execute(ddl);
        assertThatThrownBy(() -> TableLayouts.fromDdl(ddl))
                .hasMessageContaining(
                        "column s AggregateFunction(sum, UInt64): SummingMergeTree merges an"
                                + " AggregateFunction column's states; this engine implements that"
                                + " only for AggregatingMergeTree");
    }

    /** A plain MergeTree just stores the states. */
    @Test
    void plainMergeTreeStoresStateColumns() {
        String ddl =
                "CREATE TABLE plain (k UInt8, s AggregateFunction(avg, Float64))"
                        + " ENGINE = MergeTree ORDER BY k";
        ch.execute(ddl);
        assertThat(TableLayouts.fromDdl(ddl).columnTypes().get(1).name())
                .isEqualTo("AggregateFunction(avg, Float64)");
    }

    private static String ddl(String columns, String keys) {
        return "CREATE TABLE t"
                + (++tables)
                + " (k UInt8, "
                + columns
                + ") ENGINE = AggregatingMergeTree "
                + keys;
    }
}
