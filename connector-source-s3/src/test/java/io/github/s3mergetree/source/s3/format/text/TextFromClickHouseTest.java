package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormatTest;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CSVWithNames, TabSeparatedWithNames and JSONEachRow written by a real ClickHouse engine (chDB),
 * gzip-compressed, read back into Blocks: their RowBinary equals chDB's RowBinary of the same rows.
 */
class TextFromClickHouseTest {
    @TempDir Path dir;

    static final String[][] COLUMNS = {
        {"u8", "UInt8", "toUInt8(number % 256)"},
        {"i64", "Int64", "toInt64(number) * -1000003"},
        {"u64", "UInt64", "toUInt64(number) * 1000000007"},
        {"f64", "Float64", "number / 7"},
        {"d18", "Decimal(18, 4)", "toDecimal64(number / 10000, 4)"},
        {"s", "String", "concat('s,\"\\'\\t\\\\', toString(number))"},
        {"lc", "LowCardinality(String)", "toLowCardinality(toString(number % 7))"},
        {"d", "Date", "toDate(number % 20000)"},
        {"dt", "DateTime('UTC')", "toDateTime(1700000000 + number, 'UTC')"},
        {"dt3", "DateTime64(3, 'UTC')", "toDateTime64(1700000000 + number / 1000, 3, 'UTC')"},
        {
            "uuid",
            "UUID",
            "toUUID(concat('6ba7b810-9dad-11d1-80b4-', leftPad(toString(number), 12, '0')))"
        },
        {"e", "Enum8('red' = 1, 'blue' = 2)", "if(number % 2 = 0, 'red', 'blue')"},
        {"b", "Bool", "number % 2 = 0"},
        {"ns", "Nullable(String)", "if(number % 3 = 0, NULL, toString(number))"},
        {"arr", "Array(Int32)", "range(number % 4)"},
        {"arrs", "Array(String)", "['x', toString(number)]"},
    };

    @ParameterizedTest
    @ValueSource(strings = {"CSVWithNames", "TabSeparatedWithNames", "JSONEachRow"})
    void blocksEqualClickHouseRowBinary(String format) throws Exception {
        int rows = 5_000;
        String query = NativeBlockFormatTest.castingSelect(COLUMNS, rows);
        String schema = NativeBlockFormatTest.schemaOf(COLUMNS);
        Files.createDirectories(dir.resolve("data"));
        try (ChDb chdb = NativeBlockFormatTest.startChDb(dir)) {
            chdb.execute(
                    "INSERT INTO FUNCTION file('t.txt.gz', '"
                            + format
                            + "') "
                            + query
                            + " SETTINGS engine_file_truncate_on_insert = 1");
            chdb.execute(
                    "INSERT INTO FUNCTION file('t.rowbinary', 'RowBinary') "
                            + query
                            + " SETTINGS engine_file_truncate_on_insert = 1");
            Files.copy(chdb.userFilesDir().resolve("t.txt.gz"), dir.resolve("data/t.txt.gz"));
            Files.copy(chdb.userFilesDir().resolve("t.rowbinary"), dir.resolve("expected.bin"));
        }
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 1000);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.resolve("data").toString())
                                .createClient(),
                        conf)) {
            var records =
                    t.readAll(
                            new TextBlockFormat(
                                    TextBlockFormat.Kind.of(format), TargetSchema.parse(schema)),
                            t.wholeSplit("t.txt.gz"));
            assertThat(FormatTesting.rows(records)).isEqualTo(rows);
            List<Block> blocks = new ArrayList<>();
            records.forEach(r -> blocks.add(r.record()));
            ByteArraySink out = new ByteArraySink();
            for (Block b : blocks) {
                for (int r = 0; r < b.rows(); r++) {
                    for (int c = 0; c < b.columnCount(); c++) {
                        ValueSerde.write(b.types().get(c), b.column(c), r, out);
                    }
                }
            }
            byte[] expected = Files.readAllBytes(dir.resolve("expected.bin"));
            if (!java.util.Arrays.equals(out.toByteArray(), expected)) {
                assertThat(ReadAsClickHouse.firstDifference(blocks, expected)).isEqualTo("none");
            }
        }
    }
}
