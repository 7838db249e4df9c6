package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Progress that moves (issue 19, item 7): the progress line shows the rows the job has read and the
 * bytes it downloaded, from its metrics, beside the rows committed, which stand still between
 * checkpoints. Shown end to end with a continuous ingest whose first checkpoint is far away: all
 * rows are read (and reported) while none is committed yet.
 */
class IngestProgressTest {
    @TempDir Path tmp;

    static final Pattern PROGRESS =
            Pattern.compile(
                    "progress: .*?([\\d,]+) rows read \\(([\\d.]+) MB downloaded\\), ([\\d,]+) rows"
                            + " committed");

    @Test
    void theLineShowsRowsReadBesideRowsCommittedWithABar() {
        TableProgress.Snapshot s =
                new TableProgress.Snapshot(250, 2_000_000, 2, 0, 2, Instant.EPOCH, Instant.EPOCH);
        String line =
                IngestReport.progressLine(
                        s,
                        Optional.of(new ReadProgress.Totals(500, 3_250_000)),
                        OptionalLong.of(1000),
                        10);
        assertThat(line)
                .isEqualTo(
                        "progress: [########=======...............]  50% read,  25% committed,"
                                + " 500 rows read (3.3 MB downloaded), 250 rows committed (2.0 MB),"
                                + " 50 rows/s read, 2 parts written, 2 active, 0 merges, 10 s");
    }

    @Test
    void withoutReadMetricsTheCommittedRowsStandAlone() {
        TableProgress.Snapshot s =
                new TableProgress.Snapshot(1234, 1_000_000, 1, 0, 1, Instant.EPOCH, Instant.EPOCH);
        assertThat(IngestReport.progressLine(s, Optional.empty(), OptionalLong.empty(), 2))
                .isEqualTo(
                        "progress: 1,234 rows committed (1.0 MB), 617 rows/s committed,"
                                + " 1 parts written, 1 active, 0 merges, 2 s");
    }

    @Test
    void rowsReadMoveBeforeTheFirstCommit() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(3, 2000);
            Path table = tmp.resolve("table");
            Process run =
                    fx.startChild(
                            fx.ingestArgs(
                                    table,
                                    "--continuous",
                                    "--discovery-interval",
                                    "1s",
                                    "--checkpoint-interval",
                                    "10m"),
                            "run");
            try {
                long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
                String[] seen = null;
                while (seen == null) {
                    assertThat(run.isAlive()).as(fx.childErr("run")).isTrue();
                    assertThat(System.nanoTime())
                            .as("a progress line with all 6,000 rows read:\n%s", fx.childErr("run"))
                            .isLessThan(deadline);
                    Matcher m = PROGRESS.matcher(fx.childErr("run"));
                    while (m.find()) {
                        if (m.group(1).equals("6,000")) {
                            seen = new String[] {m.group(1), m.group(2), m.group(3)};
                        }
                    }
                    Thread.sleep(200);
                }
                // read and downloaded, not committed: the first checkpoint is 10 minutes away
                assertThat(Double.parseDouble(seen[1])).isPositive();
                assertThat(seen[2]).isEqualTo("0");
                run.destroy(); // SIGTERM: stop with a savepoint, which commits
                assertThat(run.waitFor(3, TimeUnit.MINUTES)).isTrue();
            } finally {
                run.destroyForcibly();
            }
            assertThat(run.exitValue()).as(fx.childErr("run")).isZero();
            assertThat(fx.childErr("run"))
                    .contains("stopped with a savepoint: 6000 rows read (")
                    .contains("6000 rows committed")
                    // Pekko's shutdown hook found its classes (CachedRpcSystemLoader keeps the
                    // last RPC class loader open): no NoClassDefFoundError after the run
                    .doesNotContain("Exception in thread")
                    .doesNotContain("NoClassDefFoundError");
        }
    }
}
