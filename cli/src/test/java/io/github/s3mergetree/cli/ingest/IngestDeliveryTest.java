package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ingest --continuous} into an {@code s3://} table with delivery into a live ClickHouse 26.x
 * (chDB behind its HTTP interface, RESTORE of every commit from the S3 server's bucket): objects
 * added while the job runs are visible in the live table within 30 s; after SIGTERM the live table
 * equals ClickHouse's own insert of the same objects (count, RowsHash). A target that does not fit
 * fails the command before the job starts.
 */
class IngestDeliveryTest {
    @TempDir Path tmp;

    @Test
    void continuousIngestDeliversNewObjectsWithinThirtySeconds() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp);
                ChDbHttpServer server = ChDbHttpServer.start(tmp.resolve("chdb"))) {
            ClickHouseHttpClient ch =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            ch.query(
                    Sql.of(
                            PostsGenerator.DDL.replace(
                                    "CREATE TABLE posts", "CREATE TABLE default.live")));
            fx.addFiles(3, 2000);
            List<String> extra =
                    new ArrayList<>(
                            List.of(
                                    "--continuous",
                                    "--discovery-interval",
                                    "1s",
                                    "--checkpoint-interval",
                                    "1s",
                                    "--clickhouse-url",
                                    server.url(),
                                    "--clickhouse-table",
                                    "default.live"));
            if (Boolean.getBoolean("s3mergetree.test.s3PluginSkipped")) {
                // no S3 plugin for this Flink line (1.20): checkpoints in a local directory
                extra.addAll(List.of("--checkpoint-dir", tmp.resolve("checkpoints").toString()));
            }
            List<String> args =
                    fx.ingestArgs(
                            "s3://" + IngestFixture.BUCKET + "/tables/posts",
                            extra.toArray(String[]::new));
            Process run = fx.startChild(args, "run");
            try {
                awaitCount(ch, 6000, 180, run);
                fx.addFiles(2, 2000); // arrive while the job runs
                long t0 = System.nanoTime();
                awaitCount(ch, 10000, 60, run);
                double seconds = (System.nanoTime() - t0) / 1e9;
                assertThat(seconds).as("new objects visible in the live table").isLessThan(30);
                run.destroy(); // SIGTERM: a last commit, then a last delivery
                assertThat(run.waitFor(3, TimeUnit.MINUTES)).isTrue();
            } finally {
                run.destroyForcibly();
            }
            assertThat(run.exitValue()).as(fx.childErr("run")).isZero();
            assertThat(fx.childErr("run")).contains("delivering every commit into default.live");
            // the same objects inserted by ClickHouse itself
            ch.query(
                    Sql.of(
                            PostsGenerator.DDL.replace(
                                    "CREATE TABLE posts", "CREATE TABLE default.ref")));
            try (Stream<Path> files =
                    Files.list(fx.store.resolve(IngestFixture.BUCKET).resolve("posts"))) {
                for (Path f : files.toList()) {
                    ch.query(
                            Sql.of(
                                    "INSERT INTO default.ref SELECT * FROM file('"
                                            + f
                                            + "', Parquet)"));
                }
            }
            assertThat(
                            ch.query(
                                            Sql.of(
                                                    "SELECT count(), "
                                                            + RowsHash.ALL_COLUMNS
                                                            + " FROM default.live"))
                                    .trim())
                    .isEqualTo(
                            ch.query(
                                            Sql.of(
                                                    "SELECT count(), "
                                                            + RowsHash.ALL_COLUMNS
                                                            + " FROM default.ref"))
                                    .trim())
                    .startsWith("10000\t");
            assertThat(
                            ch.query(
                                            Sql.of(
                                                    "CHECK TABLE default.live SETTINGS check_query_single_value_result = 1"))
                                    .trim())
                    .isEqualTo("1");
            assertThat(
                            Long.parseLong(
                                    ch.value(
                                            Sql.of(
                                                    "SELECT count() FROM system.backups WHERE status = 'RESTORED'"))))
                    .as("delivered by RESTORE")
                    .isPositive();
        }
    }

    @Test
    void aTargetThatDoesNotFitFailsBeforeTheJobStarts() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp);
                ChDbHttpServer server = ChDbHttpServer.start(tmp.resolve("chdb"))) {
            ClickHouseHttpClient ch =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            ch.query(
                    Sql.of(
                            PostsGenerator.DDL
                                    .replace("CREATE TABLE posts", "CREATE TABLE default.other")
                                    .replace("PARTITION BY toYear(CreationDate)", "")));
            fx.addFiles(1, 100);
            Path table = tmp.resolve("table");
            IngestFixture.Result r =
                    IngestFixture.runInProcess(
                            fx.ingestArgs(
                                    table,
                                    "--clickhouse-url",
                                    server.url(),
                                    "--clickhouse-table",
                                    "default.other"));
            assertThat(r.code()).isEqualTo(1);
            assertThat(r.err())
                    .contains(
                            "PARTITION BY is toYear(CreationDate) in the written table but (none) on the server");
            assertThat(Files.exists(table)).as("nothing written").isFalse();
        }
    }

    private static void awaitCount(ClickHouseHttpClient ch, long rows, int seconds, Process run)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            long n = Long.parseLong(ch.value(Sql.of("SELECT count() FROM default.live")));
            if (n == rows) {
                return;
            }
            assertThat(n).as("rows in the live table").isLessThan(rows);
            assertThat(run.isAlive()).as("ingest still running").isTrue();
            assertThat(System.nanoTime())
                    .as("%d rows in the live table within %d s", rows, seconds)
                    .isLessThan(deadline);
            Thread.sleep(200);
        }
    }
}
