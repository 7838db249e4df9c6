package io.github.s3mergetree.source.s3.format.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.arrow.ArrowBlockFormat.Kind;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormatTest;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Arrow IPC objects (file and stream formats) written by a real ClickHouse engine (chDB: lz4_frame
 * or zstd compressed buffers, dictionaries for LowCardinality, its own type mapping) served by
 * S3Proxy on loopback and read into Blocks: their RowBinary equals chDB's RowBinary of its own
 * reading of the same object with the same schema, byte for byte.
 */
public class ArrowFromClickHouseTest {
    static final String BUCKET = "arrow";
    static final int ROWS = 20_000;

    /** (column, ClickHouse type, expression over number). */
    static final String[][] COLUMNS = {
        {"u8", "UInt8", "toUInt8(number % 256)"},
        {"i8", "Int8", "toInt8(number % 200 - 100)"},
        {"u16", "UInt16", "toUInt16(number * 3)"},
        {"i16", "Int16", "toInt16(number % 30000) - 15000"},
        {"u32", "UInt32", "toUInt32(number * 7)"},
        {"i32", "Int32", "toInt32(number) * -7"},
        {"i64", "Int64", "toInt64(number) * -1000003"},
        {"u64", "UInt64", "toUInt64(number) * 1000000007 + 9223372036854775807"},
        {"i128", "Int128", "toInt128(number) * -100000000000000000"},
        {"u256", "UInt256", "toUInt256(number) * toUInt256('100000000000000000000')"},
        {"f32", "Float32", "toFloat32(number / 3)"},
        {"f64", "Float64", "number / 7"},
        {"d9", "Decimal(9, 2)", "toDecimal32(number / 100, 2)"},
        {"d18", "Decimal(18, 4)", "toDecimal64(number / 10000, 4)"},
        {"d38", "Decimal(38, 10)", "toDecimal128(number / 1000, 10)"},
        {"d76", "Decimal(76, 20)", "toDecimal256(number / 1000, 20)"},
        {"s", "String", "concat('s', toString(number))"},
        {"lc", "LowCardinality(String)", "toLowCardinality(toString(number % 7))"},
        {
            "lcn",
            "LowCardinality(Nullable(String))",
            "if(number % 4 = 0, NULL, toString(number % 5))"
        },
        {"fs", "FixedString(4)", "toFixedString(toString(number % 1000), 4)"},
        {"d", "Date", "toDate(number % 20000)"},
        {"d32", "Date32", "toDate32(number % 20000) - 20000"},
        {"dt", "DateTime('UTC')", "toDateTime(1700000000 + number, 'UTC')"},
        {"dt0", "DateTime64(0, 'UTC')", "toDateTime64(1700000000 + number, 0, 'UTC')"},
        {"dt3", "DateTime64(3, 'UTC')", "toDateTime64(1700000000 + number / 1000, 3, 'UTC')"},
        {
            "dt6",
            "DateTime64(6, 'Asia/Tokyo')",
            "toDateTime64(1700000000 + number / 1000000, 6, 'Asia/Tokyo')"
        },
        {"dt9", "DateTime64(9, 'UTC')", "toDateTime64(1700000000 + number / 1000000000, 9, 'UTC')"},
        {
            "uuid",
            "UUID",
            "toUUID(concat('6ba7b810-9dad-11d1-80b4-', leftPad(toString(number), 12, '0')))"
        },
        {"ip4", "IPv4", "toIPv4(number * 65537)"},
        {"ip6", "IPv6", "toIPv6(concat('2001:db8::', hex(number % 65536)))"},
        {"e8", "Enum8('a' = 1, 'b' = 2, 'c' = -3)", "['a', 'b', 'c'][number % 3 + 1]"},
        {"b", "Bool", "number % 2 = 0"},
        {"ns", "Nullable(String)", "if(number % 3 = 0, NULL, toString(number))"},
        {"ni", "Nullable(Int32)", "if(number % 5 = 0, NULL, toInt32(number))"},
        {"arr", "Array(Int32)", "range(number % 4)"},
        {"arr2", "Array(Array(String))", "[[toString(number)], [], ['a', 'b']]"},
        {"arrn", "Array(Nullable(Int64))", "[NULL, toInt64(number)]"},
        {"tup", "Tuple(a Int32, b String)", "(toInt32(number), toString(number * 2))"},
        {
            "tupn",
            "Tuple(Nullable(Float64), Array(UInt8))",
            "(if(number % 2 = 0, NULL, number / 2), [1, 2])"
        },
        {"m", "Map(String, UInt64)", "map(toString(number % 3), number, 'k', 7)"},
        {
            "mn",
            "Map(LowCardinality(String), Array(Nullable(String)))",
            "map('x', [NULL, toString(number)])"
        },
        {"arrt", "Array(Tuple(UInt8, String))", "[(toUInt8(number % 9), 'x')]"},
    };

