package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.store.TableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two independent writer processes of one table — two JVMs with their own {@code java.io.tmpdir}
 * (as on two hosts), started at the same moment with the same source and the same table: exactly
 * one ingests; the other is refused with one line naming the table and the lease's holder (or, if
 * it came when the first had ended, finds the ingest finished), and the table holds each source row
 * exactly once, as ClickHouse (chDB) judges against its own insert of the same files. The writer
 * exclusion is the ingest's lease object in the table's store ({@code WriterLease}), not a local
 * file: before it, two such processes both ran and doubled every row.
 */
class TwoWritersOfOneTableTest {
    private static final String PREFIX = "tables/posts";
    private static final String S3_TABLE = "s3://" + IngestFixture.BUCKET + "/" + PREFIX;

    /** Whether the build put Flink's S3 plugin into target/plugins (not on the 1.20 line). */
    private static final boolean S3_PLUGIN =
            !Boolean.getBoolean("s3mergetree.test.s3PluginSkipped");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @ParameterizedTest(name = "{0} table")
    @ValueSource(strings = {"s3", "directory"})
    void exactlyOneOfTwoSimultaneousWritersIngestsAndEveryRowIsThereOnce(String kind)
            throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(12, 5000);
            boolean s3 = kind.equals("s3");
            String table = s3 ? S3_TABLE : tmp.resolve("table").toString();
            Process[] writers = new Process[2];
            for (int i = 0; i < 2; i++) {
                List<String> args = new ArrayList<>(List.of("--checkpoint-interval", "1s"));
                if (s3 && !S3_PLUGIN) {
                    // no S3 file system for Flink on this line: each "host" keeps its own
                    args.addAll(
                            List.of(
                                    "--checkpoint-dir",
                                    tmp.resolve("checkpoints-" + i).toString()));
                }
                Path ownTmp = Files.createDirectories(tmp.resolve("host-" + i + "-tmp"));
                writers[i] =
                        fx.startChild(
                                fx.ingestArgs(table, args.toArray(String[]::new)),
                                "writer-" + i,
                                List.of(
                                        "-Djava.io.tmpdir=" + ownTmp,
                                        "-Ds3mergetree.log.file="
                                                + tmp.resolve("writer-" + i + ".log")));
            }
            int ingested = 0;
            for (int i = 0; i < 2; i++) {
                try {
                    assertThat(writers[i].waitFor(5, TimeUnit.MINUTES)).isTrue();
                } finally {
                    writers[i].destroyForcibly();
                }
                String name = "writer-" + i;
                String err = fx.childErr(name);
                int code = writers[i].exitValue();
                if (code == 0 && !err.contains("this ingest already finished")) {
                    ingested++;
                    assertThat(lastLine(fx.childOut(name)))
                            .as(err)
                            .startsWith("{\"rows\":" + fx.rowsWritten() + ",");
                } else if (code == 0) {
                    assertThat(err).contains("nothing to do");
                } else {
                    assertThat(code).as(err).isEqualTo(1);
                    List<String> refusal =
                            err.lines().filter(l -> l.contains("already running")).toList();
                    assertThat(refusal).as(err).hasSize(1);
                    assertThat(refusal.get(0))
                            .contains(s3 ? S3_TABLE : table)
                            .contains("pid ")
                            .contains("expires at ");
                    // refused before it wrote anything: no job of its own
                    assertThat(err).doesNotContain("job ");
                }
            }
            assertThat(ingested)
                    .as(
                            "writer-0:\n%s\nwriter-1:\n%s",
                            fx.childErr("writer-0"), fx.childErr("writer-1"))
                    .isEqualTo(1);
            if (s3) {
                try (TableStore store = fx.s3TableStore(S3_TABLE)) {
                    assertThat(new TableProgress(store).snapshot(0).rows())
                            .isEqualTo(fx.rowsWritten());
                }
                fx.assertS3TableEqualToClickHouse(PREFIX);
            } else {
                assertThat(IngestFixture.tableRows(Path.of(table))).isEqualTo(fx.rowsWritten());
                fx.assertEqualToClickHouse(Path.of(table));
            }
        }
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1];
    }
}
