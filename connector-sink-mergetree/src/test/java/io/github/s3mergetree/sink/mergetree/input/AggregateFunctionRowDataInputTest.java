package io.github.s3mergetree.sink.mergetree.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.convert.ConversionException;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * RowData into {@code AggregateFunction(f, T…)} columns: the row's argument values become f's state
 * over the row. The expected bytes are chDB 26.7's for the same values ({@code SELECT
 * hex(fState(x))}; the engine's AggregateFunctionInputChDbTest compares them live).
 */
class AggregateFunctionRowDataInputTest {
    private static final String DDL =
            "CREATE TABLE t (k UInt8, s AggregateFunction(sum, UInt64), c AggregateFunction(count),"
                    + " a AggregateFunction(argMax, String, DateTime('UTC')),"
                    + " n AggregateFunction(anyLast, Nullable(String)))"
                    + " ENGINE = AggregatingMergeTree ORDER BY k";

    private static InputConverter<RowData> converter() {
        Configuration conf = new Configuration();
        conf.set(MergeTreeSinkOptions.TIMEZONE, "UTC");
        ResolvedTable t = ResolvedTable.resolve(DDL, conf);
        RowType rowType =
                (RowType)
                        DataTypes.ROW(
                                        DataTypes.FIELD("k", DataTypes.INT()),
                                        DataTypes.FIELD("s", DataTypes.BIGINT()),
                                        DataTypes.FIELD("c", DataTypes.BOOLEAN()),
                                        DataTypes.FIELD(
                                                "a",
                                                DataTypes.ROW(
                                                        DataTypes.FIELD("r", DataTypes.STRING()),
                                                        DataTypes.FIELD(
                                                                "v", DataTypes.TIMESTAMP_LTZ(0)))),
                                        DataTypes.FIELD("n", DataTypes.STRING()))
                                .getLogicalType();
        return RowDataInput.of(rowType)
                .createConverter(new InputContext(t.schema(), t.layout(), t.serverZone(), false));
    }

    private static Block block() {
        ResolvedTable t = ResolvedTable.resolve(DDL, new Configuration());
        return Block.empty(t.layout().columnNames(), t.layout().columnTypes(), 4);
    }

    @Test
    void plainValuesBecomeTheStatesOfTheirRow() {
        var in = converter();
        Block b = block();
        in.append(
                GenericRowData.of(
                        1,
                        5L,
                        null,
                        GenericRowData.of(
                                StringData.fromString("x"),
                                TimestampData.fromEpochMillis(1577836800000L)),
                        StringData.fromString("ab")),
                b);
        in.append(GenericRowData.of(2, null, true, null, null), b);
        assertThat(hex(b, 1, 0)).isEqualTo("0500000000000000");
        assertThat(hex(b, 2, 0)).as("count() counts the row, whatever its value").isEqualTo("01");
        assertThat(hex(b, 3, 0)).isEqualTo("0200000078000100E10B5E");
        assertThat(hex(b, 4, 0)).isEqualTo("0103000000616200");
        assertThat(hex(b, 1, 1)).as("NULL: the empty state").isEqualTo("0000000000000000");
        assertThat(hex(b, 2, 1)).isEqualTo("01");
        assertThat(hex(b, 3, 1)).isEqualTo("FFFFFFFF00");
        assertThat(hex(b, 4, 1)).isEqualTo("00");
    }

    @Test
    void anArgumentOutOfItsTypesRangeIsRefusedNamingTheColumn() {
        var in = converter();
        assertThatThrownBy(() -> in.append(GenericRowData.of(1, -1L, null, null, null), block()))
                .isInstanceOf(ConversionException.class)
                .hasMessageContaining("column s")
                .hasMessageContaining("AggregateFunction(sum, UInt64)");
    }

    private static String hex(Block b, int column, int row) {
        StringColumn c = (StringColumn) b.column(column);
        return HexFormat.of()
                .withUpperCase()
                .formatHex(Arrays.copyOfRange(c.bytes(), c.start(row), c.end(row)));
    }
}
