package io.github.s3mergetree.sink.mergetree.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.convert.ConversionException;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** RowData → column conversions with ClickHouse's INSERT casting rules, by column name. */
class RowDataInputTest {

    private static InputConverter<RowData> converter(String ddl, DataType rowType, boolean skip) {
        Configuration conf = new Configuration();
        conf.set(MergeTreeSinkOptions.TIMEZONE, "UTC");
        ResolvedTable t = ResolvedTable.resolve(ddl, conf);
        return RowDataInput.of((RowType) rowType.getLogicalType())
                .createConverter(new InputContext(t.schema(), t.layout(), t.serverZone(), skip));
    }

    private static Block block(String ddl) {
        ResolvedTable t = ResolvedTable.resolve(ddl, new Configuration());
        return Block.empty(t.layout().columnNames(), t.layout().columnTypes(), 4);
    }

    private static StringData s(String v) {
        return StringData.fromString(v);
    }

    @Test
    void integersAreRangeChecked() {
        String ddl =
                "CREATE TABLE t (a UInt8, b UInt64, c Int16) ENGINE = MergeTree ORDER BY tuple()";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("a", DataTypes.INT()),
                                DataTypes.FIELD("b", DataTypes.BIGINT()),
                                DataTypes.FIELD("c", DataTypes.BIGINT())),
                        false);
        Block b = block(ddl);
        in.append(GenericRowData.of(255, 7L, -32768L), b);
        assertThat(((ByteColumn) b.column(0)).get(0)).isEqualTo((byte) 255);
        assertThat(((LongColumn) b.column(1)).get(0)).isEqualTo(7L);
        assertThat(((ShortColumn) b.column(2)).get(0)).isEqualTo((short) -32768);
        assertThatThrownBy(() -> in.append(GenericRowData.of(256, 1L, 0L), block(ddl)))
                .isInstanceOf(ConversionException.class)
                .hasMessageContaining("table t, column a, row 1")
                .hasMessageContaining("256")
                .hasMessageContaining("UInt8")
                .hasMessageContaining("record: +I(a=256, b=1, c=0)");
        assertThatThrownBy(() -> in.append(GenericRowData.of(1, -1L, 0L), block(ddl)))
                .hasMessageContaining("column b");
        assertThatThrownBy(() -> in.append(GenericRowData.of(1, 1L, 40000L), block(ddl)))
                .hasMessageContaining("column c");
    }

    @Test
    void stringsIntoEnumFixedStringUuidDateAndLowCardinality() {
        String ddl =
                "CREATE TABLE t (e Enum8('a' = 1, 'b' = -2), f FixedString(3), u UUID, d Date,"
                        + " lc LowCardinality(String), ip IPv4) ENGINE = MergeTree ORDER BY tuple()";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("e", DataTypes.STRING()),
                                DataTypes.FIELD("f", DataTypes.STRING()),
                                DataTypes.FIELD("u", DataTypes.STRING()),
                                DataTypes.FIELD("d", DataTypes.STRING()),
                                DataTypes.FIELD("lc", DataTypes.STRING()),
                                DataTypes.FIELD("ip", DataTypes.STRING())),
                        false);
        Block b = block(ddl);
        in.append(
                GenericRowData.of(
                        s("b"),
                        s("xy"),
                        s("00000000-0000-0001-0000-000000000002"),
                        s("2024-02-29"),
                        s("hello"),
                        s("10.0.0.1")),
                b);
        assertThat(((ByteColumn) b.column(0)).get(0)).isEqualTo((byte) -2);
        byte[] f = ((FixedBytesColumn) b.column(1)).data();
        assertThat(new byte[] {f[0], f[1], f[2]}).isEqualTo(new byte[] {'x', 'y', 0});
        assertThat(((ShortColumn) b.column(3)).get(0))
                .isEqualTo((short) LocalDate.of(2024, 2, 29).toEpochDay());
        assertThat(((StringColumn) b.column(4)).getString(0)).isEqualTo("hello");
        assertThat(((IntColumn) b.column(5)).get(0)).isEqualTo(0x0A000001);
        assertThatThrownBy(
                        () ->
                                in.append(
                                        GenericRowData.of(
                                                s("zz"),
                                                s("x"),
                                                s("00000000-0000-0001-0000-000000000002"),
                                                s("2024-01-01"),
                                                s(""),
                                                s("1.1.1.1")),
                                        block(ddl)))
                .hasMessageContaining("column e")
                .hasMessageContaining("unknown element 'zz'");
        assertThatThrownBy(
                        () ->
                                in.append(
                                        GenericRowData.of(
                                                s("a"),
                                                s("long"),
                                                s("00000000-0000-0001-0000-000000000002"),
                                                s("2024-01-01"),
                                                s(""),
                                                s("1.1.1.1")),
                                        block(ddl)))
                .hasMessageContaining("column f")
                .hasMessageContaining("FixedString(3)");
        assertThatThrownBy(
                        () ->
                                in.append(
                                        GenericRowData.of(
                                                s("a"),
                                                s("x"),
                                                s("not-a-uuid"),
                                                s("2024-01-01"),
                                                s(""),
                                                s("1.1.1.1")),
                                        block(ddl)))
                .hasMessageContaining("column u")
                .hasMessageContaining("not-a-uuid");
    }

    @Test
    void timestampsWithPrecisionAndZones() {
        String ddl =
                "CREATE TABLE t (k DateTime64(3, 'Asia/Kolkata'), n DateTime64(9), l DateTime, s DateTime64(6))"
                        + " ENGINE = MergeTree ORDER BY tuple()";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("k", DataTypes.TIMESTAMP(3)),
                                DataTypes.FIELD("n", DataTypes.TIMESTAMP(9)),
                                DataTypes.FIELD("l", DataTypes.TIMESTAMP_LTZ(3)),
                                DataTypes.FIELD("s", DataTypes.TIMESTAMP(9))),
                        false);
        Block b = block(ddl);
        LocalDateTime wall = LocalDateTime.of(2024, 1, 1, 5, 30, 0);
        Instant instant = Instant.parse("2024-03-01T10:00:00.123Z");
        in.append(
                GenericRowData.of(
                        TimestampData.fromLocalDateTime(wall),
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(2024, 1, 1, 0, 0, 0, 123_456_789)),
                        TimestampData.fromInstant(instant),
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999))),
                b);
        // a wall-clock TIMESTAMP is read in the column's zone
        assertThat(((LongColumn) b.column(0)).get(0))
                .isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());
        assertThat(((LongColumn) b.column(1)).get(0))
                .isEqualTo(
                        Instant.parse("2024-01-01T00:00:00Z").getEpochSecond() * 1_000_000_000L
                                + 123_456_789);
        assertThat(((IntColumn) b.column(2)).get(0)).isEqualTo((int) instant.getEpochSecond());
        // truncated to the column's precision (towards the past, like ClickHouse)
        assertThat(((LongColumn) b.column(3)).get(0)).isEqualTo(-1L);
    }

    /**
     * TIMESTAMP and TIMESTAMP_LTZ before 1970 with a fraction of a second: the DateTime64 ticks are
     * the instant's (the fraction counts forward from the floor second), in UTC and in a column
     * zone.
     */
    @Test
    void preEpochTimestampsWithAFractionKeepTheirFraction() {
        String ddl =
                "CREATE TABLE t (a DateTime64(3), b DateTime64(6, 'America/New_York'),"
                        + " c DateTime64(9), d DateTime64(6))"
                        + " ENGINE = MergeTree ORDER BY tuple()";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("a", DataTypes.TIMESTAMP(3)),
                                DataTypes.FIELD("b", DataTypes.TIMESTAMP(6)),
                                DataTypes.FIELD("c", DataTypes.TIMESTAMP_LTZ(9)),
                                DataTypes.FIELD("d", DataTypes.TIMESTAMP_LTZ(6))),
                        false);
        Block b = block(ddl);
        Instant a = Instant.parse("1921-01-03T06:08:46.045Z");
        LocalDateTime wall = LocalDateTime.of(1967, 1, 2, 21, 15, 26, 947_361_000);
        Instant c = Instant.parse("1900-01-01T00:00:00.000000001Z");
        Instant d = Instant.parse("1969-12-31T23:59:59.999999Z");
        in.append(
                GenericRowData.of(
                        TimestampData.fromLocalDateTime(
                                LocalDateTime.of(1921, 1, 3, 6, 8, 46, 45_000_000)),
                        TimestampData.fromLocalDateTime(wall),
                        TimestampData.fromInstant(c),
                        TimestampData.fromInstant(d)),
                b);
        assertThat(((LongColumn) b.column(0)).get(0)).isEqualTo(a.toEpochMilli());
        Instant bInstant = wall.atZone(java.time.ZoneId.of("America/New_York")).toInstant();
        assertThat(((LongColumn) b.column(1)).get(0))
                .isEqualTo(bInstant.getEpochSecond() * 1_000_000L + 947_361L);
        assertThat(((LongColumn) b.column(2)).get(0))
                .isEqualTo(c.getEpochSecond() * 1_000_000_000L + 1);
        assertThat(((LongColumn) b.column(3)).get(0)).isEqualTo(-1L);
    }

    @Test
    void nullsNestedTypesAndDefaults() {
        String ddl =
                "CREATE TABLE t (id UInt64, n Nullable(Int32), z Int32, a Array(Nullable(String)),"
                        + " m Map(String, UInt16), t Tuple(x Int64, y String),"
                        + " d UInt64 DEFAULT id * 10, mat UInt64 MATERIALIZED id + 1, plain String)"
                        + " ENGINE = MergeTree ORDER BY id";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                DataTypes.FIELD("n", DataTypes.INT()),
                                DataTypes.FIELD("z", DataTypes.INT()),
                                DataTypes.FIELD("a", DataTypes.ARRAY(DataTypes.STRING())),
                                DataTypes.FIELD(
                                        "m", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())),
                                DataTypes.FIELD(
                                        "t",
                                        DataTypes.ROW(
                                                DataTypes.FIELD("x", DataTypes.INT()),
                                                DataTypes.FIELD("y", DataTypes.STRING())))),
                        false);
        Block b = block(ddl);
        in.append(
                GenericRowData.of(
                        5L,
                        null,
                        null,
                        new GenericArrayData(new Object[] {s("p"), null}),
                        new GenericMapData(Map.of(s("k"), 9)),
                        GenericRowData.of(3, s("q"))),
                b);
        Block full = in.complete(b);
        assertThat(((NullableColumn) full.column(1)).isNull(0)).isTrue();
        assertThat(((IntColumn) full.column(2)).get(0)).isZero();
        ArrayColumn a = (ArrayColumn) full.column(3);
        assertThat(a.length(0)).isEqualTo(2);
        assertThat(((NullableColumn) a.elements()).isNull(1)).isTrue();
        assertThat(((ArrayColumn) full.column(4)).length(0)).isEqualTo(1);
        TupleColumn t = (TupleColumn) full.column(5);
        assertThat(((LongColumn) t.element(0)).get(0)).isEqualTo(3L);
        assertThat(((LongColumn) full.column(6)).get(0)).isEqualTo(50L);
        assertThat(((LongColumn) full.column(7)).get(0)).isEqualTo(6L);
        assertThat(((StringColumn) full.column(8)).getString(0)).isEmpty();
    }

    /**
     * Columns of a Nested structure the input does not provide are filled as ClickHouse fills an
     * INSERT that omits them: arrays of defaults with the sizes of the structure's provided column
     * (chDB: {@code INSERT INTO t (id, `n.a`) VALUES (1, ['x','y'])} stores {@code n.b = [0,0]}),
     * and a DEFAULT expression over them sees those arrays.
     */
    @Test
    void absentNestedColumnsTakeTheSizesOfTheirStructure() {
        String ddl =
                "CREATE TABLE t (id UInt64, `n.a` Array(String), `n.b` Array(Int32), `n.c`"
                        + " Array(Nullable(String)), `o.x` Array(UInt8))"
                        + " ENGINE = MergeTree ORDER BY id";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                DataTypes.FIELD("n.a", DataTypes.ARRAY(DataTypes.STRING()))),
                        false);
        Block b = block(ddl);
        in.append(GenericRowData.of(1L, new GenericArrayData(new Object[] {s("x"), s("y")})), b);
        in.append(GenericRowData.of(2L, new GenericArrayData(new Object[] {})), b);
        in.append(GenericRowData.of(3L, new GenericArrayData(new Object[] {s("z")})), b);
        Block full = in.complete(b);
        ArrayColumn nb = (ArrayColumn) full.column(2);
        ArrayColumn nc = (ArrayColumn) full.column(3);
        ArrayColumn ox = (ArrayColumn) full.column(4);
        for (int r = 0; r < 3; r++) {
            int size = ((ArrayColumn) full.column(1)).length(r);
            assertThat(nb.length(r)).as("n.b row %d", r).isEqualTo(size);
            assertThat(nc.length(r)).as("n.c row %d", r).isEqualTo(size);
            // no provided column of structure o: its arrays stay empty
            assertThat(ox.length(r)).isZero();
        }
        assertThat(((IntColumn) nb.elements()).get(0)).isZero();
        assertThat(((NullableColumn) nc.elements()).isNull(2)).isTrue();
    }

    /**
     * A record whose arrays of one Nested structure differ in size is refused as ClickHouse refuses
     * the INSERT (SIZES_OF_ARRAYS_DONT_MATCH), naming the table, the column, the record's number
     * and the record.
     */
    @Test
    void aRecordWithNestedArraysOfDifferentSizesIsRefused() {
        String ddl =
                "CREATE TABLE t (id UInt64, `n.a` Array(String), `n.b` Array(Int32))"
                        + " ENGINE = MergeTree ORDER BY id";
        var in =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                DataTypes.FIELD("n.a", DataTypes.ARRAY(DataTypes.STRING())),
                                DataTypes.FIELD("n.b", DataTypes.ARRAY(DataTypes.INT()))),
                        false);
        Block b = block(ddl);
        in.append(
                GenericRowData.of(
                        1L,
                        new GenericArrayData(new Object[] {s("x")}),
                        new GenericArrayData(new Object[] {7})),
                b);
        assertThatThrownBy(
                        () ->
                                in.append(
                                        GenericRowData.of(
                                                2L,
                                                new GenericArrayData(new Object[] {s("y")}),
                                                new GenericArrayData(new Object[] {8, 9})),
                                        b))
                .isInstanceOf(ConversionException.class)
                .hasMessage(
                        "Cannot insert into table t, column n.b, row 1: Elements 'n.a' and 'n.b'"
                                + " of Nested data structure 'n' (Array columns) have different"
                                + " array sizes (SIZES_OF_ARRAYS_DONT_MATCH): 1 and 2 elements;"
                                + " record: +I(id=2, n.a=[y], n.b=[8, 9])");
    }

    @Test
    void unknownAndMaterializedFieldsAreRefused() {
        String ddl =
                "CREATE TABLE t (id UInt64, mat UInt64 MATERIALIZED id + 1) ENGINE = MergeTree ORDER BY id";
        assertThatThrownBy(
                        () ->
                                converter(
                                        ddl,
                                        DataTypes.ROW(
                                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                                DataTypes.FIELD("extra", DataTypes.INT())),
                                        false))
                .hasMessageContaining("Input field 'extra' names no column of table t")
                .hasMessageContaining("input_format_skip_unknown_fields");
        var skipping =
                converter(
                        ddl,
                        DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                DataTypes.FIELD("extra", DataTypes.INT())),
                        true);
        Block b = block(ddl);
        skipping.append(GenericRowData.of(1L, 2), b);
        assertThat(b.rows()).isEqualTo(1);
        assertThatThrownBy(
                        () ->
                                converter(
                                        ddl,
                                        DataTypes.ROW(
                                                DataTypes.FIELD("id", DataTypes.BIGINT()),
                                                DataTypes.FIELD("mat", DataTypes.BIGINT())),
                                        false))
                .hasMessageContaining("Cannot insert column mat")
                .hasMessageContaining("MATERIALIZED");
    }
}
