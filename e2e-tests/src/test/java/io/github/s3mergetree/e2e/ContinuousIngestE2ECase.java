package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Case 3: a continuous ingest commits objects added while it runs within seconds; SIGTERM stops it
 * with a savepoint; objects added while it is stopped are picked up when the same command runs
 * again (resuming from the savepoint), and in the end the table is exactly ClickHouse's ingestion
 * of all objects.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class ContinuousIngestE2ECase {
    static final int MONTHS = 2;
    static final int ROWS_PER_MONTH = 1_000;
    static final long BATCH = (long) MONTHS * ROWS_PER_MONTH;

    /**
     * How soon a new object must be committed ("within seconds", with room for a loaded CI
     * machine).
     */
    static final Duration COMMIT_WITHIN = Duration.ofSeconds(30);

    @Test
    void continuousIngestCommitsNewObjectsStopsWithASavepointAndResumes(
            FlinkStandaloneCluster cluster) throws Exception {
        Path dir = E2E.newDir("continuous");
        List<Path> a = Posts.generate(MONTHS, ROWS_PER_MONTH, 11);
        List<Path> b = Posts.generate(MONTHS, ROWS_PER_MONTH, 12);
        List<Path> c = Posts.generate(MONTHS, ROWS_PER_MONTH, 13);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir)) {
            s3.createBucket("live");
            Posts.upload(s3, "live", "posts/a-", a);
            Path table = dir.resolve("table");
            Ingest command =
                    Ingest.posts(
                                    "s3://live/posts/*.parquet",
                                    table,
                                    s3.endpoint().toString(),
                                    cluster)
                            .parallelism(2)
                            .checkpointInterval("1s")
                            .continuous("1s");

            ManagedProcess first = command.start("ingest-1", dir);
            IngestCases.awaitJobId(first, cluster);
            awaitCommitted(table, BATCH, Duration.ofMinutes(2), first);
            // the progress shows the rows the job read, from the cluster's REST API
            E2E.await(
                    "a progress line with " + BATCH + " rows read",
                    Duration.ofSeconds(30),
                    () ->
                            first.stderr()
                                    .matches(
                                            "(?s).*progress: [^\n]*"
                                                    + String.format(Locale.ROOT, "%,d", BATCH)
                                                    + " rows read \\([0-9]+\\.[0-9] MB"
                                                    + " downloaded\\).*"));

            long t0 = System.nanoTime();
            Posts.upload(s3, "live", "posts/b-", b);
            awaitCommitted(table, 2 * BATCH, COMMIT_WITHIN, first);
            System.out.printf(
                    "objects added while running were committed after %.1f s%n",
                    (System.nanoTime() - t0) / 1e9);

            first.sigterm();
            int code = first.waitFor(Duration.ofMinutes(2));
            assertThat(code).as(first.describe()).isZero();
            assertThat(first.stderr()).contains("savepoint: ");
            assertThat(IngestCases.summary(first).path("rows").asLong()).isEqualTo(2 * BATCH);

            Posts.upload(s3, "live", "posts/c-", c);
            E2E.sleep(2_000); // nothing is running: nothing may change
            assertThat(Judge.committedRows(table)).isEqualTo(2 * BATCH);

            ManagedProcess second = command.start("ingest-2", dir);
            IngestCases.awaitJobId(second, cluster);
            assertThat(second.stderr()).contains("resuming from");
            awaitCommitted(table, 3 * BATCH, Duration.ofMinutes(2), second);
            E2E.sleep(3_000); // a few more discovery rounds and checkpoints: still no duplicate
            second.sigterm();
            code = second.waitFor(Duration.ofMinutes(2));
            assertThat(code).as(second.describe()).isZero();
            assertThat(IngestCases.summary(second).path("rows").asLong()).isEqualTo(3 * BATCH);

            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table, s3.endpoint() + "/live/posts/*.parquet", dir.resolve("chdb"));
            assertThat(v.actualRows()).isEqualTo(3 * BATCH);
        }
    }

    private static void awaitCommitted(
            Path table, long rows, Duration timeout, ManagedProcess ingest) {
        E2E.await(
                rows + " committed rows in " + table,
                timeout,
                () -> {
                    if (!ingest.isAlive()) {
                        throw new AssertionError("ingest ended: " + ingest.describe());
                    }
                    long committed = Judge.committedRows(table);
                    if (committed > rows) {
                        throw new AssertionError(
                                committed + " rows committed, more than the " + rows + " uploaded");
                    }
                    return committed == rows;
                });
    }
}
