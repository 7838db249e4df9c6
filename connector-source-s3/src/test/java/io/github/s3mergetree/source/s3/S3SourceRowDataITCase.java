package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.rowdata.BlockRows;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The source as ordinary Flink operators use it: {@code S3Source.forRowData()} typed from a
 * ClickHouse DDL, with a filter and a map on {@code RowData}, compared value by value with what
 * ClickHouse (chDB) prints for the same rows (unsigned integers, Int128, Decimal above 38 digits,
 * Enum, LowCardinality, UUID, IPv4/IPv6, date-times with and without a time zone, FixedString,
 * Nullable, Array, Map, Tuple); and lambdas on {@code Block} that need no {@code .returns(...)}.
 */
class S3SourceRowDataITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final int ROWS = 6000;

    /** {name, ClickHouse type, expression over number}. */
    static final String[][] COLUMNS = {
        {"id", "Int64", "number"},
        {"u8", "UInt8", "number % 256"},
        {"u32", "UInt32", "4294967295 - number"},
        {"u64", "UInt64", "18446744073709551615 - number * 7919"},
        {"i128", "Int128", "toInt128(number) * toInt128('-1000000000000000000000')"},
        {"d", "Decimal(18, 4)", "toDecimal64(number, 4) / 8"},
        {"d76", "Decimal(76, 10)", "toDecimal256(number, 10) / 16 - 100"},
        {
            "e",
            "Enum8('red' = 1, 'green' = 2, 'blue' = -3)",
            "['red', 'green', 'blue'][number % 3 + 1]"
        },
        {"lc", "LowCardinality(String)", "concat('k', toString(number % 7))"},
        {"dt64", "DateTime64(3)", "toDateTime64(1700000000 + number * 3.5, 3, 'UTC')"},
        {"dt", "DateTime", "toDateTime(1600000000 + number * 61, 'UTC')"},
        {
            "dtz",
            "DateTime64(0, 'Asia/Tokyo')",
            "toDateTime(1600000000 + number * 61, 'Asia/Tokyo')"
        },
        {"fs", "FixedString(4)", "substring(concat('ab', toString(number)), 1, 4)"},
        {"uuid", "UUID", "generateUUIDv4(number)"},
        {"ip4", "IPv4", "toIPv4(IPv4NumToString(toUInt32((number * 16777259) % 4294967296)))"},
        {
            "ip6",
            "IPv6",
            "[toIPv6('::ffff:10.0.0.1'), toIPv6(concat('2001:db8::', hex(number % 65535))),"
                    + " toIPv6(concat('fe80:0:0:1:', hex(number % 9), ':0:0:1')), toIPv6('::')]"
                    + "[number % 4 + 1]"
        },
        {"n", "Nullable(Int32)", "if(number % 5 = 0, NULL, toInt32(number) - 3000)"},
        {
            "arr",
            "Array(Nullable(String))",
            "arrayMap(x -> if(x = 1, NULL, toString(x)), range(number % 4))"
        },
        {
            "m",
            "Map(String, UInt32)",
            "mapFromArrays(['a', 'b'], [toUInt32(number), toUInt32(number * 2)])"
        },
        {
            "t",
            "Tuple(a Int32, b String)",
            "tuple(toInt32(number % 100), concat('x', toString(number)))"
        },
        {"date", "Date", "toDate('2020-01-01') + number"},
        {"date32", "Date32", "toDate32('1960-01-01') + number"},
        {"b", "Bool", "number % 2 = 1"},
        {"f32", "Float32", "number / 4"},
    };

    @TempDir static Path dir;
    static String ddl;
    static List<String> expected;

    @BeforeAll
    static void writeObjects() throws Exception {
        StringBuilder select = new StringBuilder();
        StringBuilder text = new StringBuilder();
        StringBuilder columns = new StringBuilder();
        for (String[] c : COLUMNS) {
            select.append(select.length() > 0 ? ", " : "")
                    .append("CAST(")
                    .append(c[2])
                    .append(" AS ")
                    .append(c[1])
                    .append(") AS ")
                    .append(c[0]);
            columns.append(columns.length() > 0 ? ", " : "").append(c[0]).append(' ').append(c[1]);
            String col = c[0];
            String rendered =
                    switch (col) {
                        case "dtz" -> "toUnixTimestamp(dtz)";
                        case "fs" -> "hex(fs)";
                        default -> "toString(" + col + ")";
                    };
            text.append(text.length() > 0 ? ", " : "").append(rendered);
        }
        ddl = "CREATE TABLE t (" + columns + ") ENGINE = MergeTree ORDER BY id";
        Files.createDirectories(dir.resolve("data"));
        try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
            // one table of the values (generateUUIDv4 is random), written out and printed
            chdb.execute("CREATE TABLE v (" + columns + ") ENGINE = Memory");
            chdb.execute("INSERT INTO v SELECT " + select + " FROM numbers(" + ROWS + ")");
            for (int part = 0; part < 2; part++) {
                chdb.execute(
                        "INSERT INTO FUNCTION file('t.native', 'Native') SELECT * FROM v"
                                + " WHERE intDiv(id, "
                                + ROWS / 2
                                + ") = "
                                + part
                                + " ORDER BY id SETTINGS max_block_size = 1000,"
                                + " engine_file_truncate_on_insert = 1");
                Files.copy(
                        chdb.userFilesDir().resolve("t.native"),
                        dir.resolve("data/part-" + part + ".native"));
            }
            // the same rows as ClickHouse prints them
            expected = new ArrayList<>();
            for (String[] row :
                    chdb.rows(
                            "SELECT "
                                    + text
                                    + " FROM v WHERE id % 3 != 0 ORDER BY id"
                                    + " SETTINGS session_timezone = 'UTC'")) {
                expected.add(String.join("|", nullsAsN(row)));
            }
        }
        assertThat(expected).hasSize(ROWS - ROWS / 3);
    }

    private static String[] nullsAsN(String[] row) {
        String[] out = row.clone();
        for (int i = 0; i < out.length; i++) {
            if (out[i] == null) {
                out[i] = "\\N";
            }
        }
        return out;
    }

    @Test
    void rowDataWithFilterAndMapEqualsWhatClickHousePrints() throws Exception {
        S3Source<RowData> source =
                S3Source.forRowData()
                        .forTable(ddl)
                        .setFormat("Native")
                        .setLocation("file://" + dir.resolve("data") + "/*.native")
                        .build();
        RowType rowType = BlockRows.rowTypeOf(TargetSchema.forTable(ddl));
        assertThat(rowType.asSummaryString())
                .contains("`u8` SMALLINT NOT NULL")
                .contains("`u32` BIGINT NOT NULL")
                .contains("`u64` DECIMAL(20, 0) NOT NULL")
                .contains("`i128` STRING NOT NULL")
                .contains("`d` DECIMAL(18, 4) NOT NULL")
                .contains("`d76` STRING NOT NULL")
                .contains("`e` STRING NOT NULL")
                .contains("`dt64` TIMESTAMP(3) NOT NULL")
                .contains("`dt` TIMESTAMP(0) NOT NULL")
                .contains("`dtz` TIMESTAMP_LTZ(0) NOT NULL")
                .contains("`fs` BINARY(4) NOT NULL")
                .contains("`n` INT,")
                .contains("`arr` ARRAY<STRING> NOT NULL")
                .contains("`m` MAP<STRING NOT NULL, BIGINT NOT NULL> NOT NULL")
                .contains("`t` ROW<`a` INT NOT NULL, `b` STRING NOT NULL> NOT NULL")
                .contains("`date32` DATE NOT NULL");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        DataStream<String> rendered =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .filter(r -> r.getLong(0) % 3 != 0)
                        .map(S3SourceRowDataITCase::render);
        List<String> actual = new ArrayList<>();
        try (CloseableIterator<String> it = rendered.executeAndCollect()) {
            it.forEachRemaining(actual::add);
        }
        actual.sort(java.util.Comparator.comparingLong(s -> Long.parseLong(s.split("\\|")[0])));
        assertThat(actual).hasSize(expected.size());
        for (int i = 0; i < actual.size(); i++) {
            assertThat(actual.get(i)).as("row %s", i).isEqualTo(expected.get(i));
        }
    }

    /** A row in the text ClickHouse prints for the same values ({@code toString(...)}). */
    static String render(RowData r) {
        List<String> f = new ArrayList<>();
        f.add(Long.toString(r.getLong(0)));
        f.add(Short.toString(r.getShort(1)));
        f.add(Long.toString(r.getLong(2)));
        f.add(r.getDecimal(3, 20, 0).toBigDecimal().toPlainString());
        f.add(r.getString(4).toString());
        f.add(plain(r.getDecimal(5, 18, 4).toBigDecimal()));
        f.add(r.getString(6).toString());
        f.add(r.getString(7).toString());
        f.add(r.getString(8).toString());
        f.add(
                r.getTimestamp(9, 3)
                        .toLocalDateTime()
                        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS")));
        f.add(
                r.getTimestamp(10, 0)
                        .toLocalDateTime()
                        .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")));
        f.add(Long.toString(r.getTimestamp(11, 0).getMillisecond() / 1000));
        f.add(HexFormat.of().withUpperCase().formatHex(r.getBinary(12)));
        f.add(r.getString(13).toString());
        f.add(r.getString(14).toString());
        f.add(r.getString(15).toString());
        f.add(r.isNullAt(16) ? "\\N" : Integer.toString(r.getInt(16)));
        ArrayData arr = r.getArray(17);
        StringBuilder a = new StringBuilder("[");
        for (int i = 0; i < arr.size(); i++) {
            a.append(i > 0 ? "," : "")
                    .append(arr.isNullAt(i) ? "NULL" : "'" + arr.getString(i) + "'");
        }
        f.add(a.append(']').toString());
        MapData m = r.getMap(18);
        StringBuilder ms = new StringBuilder("{");
        for (int i = 0; i < m.size(); i++) {
            ms.append(i > 0 ? "," : "")
                    .append('\'')
                    .append(m.keyArray().getString(i))
                    .append("':")
                    .append(m.valueArray().getLong(i));
        }
        f.add(ms.append('}').toString());
        RowData t = r.getRow(19, 2);
        f.add("(" + t.getInt(0) + ",'" + t.getString(1) + "')");
        f.add(LocalDate.ofEpochDay(r.getInt(20)).toString());
        f.add(LocalDate.ofEpochDay(r.getInt(21)).toString());
        f.add(Boolean.toString(r.getBoolean(22)));
        float x = r.getFloat(23);
        f.add(x == Math.rint(x) ? Long.toString((long) x) : Float.toString(x));
        return String.join("|", f);
    }

    private static String plain(BigDecimal d) {
        return d.stripTrailingZeros().toPlainString();
    }

    @Test
    void lambdasOnBlocksNeedNoReturnsAndBlocksPrintTheirShape() throws Exception {
        S3Source<Block> source =
                S3Source.builder()
                        .forTable(
                                "CREATE TABLE t (id Int64, lc LowCardinality(String)) ENGINE = MergeTree ORDER BY id")
                        .setFormat("Native")
                        .setLocation("file://" + dir.resolve("data") + "/*.native")
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        DataStream<Block> blocks =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(b -> b)
                        .filter(b -> b.rows() > 0);
        assertThat(blocks.getType()).isInstanceOf(BlockTypeInfo.class);
        long rows = 0;
        List<String> shown = new ArrayList<>();
        try (CloseableIterator<Block> it = blocks.executeAndCollect()) {
            while (it.hasNext()) {
                Block b = it.next();
                rows += b.rows();
                shown.add(b.toString());
            }
        }
        assertThat(rows).isEqualTo(ROWS);
        assertThat(shown.get(0))
                .matches(
                        "Block\\(\\d+ rows, [0-9.]+ KiB: id Int64, lc LowCardinality\\(String\\)\\)");
    }

    @Test
    void aColumnThatCannotBeReadAsItsFlinkTypeFailsTheBuild() {
        assertThatThrownBy(
                        () ->
                                new BlockRows(
                                        TargetSchema.parse("u64 UInt64"),
                                        RowType.of(
                                                new org.apache.flink.table.types.logical.IntType()),
                                        java.time.ZoneOffset.UTC,
                                        org.apache.flink.api.common.typeinfo.TypeInformation.of(
                                                RowData.class)))
                .hasMessageContaining("names no column");
        assertThatThrownBy(
                        () ->
                                new BlockRows(
                                        TargetSchema.parse("f0 UInt64"),
                                        RowType.of(
                                                new org.apache.flink.table.types.logical.IntType()),
                                        java.time.ZoneOffset.UTC,
                                        org.apache.flink.api.common.typeinfo.TypeInformation.of(
                                                RowData.class)))
                .hasMessageContaining("column f0 of ClickHouse type UInt64 cannot be read as")
                .hasMessageContaining("DECIMAL(20, 0)");
    }
}
