package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormatTest;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet written by a real ClickHouse engine (chDB, ZSTD, its own type mapping) read back into
 * Blocks of the same ClickHouse types: the Blocks' RowBinary equals chDB's RowBinary of the same
 * rows, byte for byte.
 */
public class ParquetFromClickHouseTest {
    @TempDir Path dir;

    /** (column, ClickHouse type, expression over number). */
    static final String[][] COLUMNS = {
        {"u8", "UInt8", "toUInt8(number % 256)"},
        {"i16", "Int16", "toInt16(number % 30000) - 15000"},
        {"u32", "UInt32", "toUInt32(number * 7)"},
        {"i64", "Int64", "toInt64(number) * -1000003"},
        {"u64", "UInt64", "toUInt64(number) * 1000000007"},
        {"f32", "Float32", "toFloat32(number / 3)"},
        {"f64", "Float64", "number / 7"},
        {"d9", "Decimal(9, 2)", "toDecimal32(number / 100, 2)"},
        {"d18", "Decimal(18, 4)", "toDecimal64(number / 10000, 4)"},
        {"d38", "Decimal(38, 10)", "toDecimal128(number / 1000, 10)"},
        {"s", "String", "concat('s', toString(number))"},
        {"lc", "LowCardinality(String)", "toLowCardinality(toString(number % 7))"},
        {"fs", "FixedString(4)", "toFixedString(toString(number % 1000), 4)"},
        {"d", "Date", "toDate(number % 20000)"},
        {"d32", "Date32", "toDate32(number % 20000)"},
        {"dt", "DateTime('UTC')", "toDateTime(1700000000 + number, 'UTC')"},
        {"dt3", "DateTime64(3, 'UTC')", "toDateTime64(1700000000 + number / 1000, 3, 'UTC')"},
        {"dt6", "DateTime64(6, 'UTC')", "toDateTime64(1700000000 + number / 1000000, 6, 'UTC')"},
        {"dt9", "DateTime64(9, 'UTC')", "toDateTime64(1700000000 + number / 1000000000, 9, 'UTC')"},
        {
            "uuid",
            "UUID",
            "toUUID(concat('6ba7b810-9dad-11d1-80b4-', leftPad(toString(number), 12, '0')))"
        },
        {"b", "Bool", "number % 2 = 0"},
        {"ns", "Nullable(String)", "if(number % 3 = 0, NULL, toString(number))"},
        {"ni", "Nullable(Int32)", "if(number % 5 = 0, NULL, toInt32(number))"},
        {"arr", "Array(Int32)", "range(number % 4)"},
        {"arr2", "Array(Array(String))", "[[toString(number)], [], ['a', 'b']]"},
        {"arrn", "Array(Nullable(Int64))", "[NULL, toInt64(number)]"},
        {"tup", "Tuple(a Int32, b String)", "(toInt32(number), toString(number * 2))"},
        {
            "tupn",
            "Tuple(Nullable(Float64), Array(UInt8), Tuple(x Int64, y Nullable(String)))",
            "(if(number % 2 = 0, NULL, number / 2), range(number % 3),"
                    + " (toInt64(number), if(number % 5 = 0, NULL, 'y')))"
        },
        {"m", "Map(String, UInt64)", "map(toString(number % 3), number, 'k', 7)"},
        {
            "mn",
            "Map(LowCardinality(String), Array(Nullable(String)))",
            "if(number % 4 = 0, map(), map('x', [NULL, toString(number)], 'z', []))"
        },
        {
            "arrt",
            "Array(Tuple(UInt8, String))",
            "arrayMap(i -> (toUInt8(i), 'x'), range(number % 3))"
        },
        {
            "am",
            "Array(Map(Int32, Tuple(String, Float32)))",
            "[map(1, ('a', 1.5)), map(), map(toInt32(number), (toString(number), 2))]"
        },
    };

    @Test
    void blocksEqualClickHouseRowBinary() throws Exception {
        int rows = 30_000;
        String query = NativeBlockFormatTest.castingSelect(COLUMNS, rows);
        String schema = NativeBlockFormatTest.schemaOf(COLUMNS);
        Files.createDirectories(dir.resolve("data"));
        try (ChDb chdb = NativeBlockFormatTest.startChDb(dir)) {
            chdb.execute(
                    "INSERT INTO FUNCTION file('t.parquet', 'Parquet') "
                            + query
                            + " SETTINGS engine_file_truncate_on_insert = 1,"
                            + " output_format_parquet_row_group_size = 7000");
            chdb.execute(
                    "INSERT INTO FUNCTION file('t.rowbinary', 'RowBinary') "
                            + query
                            + " SETTINGS engine_file_truncate_on_insert = 1");
            Files.copy(chdb.userFilesDir().resolve("t.parquet"), dir.resolve("data/t.parquet"));
            Files.copy(chdb.userFilesDir().resolve("t.rowbinary"), dir.resolve("expected.bin"));
        }
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 4096);
        TargetSchema target = TargetSchema.parse(schema);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.resolve("data").toString())
                                .createClient(),
                        conf)) {
            long bulkBefore = ParquetColumnDecoder.BULK_CHUNKS.get();
            var records = t.readAll(new ParquetBlockFormat(target), t.wholeSplit("t.parquet"));
            assertThat(FormatTesting.rows(records)).isEqualTo(rows);
            // ClickHouse's flat columns went through bulk page decoding ...
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get()).isGreaterThan(bulkBefore);
            // ... and equal the value-by-value decoding
            ParquetColumnDecoder.bulkDecoding = false;
            try {
                var slow = t.readAll(new ParquetBlockFormat(target), t.wholeSplit("t.parquet"));
                assertThat(ReadAsClickHouse.recordsRowBinary(slow))
                        .isEqualTo(ReadAsClickHouse.recordsRowBinary(records));
            } finally {
                ParquetColumnDecoder.bulkDecoding = true;
            }
            ReadAsClickHouse.assertRowBinaryEquals(
                    ReadAsClickHouse.blocks(records),
                    Files.readAllBytes(dir.resolve("expected.bin")));

            // shapes that do not fit are refused naming the object, the column and the shape
            var split = t.wholeSplit("t.parquet");
            assertThatThrownBy(
                            () ->
                                    t.readAll(
                                            new ParquetBlockFormat(
                                                    TargetSchema.parse("tup Tuple(Int32)")),
                                            split))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("t.parquet: column 'tup'")
                    .hasMessageContaining("is a Parquet struct 'tup' of 2 fields");
            assertThatThrownBy(
                            () ->
                                    t.readAll(
                                            new ParquetBlockFormat(TargetSchema.parse("m String")),
                                            split))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("t.parquet: column 'm'")
                    .hasMessageContaining("has no Array or Map there");
        }
    }
}