    @TempDir static Path dir;
    static S3TestServer s3;

    @BeforeAll
    static void writeObjects() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        String query = NativeBlockFormatTest.castingSelect(COLUMNS, ROWS);
        String schema = NativeBlockFormatTest.schemaOf(COLUMNS);
        try (ChDb chdb = NativeBlockFormatTest.startChDb(dir)) {
            String[][] files = {
                // name, format, settings
                {
                    "lz4-dict.arrow",
                    "Arrow",
                    "output_format_arrow_low_cardinality_as_dictionary = 1"
                },
                {"plain.arrow", "Arrow", "output_format_arrow_compression_method = 'none'"},
                {
                    "zstd-dict.arrows",
                    "ArrowStream",
                    "output_format_arrow_compression_method = 'zstd',"
                            + " output_format_arrow_low_cardinality_as_dictionary = 1"
                },
                {"lz4.arrows", "ArrowStream", "output_format_arrow_string_as_string = 0"},
            };
            for (String[] f : files) {
                chdb.execute(
                        "INSERT INTO FUNCTION file('"
                                + f[0]
                                + "', '"
                                + f[1]
                                + "') "
                                + query
                                + " SETTINGS engine_file_truncate_on_insert = 1,"
                                + " max_block_size = 3000, "
                                + f[2]);
                // chDB's own reading of the object with the target schema: the expected rows
                Path written = chdb.userFilesDir().resolve(f[0]);
                Files.write(
                        dir.resolve(f[0] + ".rowbinary"),
                        chdb.readFileAsRowBinary(written, f[1], schema, ""));
                s3.put(BUCKET, f[0], Files.readAllBytes(written));
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    static FormatTesting testing(int maxBlockSize) {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, maxBlockSize);
        conf.set(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 64L * 1024);
        return new FormatTesting(
                ObjectStoreConfig.s3(
                                BUCKET,
                                s3.endpoint(),
                                "us-east-1",
                                true,
                                S3TestServer.ACCESS_KEY,
                                S3TestServer.SECRET_KEY,
                                Duration.ofSeconds(5),
                                Duration.ofSeconds(30),
                                8)
                        .createClient(),
                conf);
    }

    @ParameterizedTest
    @CsvSource({
        "lz4-dict.arrow, Arrow",
        "plain.arrow, Arrow",
        "zstd-dict.arrows, ArrowStream",
        "lz4.arrows, ArrowStream"
    })
    void blocksEqualClickHouseReading(String key, String format) throws Exception {
        TargetSchema target = TargetSchema.parse(NativeBlockFormatTest.schemaOf(COLUMNS));
        ArrowBlockFormat f = new ArrowBlockFormat(Kind.of(format), target);
        byte[] expected = Files.readAllBytes(dir.resolve(key + ".rowbinary"));
        try (FormatTesting t = testing(2048)) {
            S3ObjectSplit split = t.wholeSplit(key);
            var records = t.readAll(f, split);
            assertThat(FormatTesting.rows(records)).isEqualTo(ROWS);
            assertThat(records)
                    .allSatisfy(r -> assertThat(r.record().rows()).isLessThanOrEqualTo(2048));
            ReadAsClickHouse.assertRowBinaryEquals(ReadAsClickHouse.blocks(records), expected);

            // resume from every 4th position: the rest equals the rest of the full read
            for (int i = 0; i < records.size(); i += 4) {
                PositionedRecord<Block> at = records.get(i);
                var rest = t.readAll(f, split.withPosition(at.offset(), at.recordsToSkip()));
                var full = records.subList(i + 1, records.size());
                assertThat(ReadAsClickHouse.recordsRowBinary(rest))
                        .isEqualTo(ReadAsClickHouse.recordsRowBinary(full));
            }
        }
    }

    @Test
    void columnsAreMatchedByNameAndMissingOnesGetDefaults() throws Exception {
        ArrowBlockFormat f =
                new ArrowBlockFormat(
                        Kind.ARROW_STREAM,
                        TargetSchema.parse(
                                "s String, missing Nullable(Int8), u32 Int64, e8 String, d32 String"));
        try (FormatTesting t = testing(65536)) {
            var records = t.readAll(f, t.wholeSplit("lz4.arrows"));
            assertThat(FormatTesting.rows(records)).isEqualTo(ROWS);
            Block b = records.get(0).record();
            int r = 1234;
            assertThat(b.column(0).size()).isEqualTo(b.rows());
            assertThat(
                            ((io.github.s3mergetree.engine.column.StringColumn) b.column(0))
                                    .getString(r))
                    .isEqualTo("s" + r);
            assertThat(((io.github.s3mergetree.engine.column.NullableColumn) b.column(1)).isNull(r))
                    .isTrue();
            assertThat(((io.github.s3mergetree.engine.column.LongColumn) b.column(2)).get(r))
                    .isEqualTo(r * 7L);
            assertThat(
                            ((io.github.s3mergetree.engine.column.StringColumn) b.column(4))
                                    .getString(0))
                    .isEqualTo("1915-03-31");
        }
    }

    @Test
    void errorsNameObjectBatchOffsetAndColumn() throws Exception {
        try (FormatTesting t = testing(65536)) {
            ArrowBlockFormat wrongShape =
                    new ArrowBlockFormat(Kind.ARROW, TargetSchema.parse("arr String"));
            assertThatThrownBy(() -> t.readAll(wrongShape, t.wholeSplit("plain.arrow")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("s3://arrow/plain.arrow: record batch 0 at byte ")
                    .hasMessageContaining("column 'arr' (Arrow List")
                    .hasMessageContaining("cannot be read as String");

            ArrowBlockFormat overflow =
                    new ArrowBlockFormat(Kind.ARROW, TargetSchema.parse("u32 UInt8"));
            assertThatThrownBy(() -> t.readAll(overflow, t.wholeSplit("plain.arrow")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("s3://arrow/plain.arrow: record batch 0 at byte ")
                    .hasMessageContaining(", row 37, column 'u32' (Arrow Int(32, false) → UInt8)")
                    // the position is said once, not again as "Cannot insert into table <object>"
                    .hasMessageNotContaining("Cannot insert into table");

            ArrowBlockFormat streamAsFile =
                    new ArrowBlockFormat(Kind.ARROW, TargetSchema.parse("s String"));
            assertThatThrownBy(() -> t.readAll(streamAsFile, t.wholeSplit("lz4.arrows")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("s3://arrow/lz4.arrows: not a readable Arrow object");
        }
    }

    @Test
    void kindsByClickHouseName() {
        assertThat(Kind.of("arrow")).isEqualTo(Kind.ARROW);
        assertThat(Kind.of("ArrowStream")).isEqualTo(Kind.ARROW_STREAM);
        assertThatThrownBy(() -> Kind.of("Feather"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Feather");
    }
}
