package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest} as an operator runs it, in child JVMs: killed with SIGKILL after its
 * first commits and run again, it finishes the work exactly once; in {@code --continuous} mode new
 * objects are committed while it runs, SIGTERM stops it after a last commit (a savepoint), and the
 * next run resumes from there. ClickHouse (chDB) judges every table against its own insert of the
 * same files.
 */
class IngestRecoveryTest {
    @TempDir Path tmp;

    @Test
    void rerunAfterKill9FinishesExactlyOnce() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            // many small objects, read slowly (1 GET per second per reader), so that the kill
            // lands mid-job even after the concurrent run below took its seconds to start
            fx.addFiles(30, 1500);
            Path table = tmp.resolve("table");
            // one reader (30 s of GETs at least): the concurrent run below lists the objects and
            // reads their footers before it finds the run lock, which took over 12 s on a loaded
            // machine; with two readers the first run had finished by then
            List<String> firstArgs =
                    new ArrayList<>(
                            fx.ingestArgs(
                                    table,
                                    "--checkpoint-interval",
                                    "1s",
                                    "--setting",
                                    "s3_max_get_rps=1"));
            firstArgs.set(firstArgs.indexOf("--parallelism") + 1, "1");
            Process first = fx.startChild(firstArgs, "first");
            try {
                awaitTrue(
                        () -> committedRows(table) > 0 || !first.isAlive(),
                        Duration.ofMinutes(3),
                        "a first commit");
                assertThat(first.isAlive()).as("still running when killed").isTrue();
                // a second run of the same ingest meanwhile is refused: it would restore the
                // same checkpoint and write its rows twice
                IngestFixture.Result concurrent =
                        IngestFixture.runInProcess(
                                fx.ingestArgs(table, "--checkpoint-interval", "1s"));
                assertThat(concurrent.code())
                        .as(
                                "stderr:\n%s\nthe first run:\n%s",
                                concurrent.err(), fx.childErr("first"))
                        .isEqualTo(1);
                assertThat(concurrent.err()).contains("this ingest is already running");
            } finally {
                first.destroyForcibly(); // SIGKILL
                first.waitFor(30, TimeUnit.SECONDS);
            }
            long before = committedRows(table);
            assertThat(before).as(fx.childErr("first")).isBetween(1L, fx.rowsWritten() - 1);

            // resumed at another parallelism (1 -> the fixture's 2): the restored state is
            // redistributed
            List<String> rescaled =
                    new ArrayList<>(fx.ingestArgs(table, "--checkpoint-interval", "1s"));
            Process second = fx.startChild(rescaled, "second");
            assertThat(second.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(second.exitValue()).as(fx.childErr("second")).isZero();
            assertThat(fx.childErr("second")).contains("resuming from");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(fx.rowsWritten());
            String json = lastLine(fx.childOut("second"));
            assertThat(json).startsWith("{\"rows\":" + fx.rowsWritten() + ",");
            fx.assertEqualToClickHouse(table);
        }
    }

    @Test
    void continuousIngestStopsOnSigtermAndResumes() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(3, 2000);
            Path table = tmp.resolve("table");
            String[] continuous = {
                "--continuous", "--discovery-interval", "1s", "--checkpoint-interval", "1s"
            };
            Process run1 = fx.startChild(fx.ingestArgs(table, continuous), "run1");
            try {
                awaitTrue(() -> committedRows(table) == 6000, Duration.ofMinutes(3), "6000 rows");
                fx.addFiles(2, 2000); // arrive while the job runs
                awaitTrue(() -> committedRows(table) == 10000, Duration.ofMinutes(2), "10000 rows");
                run1.destroy(); // SIGTERM
                assertThat(run1.waitFor(3, TimeUnit.MINUTES)).isTrue();
            } finally {
                run1.destroyForcibly();
            }
            assertThat(run1.exitValue()).as(fx.childErr("run1")).isZero();
            assertThat(fx.childErr("run1")).contains("stopping with a savepoint", "savepoint: ");
            assertThat(lastLine(fx.childOut("run1"))).startsWith("{\"rows\":10000,");

            fx.addFiles(2, 2000); // arrive while nothing runs
            Process run2 = fx.startChild(fx.ingestArgs(table, continuous), "run2");
            try {
                awaitTrue(() -> committedRows(table) == 14000, Duration.ofMinutes(3), "14000 rows");
                run2.destroy();
                assertThat(run2.waitFor(3, TimeUnit.MINUTES)).isTrue();
            } finally {
                run2.destroyForcibly();
            }
            assertThat(run2.exitValue()).as(fx.childErr("run2")).isZero();
            assertThat(fx.childErr("run2")).contains("resuming from");
            assertThat(IngestFixture.tableRows(table)).isEqualTo(14000);
            fx.assertEqualToClickHouse(table);
        }
    }

    /** Rows committed so far, from the part log (the table may be mid-write). */
    private static long committedRows(Path table) {
        try {
            // NewPart events only: merges do not add rows
            return new TableProgress(table).snapshot(0).rows();
        } catch (Exception e) {
            return 0;
        }
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1];
    }

    private static void awaitTrue(BooleanSupplier condition, Duration timeout, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }
}
