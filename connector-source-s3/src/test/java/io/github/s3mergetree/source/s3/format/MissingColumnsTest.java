package io.github.s3mergetree.source.s3.format;

import static io.github.s3mergetree.source.s3.format.ReadAsClickHouse.assertReadsLikeClickHouse;
import static io.github.s3mergetree.source.s3.format.ReadAsClickHouse.rowBinary;
import static io.github.s3mergetree.source.s3.format.ReadAsClickHouse.smallBlocks;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.arrow.ArrowBlockFormat;
import io.github.s3mergetree.source.s3.format.nativeformat.NativeBlockFormat;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.event.Level;

/**
 * A target column that the objects do not have ({@code Scor} for {@code Score}): filled with the
 * type's default as ClickHouse fills it (rows equal chDB's), but said: one WARN per column and
 * reader naming the column and the object, and the metric {@code rowsWithMissingColumns}; with
 * {@code input_format_parquet_allow_missing_columns} / {@code
 * input_format_arrow_allow_missing_columns} = 0 the object is refused naming object and column, as
 * ClickHouse refuses it.
 */
class MissingColumnsTest {
    @TempDir static Path dir;
    static ChDb chdb;

    @RegisterExtension
    final LoggerAuditingExtension log =
            new LoggerAuditingExtension(MissingColumns.class, Level.WARN);

    @BeforeAll
    static void start() {
        chdb = ChDb.start(dir.resolve("chdb"));
        for (String[] f :
                new String[][] {
                    {"a.parquet", "Parquet", "100"},
                    {"b.parquet", "Parquet", "50"},
                    {"a.arrow", "Arrow", "100"},
                    {"b.arrows", "ArrowStream", "50"},
                    {"a.native", "Native", "30"}
                }) {
            chdb.execute(
                    "INSERT INTO FUNCTION file('"
                            + dir.resolve(f[0])
                            + "', '"
                            + f[1]
                            + "') SELECT number AS Id, toInt32(number * 10) AS Score FROM numbers("
                            + f[2]
                            + ") SETTINGS engine_file_truncate_on_insert = 1");
        }
    }

    @AfterAll
    static void stop() {
        if (chdb != null) {
            chdb.close();
        }
    }

    @Test
    void aParquetColumnNoObjectHasIsFilledLikeClickHouseAndSaidOnce() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        try (FormatTesting t = testing(new Configuration())) {
            ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(structure));
            for (String f : List.of("a.parquet", "b.parquet")) {
                assertReadsLikeClickHouse(chdb, t, format, dir, f, "Parquet", structure);
            }
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(150);
        }
        assertThat(log.getMessages()).hasSize(1);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Scor'")
                .contains(dir.resolve("a.parquet").toString())
                .contains("its columns: Id, Score")
                .contains("input_format_parquet_allow_missing_columns")
                .contains("rowsWithMissingColumns");
    }

    @Test
    void withParquetMissingColumnsRefusedTheObjectIsRefusedNamingTheColumn() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        assertThatThrownBy(
                        () ->
                                chdb.readFileAsRowBinary(
                                        dir.resolve("a.parquet"),
                                        "Parquet",
                                        structure,
                                        ", input_format_parquet_allow_missing_columns = 0"))
                .hasMessageContaining("Column Scor was not found in parquet schema");
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.INPUT_FORMAT_PARQUET_ALLOW_MISSING_COLUMNS, false);
        try (FormatTesting t = testing(conf)) {
            ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(structure));
            assertThatThrownBy(() -> rowBinary(t, format, "a.parquet"))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(dir.resolve("a.parquet").toString())
                    .hasMessageContaining("column 'Scor' was not found in the Parquet schema")
                    .hasMessageContaining("its columns: Id, Score")
                    .hasMessageContaining("input_format_parquet_allow_missing_columns = 0");
            // every column present: read
            ParquetBlockFormat right =
                    new ParquetBlockFormat(TargetSchema.parse("Id UInt64, Score Int32"));
            assertThat(rowBinary(t, right, "a.parquet"))
                    .isEqualTo(
                            chdb.readFileAsRowBinary(
                                    dir.resolve("a.parquet"),
                                    "Parquet",
                                    "Id UInt64, Score Int32",
                                    ""));
            assertThat(t.metrics.rowsWithMissingColumns()).isZero();
        }
        assertThat(log.getMessages()).isEmpty();
    }

    @Test
    void arrowColumnsNoObjectHasAreFilledLikeClickHouseAndSaidOncePerColumn() throws Exception {
        String structure = "Scor Int32, Id UInt64, Extra String";
        try (FormatTesting t = testing(new Configuration())) {
            for (String[] f : new String[][] {{"a.arrow", "Arrow"}, {"b.arrows", "ArrowStream"}}) {
                ArrowBlockFormat format =
                        new ArrowBlockFormat(
                                ArrowBlockFormat.Kind.of(f[1]), TargetSchema.parse(structure));
                assertReadsLikeClickHouse(chdb, t, format, dir, f[0], f[1], structure);
            }
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(150);
        }
        assertThat(log.getMessages()).hasSize(2);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Scor'")
                .contains(dir.resolve("a.arrow").toString())
                .contains("input_format_arrow_allow_missing_columns");
        assertThat(log.getMessages().get(1)).contains("Column 'Extra'");
    }

    @Test
    void withArrowMissingColumnsRefusedTheObjectIsRefusedNamingTheColumn() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        assertThatThrownBy(
                        () ->
                                chdb.readFileAsRowBinary(
                                        dir.resolve("a.arrow"),
                                        "Arrow",
                                        structure,
                                        ", input_format_arrow_allow_missing_columns = 0"))
                .hasMessageContaining("Column 'Scor' is not present");
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.INPUT_FORMAT_ARROW_ALLOW_MISSING_COLUMNS, false);
        try (FormatTesting t = testing(conf)) {
            ArrowBlockFormat format =
                    new ArrowBlockFormat(
                            ArrowBlockFormat.Kind.ARROW, TargetSchema.parse(structure));
            assertThatThrownBy(() -> rowBinary(t, format, "a.arrow"))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(dir.resolve("a.arrow").toString())
                    .hasMessageContaining("column 'Scor' was not found in the Arrow schema")
                    .hasMessageContaining("input_format_arrow_allow_missing_columns = 0");
        }
    }

    @Test
    void aNativeColumnNoObjectHasIsFilledLikeClickHouseAndSaid() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        try (FormatTesting t = testing(new Configuration())) {
            NativeBlockFormat format = new NativeBlockFormat(TargetSchema.parse(structure));
            assertReadsLikeClickHouse(chdb, t, format, dir, "a.native", "Native", structure);
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(30);
        }
        assertThat(log.getMessages()).hasSize(1);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Scor'")
                .contains(dir.resolve("a.native").toString());
    }

    private static FormatTesting testing(Configuration conf) {
        return smallBlocks(dir, conf);
    }
}
