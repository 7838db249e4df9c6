package io.github.s3mergetree.source.s3.format.text;

import static io.github.s3mergetree.source.s3.format.ReadAsClickHouse.assertReadsLikeClickHouse;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.MissingColumns;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * A target column that a text object does not have ({@code Scor} for {@code Score}): CSVWithNames,
 * TabSeparatedWithNames, CSV / TabSeparated with a detected header and JSONEachRow fill it with the
 * type's default as ClickHouse does (rows equal chDB's; ClickHouse has no setting refusing such an
 * object), but say so: one WARN per column and reader naming the column, the object and its
 * columns, and the metric {@code rowsWithMissingColumns}. For JSONEachRow only a column that no row
 * of the object has is reported (a key absent from some rows is ordinary JSON). With {@code
 * input_format_skip_unknown_fields = 0} the typo is refused as ClickHouse refuses it: by the
 * object's column the target does not have.
 */
class TextMissingColumnsTest {
    @TempDir static Path dir;
    static ChDb chdb;

    @RegisterExtension
    final LoggerAuditingExtension log =
            new LoggerAuditingExtension(MissingColumns.class, Level.WARN);

    @BeforeAll
    static void start() throws Exception {
        chdb = ChDb.start(dir.resolve("chdb"));
        write("a.csv", "Id,Score\n", 40, "%d,%d\n");
        write("b.csv", "Id,Score\n", 20, "%d,%d\n");
        write("a.tsv", "Id\tScore\n", 30, "%d\t%d\n");
        write("plain.csv", "", 10, "%d,%d\n");
        write("a.ndjson", "", 25, "{\"Id\":%d,\"Score\":%d}\n");
        // Score in some rows only: ordinary JSON, not reported
        StringBuilder sparse = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            sparse.append(
                    i % 3 == 0
                            ? "{\"Id\":" + i + ",\"Score\":" + i * 10 + "}\n"
                            : "{\"Id\":" + i + "}\n");
        }
        Files.writeString(dir.resolve("sparse.ndjson"), sparse, StandardCharsets.UTF_8);
    }

    private static void write(String name, String header, int rows, String row) throws Exception {
        StringBuilder b = new StringBuilder(header);
        for (int i = 0; i < rows; i++) {
            b.append(String.format(row, i, i * 10));
        }
        Files.writeString(dir.resolve(name), b, StandardCharsets.UTF_8);
    }

    @AfterAll
    static void stop() {
        if (chdb != null) {
            chdb.close();
        }
    }

    @Test
    void aCsvWithNamesColumnNoHeaderHasIsFilledLikeClickHouseAndSaidOnce() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        try (FormatTesting t = testing(new Configuration())) {
            for (String f : List.of("a.csv", "b.csv")) {
                assertReadsLikeClickHouse(
                        chdb,
                        t,
                        format("CSVWithNames", structure),
                        dir,
                        f,
                        "CSVWithNames",
                        structure);
            }
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(60);
        }
        assertThat(log.getMessages()).hasSize(1);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Scor'")
                .contains(dir.resolve("a.csv").toString())
                .contains("its columns: Id, Score")
                .contains("rowsWithMissingColumns");
    }

    @Test
    void tsvWithNamesColumnsTheHeaderLacksAreSaidOncePerColumn() throws Exception {
        String structure = "Scor Int32, Id UInt64, Extra String";
        try (FormatTesting t = testing(new Configuration())) {
            for (String kind : List.of("TabSeparatedWithNames", "TSVWithNames")) {
                assertReadsLikeClickHouse(
                        chdb, t, format(kind, structure), dir, "a.tsv", "TSVWithNames", structure);
            }
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(60);
        }
        assertThat(log.getMessages()).hasSize(2);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Scor'")
                .contains(dir.resolve("a.tsv").toString())
                .contains("its columns: Id, Score");
        assertThat(log.getMessages().get(1)).contains("Column 'Extra'");
    }

    @Test
    void aDetectedCsvOrTsvHeaderLackingAColumnIsSaid() throws Exception {
        String structure = "Id UInt64, Score Int32, Extra String";
        try (FormatTesting t = testing(new Configuration())) {
            assertReadsLikeClickHouse(
                    chdb, t, format("CSV", structure), dir, "a.csv", "CSV", structure);
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(40);
            assertReadsLikeClickHouse(
                    chdb, t, format("TabSeparated", structure), dir, "a.tsv", "TSV", structure);
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(70);
        }
        assertThat(log.getMessages()).hasSize(1);
        assertThat(log.getMessages().get(0))
                .contains("Column 'Extra'")
                .contains(dir.resolve("a.csv").toString())
                .contains("its columns: Id, Score");
    }

    @Test
    void csvWithoutAHeaderHasNoMissingColumns() throws Exception {
        String structure = "Id UInt64, Score Int32";
        try (FormatTesting t = testing(new Configuration())) {
            assertReadsLikeClickHouse(
                    chdb, t, format("CSV", structure), dir, "plain.csv", "CSV", structure);
            assertReadsLikeClickHouse(
                    chdb,
                    t,
                    format("CSVWithNames", structure),
                    dir,
                    "a.csv",
                    "CSVWithNames",
                    structure);
            assertThat(t.metrics.rowsWithMissingColumns()).isZero();
        }
        assertThat(log.getMessages()).isEmpty();
    }

    @Test
    void aJsonEachRowKeyNoRowHasIsSaidButAKeySomeRowsLackIsNot() throws Exception {
        String structure = "Id UInt64, Score Int32, Scor Int32";
        try (FormatTesting t = testing(new Configuration())) {
            assertReadsLikeClickHouse(
                    chdb,
                    t,
                    format("JSONEachRow", structure),
                    dir,
                    "a.ndjson",
                    "JSONEachRow",
                    structure);
            assertThat(t.metrics.rowsWithMissingColumns()).isEqualTo(25);
            assertThat(log.getMessages()).hasSize(1);
            assertThat(log.getMessages().get(0))
                    .contains("Column 'Scor'")
                    .contains(dir.resolve("a.ndjson").toString())
                    .contains("its columns: Id, Score");
        }
        String present = "Id UInt64, Score Int32";
        try (FormatTesting t = testing(new Configuration())) {
            assertReadsLikeClickHouse(
                    chdb,
                    t,
                    format("JSONEachRow", present),
                    dir,
                    "sparse.ndjson",
                    "JSONEachRow",
                    present);
            assertThat(t.metrics.rowsWithMissingColumns()).isZero();
        }
        assertThat(log.getMessages()).hasSize(1);
    }

    @Test
    void withUnknownFieldsRefusedTheTypoIsRefusedAsClickHouseRefusesIt() throws Exception {
        String structure = "Id UInt64, Scor Int32";
        String refuse = ", input_format_skip_unknown_fields = 0";
        assertThatThrownBy(
                        () ->
                                chdb.readFileAsRowBinary(
                                        dir.resolve("a.csv"), "CSVWithNames", structure, refuse))
                .hasMessageContaining("Unknown field found in format header: 'Score'");
        assertThatThrownBy(
                        () ->
                                chdb.readFileAsRowBinary(
                                        dir.resolve("a.ndjson"), "JSONEachRow", structure, refuse))
                .hasMessageContaining(
                        "Unknown field found while parsing JSONEachRow format: Score");
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS, false);
        try (FormatTesting t = testing(conf)) {
            assertThatThrownBy(() -> rowBinary(t, "CSVWithNames", structure, "a.csv"))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(dir.resolve("a.csv").toString())
                    .hasMessageContaining("'Score'");
            assertThatThrownBy(() -> rowBinary(t, "JSONEachRow", structure, "a.ndjson"))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(dir.resolve("a.ndjson").toString())
                    .hasMessageContaining("Score");
            assertThat(t.metrics.rowsWithMissingColumns()).isZero();
        }
    }

    private static FormatTesting testing(Configuration conf) {
        return ReadAsClickHouse.smallBlocks(dir, conf);
    }

    private static TextBlockFormat format(String kind, String structure) {
        return new TextBlockFormat(TextBlockFormat.Kind.of(kind), TargetSchema.parse(structure));
    }

    private static byte[] rowBinary(FormatTesting t, String kind, String structure, String key)
            throws Exception {
        return ReadAsClickHouse.rowBinary(t, format(kind, structure), key);
    }
}
