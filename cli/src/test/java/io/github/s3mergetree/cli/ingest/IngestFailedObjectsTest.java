package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded {@code ingest} whose input has objects it cannot read, as an operator meets it: the run
 * commits everything else and exits 3 with each failed object, its error and its committed rows in
 * the summary; running the same command again after the fix ingests exactly the missing rows, and
 * ClickHouse (chDB) finds the table equal to its own load of the fixed files. Reruns before the fix
 * add nothing; a changed object with committed rows is refused (naming it and the count) unless
 * {@code --resume-changed-objects} accepts its new version from the first uncommitted row on.
 */
class IngestFailedObjectsTest {
    @TempDir Path tmp;

    /**
     * The case: four good Parquet objects and a truncated one ({@code --parallelism 1
     * --checkpoint-interval 1s}); the truncated one is replaced; 300,000 rows in the end.
     */
    @Test
    void truncatedObjectIsReportedAndTheRerunAfterTheFixAddsExactlyItsRows() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(4, 60_000);
            Path whole = fx.addTruncatedFile(60_000);
            Path table = tmp.resolve("table");
            List<String> args = args(fx, table);

            IngestFixture.Result first = IngestFixture.runInProcess(args);
            assertThat(first.code()).as("stderr:\n%s", first.err()).isEqualTo(3);
            assertThat(first.field("rows")).isEqualTo(240_000);
            assertThat(first.lastLine())
                    .contains(
                            "\"failed_objects\":[{\"object\":\"s3://lake/posts/part-00004.parquet\","
                                    + "\"rows_committed\":0,\"error\":\"")
                    .contains("not a Parquet file");
            assertThat(first.err())
                    .contains("1 object could not be read; every other row is committed")
                    .contains("s3://lake/posts/part-00004.parquet: 0 rows committed")
                    .contains("run the same command again")
                    .doesNotContain("\tat ");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(240_000);

            // not fixed yet: the same failure, nothing added
            IngestFixture.Result again = IngestFixture.runInProcess(args);
            assertThat(again.code()).as("stderr:\n%s", again.err()).isEqualTo(3);
            assertThat(again.err())
                    .contains("part-00004.parquet: unchanged, resumed where it failed");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(240_000);

            // fixed: a new version (another ETag) of an object with no committed rows is read anew
            fx.replaceObject("part-00004.parquet", whole);
            IngestFixture.Result fixed = IngestFixture.runInProcess(args);
            assertThat(fixed.code()).as("stderr:\n%s", fixed.err()).isZero();
            assertThat(fixed.err())
                    .contains("none of its rows was committed: read anew from the start");
            assertThat(fixed.field("rows")).isEqualTo(300_000);
            assertThat(fixed.lastLine()).endsWith("\"failed_objects\":[]}");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(300_000);

