package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.SimpleAggregateFunction;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code ENGINE = AggregatingMergeTree} and {@code SimpleAggregateFunction(f, T)} columns in DDL:
 * accepted exactly when ClickHouse (chDB) accepts them, with ClickHouse's type names, and refused
 * with ClickHouse's messages.
 */
class AggregatingMergeTreeDdlTest {
    @ChDbSession static ChDb ch;
    static int tables;

    /** Column lists after {@code k UInt8}, each one table: accepted or refused by both. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "s SimpleAggregateFunction(sum, UInt64)",
                "s SimpleAggregateFunction(SUM, Int64), m SimpleAggregateFunction(Max, UInt32)",
                "s SimpleAggregateFunction(any_value, String), l SimpleAggregateFunction(last_value,"
                        + " Nullable(Int8))",
                "s SimpleAggregateFunction(first_value_respect_nulls, Nullable(String))",
                "s SimpleAggregateFunction(anyLastRespectNulls, Array(String))",
                "s SimpleAggregateFunction(BIT_OR, UInt128), x SimpleAggregateFunction(groupBitXor,"
                        + " Nullable(Int8))",
                "s SimpleAggregateFunction(sum, Decimal(38, 2)), t SimpleAggregateFunction(sum,"
                        + " Decimal(76, 3))",
                "s SimpleAggregateFunction(sumWithOverflow, Decimal(9, 2))",
                "s SimpleAggregateFunction(min, LowCardinality(Nullable(String)))",
                "s SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64),"
                        + " Array(Float64)))",
                "s SimpleAggregateFunction(sumMap, Tuple(Array(Date), Array(Decimal(9, 2))))",
                "s SimpleAggregateFunction(sumMap, Map(String, Decimal(38, 2)))",
                "s SimpleAggregateFunction(minMap, Tuple(Array(String), Array(String)))",
                "s SimpleAggregateFunction(maxMap, Map(String, Int8))",
                "s SimpleAggregateFunction(groupArrayArray(3), Array(UInt8))",
                "s SimpleAggregateFunction(groupUniqArrayArray, Array(Nullable(UInt8)))",
                "s Array(SimpleAggregateFunction(sum, UInt64))",
                "s SimpleAggregateFunction(sum, UInt64), d Date MATERIALIZED today()",
                "s SimpleAggregateFunction(sum, UInt64), p String, q String",
                "plain String",
                // refused
                "s SimpleAggregateFunction(sum, UInt32)",
                "s SimpleAggregateFunction(sum, Float32)",
                "s SimpleAggregateFunction(sum, Decimal(18, 2))",
                "s SimpleAggregateFunction(sum, Bool)",
                "s SimpleAggregateFunction(sum, Date)",
                "s SimpleAggregateFunction(sumWithOverflow, Bool)",
                "s SimpleAggregateFunction(avg, Float64)",
                "s SimpleAggregateFunction(sum(1), UInt64)",
                "s SimpleAggregateFunction(sum)",
                "s SimpleAggregateFunction(sum, UInt64, UInt64)",
                "s SimpleAggregateFunction(groupBitOr, Float64)",
                "s SimpleAggregateFunction(groupBitAnd, Enum8('a' = 1))",
                "s SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt8)))",
                "s SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(String)))",
                "s SimpleAggregateFunction(sumMap, UInt64)",
                "s SimpleAggregateFunction(groupArrayArray, String)",
                "s SimpleAggregateFunction(groupArrayArray, Array(Nullable(String)))",
                "s SimpleAggregateFunction(groupArrayArray(0), Array(UInt8))",
                "s SimpleAggregateFunction(groupArrayArray(1, 2), Array(UInt8))",
                "s SimpleAggregateFunction(anylast, UInt8)",
                "s SimpleAggregateFunction(sum, UInt64), o String",
                "s SimpleAggregateFunction(sum, UInt64), o String DEFAULT 'x'",
            })
    void acceptsAndRefusesAsClickHouse(String columns) {
        String tail = " ENGINE = AggregatingMergeTree PARTITION BY p ORDER BY (k, q)";
        boolean partitioned = columns.contains(" p String");
        String ddl =
                "CREATE TABLE t"
                        + (++tables)
                        + " (k UInt8, "
                        + columns
                        + ")"
                        + (partitioned ? tail : " ENGINE = AggregatingMergeTree ORDER BY k");
        String chError = null;
        try {
            ch.execute(ddl);
        } catch (ChDbException e) {
            chError = e.getMessage();
        }
        if (chError == null) {
            TableSchema s = DdlParser.parse(ddl);
            assertThat(s.engine().kind()).isEqualTo(EngineDefinition.Kind.AGGREGATING_MERGE_TREE);
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
            TableSchema back = DdlParser.parse(s.toCreateTableSql());
            assertThat(back).isEqualTo(s);
            TableLayouts.fromDdl(ddl);
        } else {
            String clickHouse = chError;
            assertThatThrownBy(() -> DdlParser.parse(ddl))
                    .as("ClickHouse refuses: %s", clickHouse)
                    .isInstanceOfAny(DdlParseException.class, UnsupportedDdlException.class);
        }
    }

    @Test
    void refusesWithClickHousesMessages() {
        String[][] cases = {
            {
                "s SimpleAggregateFunction(sum, UInt32)",
                "Incompatible data types between aggregate function 'sum' which returns UInt64 and"
                        + " column storage type UInt32"
            },
            {
                "s SimpleAggregateFunction(avg, Float64)",
                "Unsupported aggregate function avg, supported functions are any,"
            },
            {
                "s SimpleAggregateFunction(groupArrayLastArray(2), Array(UInt8))",
                "SimpleAggregateFunction(groupArrayLastArray, ...) is not supported by this engine"
            },
            {
                "s SimpleAggregateFunction(sum(1), UInt64)",
                "Aggregate function sum cannot have parameters"
            },
            {
                "s SimpleAggregateFunction(groupBitOr, Float64)",
                "Illegal type Float64 of argument for aggregate function groupBitOr"
            },
            {
                "s SimpleAggregateFunction(sum, UInt64), o String",
                "Column(s) o of the AggregatingMergeTree table are neither part of the sorting key"
                        + " nor aggregate measures"
            },
        };
        for (String[] c : cases) {
            String ddl =
                    "CREATE TABLE t (k UInt8, "
                            + c[0]
                            + ") ENGINE = AggregatingMergeTree ORDER BY k";
            assertThatThrownBy(() -> DdlParser.parse(ddl))
                    .as(ddl)
                    .isInstanceOf(
                            c[1].contains("this engine")
                                    ? UnsupportedDdlException.class
                                    : DdlParseException.class)
                    .hasMessageContaining(c[1]);
        }
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (k UInt8) ENGINE = AggregatingMergeTree(k)"
                                                + " ORDER BY k"))
                .hasMessageContaining(
                        "With extended storage definition syntax storage AggregatingMergeTree"
                                + " requires no parameters");
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (k UInt8, s SimpleAggregateFunction(sum,"
                                                + " UInt64)) ENGINE = AggregatingMergeTree ORDER BY"
                                                + " (k, s)"))
                .hasMessageContaining(
                        "Column with type SimpleAggregateFunction(sum, UInt64) is not allowed in"
                                + " key expression");
    }

    @Test
    void dimensionsOutsideTheSortingKeyAreAllowedBySetting() {
        TableSchema s =
                DdlParser.parse(
                        "CREATE TABLE t (k UInt8, o String, s SimpleAggregateFunction(sum, UInt64))"
                                + " ENGINE = AggregatingMergeTree() ORDER BY k SETTINGS"
                                + " allow_dimensions_outside_sorting_key = 1");
        assertThat(s.engine().toSql()).isEqualTo("AggregatingMergeTree");
        assertThat(s.column("s").get().type().simpleAggregateFunction().function())
                .isEqualTo(SimpleAggregateFunction.Function.SUM);
        assertThat(s.column("s").get().type().withoutSimpleAggregateFunction())
                .isEqualTo(DataTypes.UINT64);
    }

    @Test
    void summingMergeTreeWithSimpleAggregateFunctionIsRefusedNotSummed() {
        String ddl =
                "CREATE TABLE t (k UInt8, s SimpleAggregateFunction(anyLast, UInt64)) ENGINE ="
                        + " SummingMergeTree ORDER BY k";
        ch.execute(ddl.replace("TABLE t ", "TABLE summing "));
        assertThatThrownBy(() -> TableLayouts.fromDdl(ddl))
                .hasMessageContaining(
                        "column s SimpleAggregateFunction(anyLast, UInt64): SummingMergeTree merges"
                                + " a SimpleAggregateFunction column with its function");
    }
}
