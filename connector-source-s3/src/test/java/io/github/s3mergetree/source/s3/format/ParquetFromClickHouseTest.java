package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.s3.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet written by a real ClickHouse engine (chDB, ZSTD, its own type mapping) read back into
 * Blocks of the same ClickHouse types: the Blocks' RowBinary equals chDB's RowBinary of the same
 * rows, byte for byte.
 */
class ParquetFromClickHouseTest {
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
            var records = t.readAll(new ParquetBlockFormat(target), t.wholeSplit("t.parquet"));
            assertThat(FormatTesting.rows(records)).isEqualTo(rows);
            ByteArraySink out = new ByteArraySink();
            List<Block> blocks = new ArrayList<>();
            records.forEach(r -> blocks.add(r.record()));
            for (Block b : blocks) {
                for (int r = 0; r < b.rows(); r++) {
                    for (int c = 0; c < b.columnCount(); c++) {
                        ValueSerde.write(b.types().get(c), b.column(c), r, out);
                    }
                }
            }
            byte[] expected = Files.readAllBytes(dir.resolve("expected.bin"));
            byte[] got = out.toByteArray();
            if (!java.util.Arrays.equals(got, expected)) {
                // name the first differing column to make a failure readable
                int pos = java.util.Arrays.mismatch(got, expected);
                assertThat(firstDifference(blocks, expected))
                        .isEqualTo("none (mismatch at byte " + pos + ")");
            }
        }
    }

    /** Which row and column first differ, found by re-serializing value by value. */
    static String firstDifference(List<Block> blocks, byte[] expected) {
        ByteArraySink out = new ByteArraySink();
        long row = 0;
        for (Block b : blocks) {
            for (int r = 0; r < b.rows(); r++, row++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    int before = out.size();
                    ValueSerde.write(b.types().get(c), b.column(c), r, out);
                    byte[] buf = out.buffer();
                    for (int i = before; i < out.size(); i++) {
                        if (i >= expected.length || buf[i] != expected[i]) {
                            return "row "
                                    + row
                                    + ", column "
                                    + b.names().get(c)
                                    + " ("
                                    + b.types().get(c)
                                    + ")";
                        }
                    }
                }
            }
        }
        return "none";
    }
}