            IngestFixture.Result done = IngestFixture.runInProcess(args);
            assertThat(done.code()).isZero();
            assertThat(done.err()).contains("already finished").doesNotContain("Delete that");
            fx.assertEqualToClickHouse(table);
        }
    }

    /**
     * A CSV object with a bad value on line 1,701 (blocks of 500 rows): its first 1,500 rows are
     * committed. Fixed, it has another ETag: refused without {@code --resume-changed-objects},
     * which then reads the new version from row 1,501 on; a second object broken on its first line
     * and fixed is read anew. chDB's own load of the fixed files judges.
     */
    @Test
    void changedObjectWithCommittedRowsNeedsTheOptionAndResumesFromItsFirstUncommittedRow()
            throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            Path bucket = fx.store.resolve(IngestFixture.BUCKET).resolve("csv");
            Files.createDirectories(bucket);
            Files.writeString(bucket.resolve("a.csv"), csv(1, 3000, 1701), StandardCharsets.UTF_8);
            Files.writeString(bucket.resolve("b.csv"), csv(3001, 1000, 0), StandardCharsets.UTF_8);
            Files.writeString(bucket.resolve("c.csv"), csv(4001, 1000, 1), StandardCharsets.UTF_8);
            Path ddl = tmp.resolve("t.sql");
            Files.writeString(
                    ddl, "CREATE TABLE t (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
            Path table = tmp.resolve("table");
            List<String> args =
                    new ArrayList<>(fx.ingestArgs(table, "--checkpoint-interval", "1s"));
            args.set(args.indexOf("--source") + 1, "s3://lake/csv/*.csv");
            args.set(args.indexOf("--format") + 1, "CSV");
            args.set(args.indexOf("--table-ddl-file") + 1, ddl.toString());
            args.addAll(List.of("--setting", "max_block_size=500"));

            IngestFixture.Result first = IngestFixture.runInProcess(args);
            assertThat(first.code()).as("stderr:\n%s", first.err()).isEqualTo(3);
            assertThat(first.field("rows")).isEqualTo(1500 + 1000);
            assertThat(first.lastLine())
                    .contains("{\"object\":\"s3://lake/csv/a.csv\",\"rows_committed\":1500,")
                    .contains("{\"object\":\"s3://lake/csv/c.csv\",\"rows_committed\":0,");
            assertThat(first.err()).contains("s3://lake/csv/a.csv: 1,500 rows committed");

            Files.writeString(bucket.resolve("a.csv"), csv(1, 3000, 0), StandardCharsets.UTF_8);
            Files.writeString(bucket.resolve("c.csv"), csv(4001, 1000, 0), StandardCharsets.UTF_8);
            IngestFixture.Result refused = IngestFixture.runInProcess(args);
            assertThat(refused.code()).as("stderr:\n%s", refused.err()).isEqualTo(1);
            assertThat(refused.err())
                    .contains(
                            "s3://lake/csv/a.csv changed after an earlier run of this ingest"
                                    + " committed 1,500 rows of it")
                    .contains("--resume-changed-objects to read the new version from row 1,501 on")
                    .contains("Nothing was written")
                    .doesNotContain("c.csv changed");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(2500);

            List<String> accept = new ArrayList<>(args);
            accept.add("--resume-changed-objects");
            IngestFixture.Result resumed = IngestFixture.runInProcess(accept);
            assertThat(resumed.code()).as("stderr:\n%s", resumed.err()).isZero();
            assertThat(resumed.field("rows")).isEqualTo(5000);
            assertThat(IngestFixture.tableRows(table)).isEqualTo(5000);

            MergeTreeTable t =
                    MergeTreeTable.open(
                            TableStore.local(table.toString()),
                            TableLayouts.fromDdl(Files.readString(ddl)),
                            Clock.systemUTC());
            try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
                ch.execute(Files.readString(ddl));
                ch.execute(Files.readString(ddl).replace("TABLE t ", "TABLE ref "));
                for (ActivePart p : t.activeParts()) {
                    ch.attachPart("t", table.resolve(p.name().toString()));
                }
                ch.assertCheckTablePasses("t");
                Path userFiles = Files.createDirectories(ch.userFilesDir());
                for (String f : List.of("a.csv", "b.csv", "c.csv")) {
                    Files.copy(bucket.resolve(f), userFiles.resolve(f));
                    ch.execute("INSERT INTO ref SELECT * FROM file('" + f + "', CSV)");
                }
                assertThat(ch.queryLong("SELECT count() FROM t")).isEqualTo(5000);
                assertThat(ch.queryLong("SELECT uniqExact(id) FROM t")).isEqualTo(5000);
                assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM t"))
                        .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM ref"));
            }
        }
    }

    /**
     * {@code rows} CSV lines with ids from {@code first}; line {@code badLine} (1-based) broken.
     */
    private static String csv(long first, int rows, int badLine) {
        StringBuilder b = new StringBuilder();
        for (int i = 1; i <= rows; i++) {
            long id = first + i - 1;
            b.append(i == badLine ? "not-a-number" : Long.toString(id))
                    .append(",\"row ")
                    .append(id)
                    .append("\"\n");
        }
        return b.toString();
    }

    private static List<String> args(IngestFixture fx, Path table) {
        List<String> a = new ArrayList<>(fx.ingestArgs(table, "--checkpoint-interval", "1s"));
        a.set(a.indexOf("--parallelism") + 1, "1");
        return a;
    }
}
