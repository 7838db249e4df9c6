package io.github.s3mergetree.source.s3.format.nativeformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Native objects written by a real ClickHouse engine (chDB), read back into Blocks. */
public class NativeBlockFormatTest {
    @TempDir Path dir;

    /**
     * {@code SELECT CAST(expr AS type) AS name, … FROM numbers(rows)} for columns given as {name,
     * type, expression}: the rows the ClickHouse-comparison tests have chDB write in each format.
     */
    public static String castingSelect(String[][] columns, int rows) {
        StringBuilder select = new StringBuilder();
        for (String[] c : columns) {
            select.append(select.length() > 0 ? ", " : "")
                    .append("CAST(")
                    .append(c[2])
                    .append(" AS ")
                    .append(c[1])
                    .append(") AS ")
                    .append(c[0]);
        }
        return "SELECT " + select + " FROM numbers(" + rows + ")";
    }

    /** {@code name type, …} of columns given as {name, type, expression}. */
    public static String schemaOf(String[][] columns) {
        StringBuilder schema = new StringBuilder();
        for (String[] c : columns) {
            schema.append(schema.length() > 0 ? ", " : "").append(c[0]).append(' ').append(c[1]);
        }
        return schema.toString();
    }

    /** Starts chDB; fails (never skips) when it is not installed, so CI cannot pass silently. */
    public static ChDb startChDb(Path dir) {
        return ChDb.start(dir.resolve("chdb"));
    }

    @Test
    void readsNativeWrittenByClickHouse() throws Exception {
        int rows = 100_000;
        try (ChDb chdb = startChDb(dir)) {
            chdb.execute(
                    "INSERT INTO FUNCTION file('t.native', 'Native') SELECT number AS id,"
                            + " toString(number) AS s, if(number % 3 = 0, NULL, number) AS n,"
                            + " [number, number + 1] AS arr, toLowCardinality(toString(number % 5)) AS lc,"
                            + " toDateTime64(number, 3, 'UTC') AS ts, 'x' AS ignored"
                            + " FROM numbers("
                            + rows
                            + ") SETTINGS max_block_size = 7000, engine_file_truncate_on_insert = 1");
            Files.createDirectories(dir.resolve("data"));
            Files.copy(chdb.userFilesDir().resolve("t.native"), dir.resolve("data/t.native"));
        }
        NativeBlockFormat format =
                new NativeBlockFormat(
                        TargetSchema.parse(
                                "id UInt64, s String, n Nullable(UInt64), arr Array(UInt64),"
                                        + " lc LowCardinality(String), ts DateTime64(3, 'UTC'), missing Int32"));
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 5000);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.resolve("data").toString())
                                .createClient(),
                        conf)) {
            S3ObjectSplit split = t.wholeSplit("t.native");
            var all = t.readAll(format, split);
            assertThat(FormatTesting.rows(all)).isEqualTo(rows);
            long expectedId = 0;
            for (var rec : all) {
                Block b = rec.record();
                LongColumn id = (LongColumn) b.column(0);
                for (int r = 0; r < b.rows(); r++, expectedId++) {
                    assertThat(id.get(r)).isEqualTo(expectedId);
                }
            }
            Block b = all.get(3).record(); // rows 15000.. (blocks of 7000 cut to 5000)
            long first = ((LongColumn) b.column(0)).get(0);
            int r = 2;
            long i = first + r;
            assertThat(((StringColumn) b.column(1)).getString(r)).isEqualTo(Long.toString(i));
            NullableColumn n = (NullableColumn) b.column(2);
            assertThat(n.isNull(r)).isEqualTo(i % 3 == 0);
            ArrayColumn arr = (ArrayColumn) b.column(3);
            assertThat(arr.length(r)).isEqualTo(2);
            assertThat(((LongColumn) arr.elements()).get(arr.start(r) + 1)).isEqualTo(i + 1);
            assertThat(((StringColumn) b.column(4)).getString(r)).isEqualTo(Long.toString(i % 5));
            assertThat(((LongColumn) b.column(5)).get(r)).isEqualTo(i * 1000);
            assertThat(((IntColumn) b.column(6)).get(r)).isZero();

            var third = all.get(2);
            var rest = t.readAll(format, split.withPosition(third.offset(), third.recordsToSkip()));
            assertThat(FormatTesting.rows(rest)).isEqualTo(rows - third.recordsToSkip());
            assertThat(((LongColumn) rest.get(0).record().column(0)).get(0))
                    .isEqualTo(third.recordsToSkip());

            NativeBlockFormat wrong = new NativeBlockFormat(TargetSchema.parse("id String"));
            assertThatThrownBy(() -> t.readAll(wrong, split))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("t.native: block 0, column 'id'")
                    .hasMessageContaining("UInt64");
        }
    }
}
