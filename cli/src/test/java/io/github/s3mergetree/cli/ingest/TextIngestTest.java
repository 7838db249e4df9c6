package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest} of malformed text, end to end: a CSV row with too few fields (the
 * defect that stored rows with defaults) fails the ingest with one message naming the object, the
 * line, the byte offset and the row's shape, and nothing of the bad block reaches the table; with
 * {@code input_format_allow_errors_num} the bad row is skipped, counted in the summary's {@code
 * rows_skipped}, and the table holds exactly the rows ClickHouse reads with the same setting.
 */
class TextIngestTest {
    @TempDir Path tmp;

    static final String DDL =
            "CREATE TABLE t (id UInt32, name String, n UInt32) ENGINE = MergeTree ORDER BY id";

    List<String> args(Path table, Path file, String... extra) throws Exception {
        Path ddl = tmp.resolve("t.sql");
        Files.writeString(ddl, DDL);
        List<String> a =
                new ArrayList<>(
                        List.of(
                                "ingest",
                                "--source",
                                "file://" + file,
                                "--format",
                                "CSV",
                                "--table-ddl-file",
                                ddl.toString(),
                                "--table-path",
                                table.toString(),
                                "--parallelism",
                                "1"));
        a.addAll(List.of(extra));
        return a;
    }

    Path csv() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            b.append(i == 700 ? "700,short row\n" : i + ",name " + i + "," + i * 10 + "\n");
        }
        Path f = Files.createDirectories(tmp.resolve("in")).resolve("rows.csv");
        Files.writeString(f, b.toString());
        return f;
    }

    @Test
    void aRowWithTooFewFieldsFailsTheIngestAndNothingOfItsBlockIsStored() throws Exception {
        Path file = csv();
        Path table = tmp.resolve("t-strict");
        IngestFixture.Result r = IngestFixture.runInProcess(args(table, file));
        assertThat(r.code()).as("stdout:\n%s\nstderr:\n%s", r.out(), r.err()).isNotZero();
        assertThat(r.err())
                .contains("file://" + file + ": cannot parse CSV input at line 700, byte offset ")
                .contains("the row ends after 2 of 3 fields")
                .contains("row: '700,short row\\n")
                .doesNotContain("file:////")
                .doesNotContain("Cannot insert into table");
        assertThat(Files.exists(table) ? IngestFixture.tableRows(table) : 0).isZero();
    }

    @Test
    void allowedErrorsSkipTheRowsClickHouseSkipsAndTheSummaryCountsThem() throws Exception {
        Path file = csv();
        Path table = tmp.resolve("t-lenient");
        IngestFixture.Result r =
                IngestFixture.runInProcess(
                        args(table, file, "--setting", "input_format_allow_errors_num=1"));
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(r.field("rows")).isEqualTo(999);
        assertThat(r.field("rows_skipped")).isEqualTo(1);
        assertThat(IngestFixture.tableRows(table)).isEqualTo(999);
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            ch.execute(DDL);
            MergeTreeTable t =
                    MergeTreeTable.open(
                            TableStore.local(table.toString()),
                            TableLayouts.fromDdl(DDL),
                            Clock.systemUTC());
            for (ActivePart p : t.activeParts()) {
                ch.attachPart("t", table.resolve(p.name().toString()));
            }
            String ours =
                    ch.query("SELECT count(), sum(id), sum(n), " + RowsHash.of("name") + " FROM t");
            String clickHouse =
                    ch.query(
                            "SELECT count(), sum(id), sum(n), "
                                    + RowsHash.of("name")
                                    + " FROM file('"
                                    + file
                                    + "', 'CSV', 'id UInt32, name String, n UInt32')"
                                    + " SETTINGS input_format_allow_errors_num = 1");
            assertThat(ours).isEqualTo(clickHouse).startsWith("999\t" + (500500 - 700) + "\t");
        }
    }
}
