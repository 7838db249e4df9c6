package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18's Done-when: a batch {@code ingest} into an {@code s3://} table with delivery by RESTORE
 * into a live, non-empty ClickHouse 26.x table (chDB behind its HTTP interface, reading the parts
 * from the S3 server's bucket), the ingest's JVM killed dead ({@code Runtime.halt}, as kill -9: no
 * finally, no shutdown hook) at each of the five points of the delivery protocol, each time with
 * new objects; the same command run again leaves the live table holding exactly its earlier rows
 * plus every source row once: count and {@code RowsHash} equal to ClickHouse's own insert of the
 * same objects beside the same earlier rows.
 */
class IngestDeliveryKillTest {
    @TempDir Path tmp;

    @Test
    void killedAtEveryPointOfTheDeliveryProtocolTheRerunLeavesEveryRowOnce() throws Exception {
        // delivery runs in the CLI's own JVM, the same code on both Flink lines; ten ingests of an
        // S3 table take minutes, so only the Flink 2.x line (which has Flink's S3 plugin for the
        // ingest's checkpoints on S3) runs them
        Assumptions.assumeFalse(
                Boolean.getBoolean("s3mergetree.test.s3PluginSkipped"),
                "run on the Flink 2.x line only");
        try (IngestFixture fx = new IngestFixture(tmp);
                ChDbHttpServer server = ChDbHttpServer.start(tmp.resolve("chdb"))) {
            server.awaitUptimeAbove(2);
            ClickHouseHttpClient ch =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            for (String t : List.of("live", "ref")) {
                ch.query(
                        Sql.of(
                                PostsGenerator.DDL.replace(
                                        "CREATE TABLE posts", "CREATE TABLE default." + t)));
            }
            // the live table is not empty: rows ClickHouse inserted itself, also in the reference
            PostsGenerator gen = new PostsGenerator(11);
            Path earlier = tmp.resolve("earlier.parquet");
            gen.write(earlier, 50_000_000, 777);
            for (String t : List.of("live", "ref")) {
                ch.query(
                        Sql.of(
                                "INSERT INTO default."
                                        + t
                                        + " SELECT * FROM file('"
                                        + earlier
                                        + "', Parquet)"));
            }
            String[] points = {
                DeliveryFaultPoints.AFTER_INTENT,
                DeliveryFaultPoints.AFTER_MANIFEST,
                DeliveryFaultPoints.AFTER_SEND,
                DeliveryFaultPoints.AFTER_APPLIED,
                DeliveryFaultPoints.AFTER_OUTCOME
            };
            long nextId = 1;
            for (int round = 0; round < points.length; round++) {
                String point = points[round];
                // new objects under their own prefix: each round is an ingest of its own
                for (int i = 0; i < 2; i++) {
                    Path f =
                            fx.store
                                    .resolve(IngestFixture.BUCKET)
                                    .resolve("r" + round)
                                    .resolve(String.format(Locale.ROOT, "part-%05d.parquet", i));
                    Path staging = tmp.resolve("staging").resolve("r" + round + "-" + i);
                    gen.write(staging, nextId, 1000);
                    nextId += 1000;
                    Files.createDirectories(f.getParent());
                    Files.move(staging, f, StandardCopyOption.ATOMIC_MOVE);
                    ch.query(
                            Sql.of(
                                    "INSERT INTO default.ref SELECT * FROM file('"
                                            + f
                                            + "', Parquet)"));
                }
                List<String> extra =
                        List.of(
                                "--checkpoint-interval",
                                "1s",
                                "--clickhouse-url",
                                server.url(),
                                "--clickhouse-table",
                                "default.live");
                List<String> args =
                        source(
                                fx.ingestArgs(tablePath(), extra.toArray(String[]::new)),
                                "s3://" + IngestFixture.BUCKET + "/r" + round + "/*.parquet");
                String name = "killed-" + round;
                Process killed =
                        fx.startChild(
                                args,
                                name,
                                List.of(
                                        "-D" + DeliveryFaultPoints.HALT_AT_PROPERTY + "=" + point,
                                        "-Ds3mergetree.log.file=" + tmp.resolve(name + ".log")));
                try {
                    assertThat(killed.waitFor(4, TimeUnit.MINUTES)).as(name).isTrue();
                } finally {
                    killed.destroyForcibly();
                }
                assertThat(killed.exitValue())
                        .as("ingest halted at %s: %s", point, fx.childErr(name))
                        .isEqualTo(137);
                assertThat(fx.childErr(name)).contains("halting at " + point);

                IngestFixture.Result rerun = IngestFixture.runInProcess(args);
                assertThat(rerun.code()).as("rerun after %s: %s", point, rerun.err()).isZero();
                assertThat(
                                ch.query(
                                                Sql.of(
                                                        "SELECT count(), "
                                                                + RowsHash.ALL_COLUMNS
                                                                + " FROM default.live"))
                                        .trim())
                        .as("the live table after a kill at %s and a rerun", point)
                        .isEqualTo(
                                ch.query(
                                                Sql.of(
                                                        "SELECT count(), "
                                                                + RowsHash.ALL_COLUMNS
                                                                + " FROM default.ref"))
                                        .trim())
                        .startsWith((777 + nextId - 1) + "\t");
            }
            assertThat(
                            ch.query(
                                            Sql.of(
                                                    "CHECK TABLE default.live SETTINGS check_query_single_value_result = 1"))
                                    .trim())
                    .isEqualTo("1");
            assertThat(ch.value(Sql.of("SELECT uniqExact(Id) FROM default.live")))
                    .isEqualTo(String.valueOf(777 + nextId - 1));
            assertThat(
                            Long.parseLong(
                                    ch.value(
                                            Sql.of(
                                                    "SELECT count() FROM system.backups WHERE status = 'RESTORED'"))))
                    .as("delivered by RESTORE")
                    .isGreaterThanOrEqualTo(points.length);
        }
    }

    /** The ingest's table: on the fixture's S3 server, so delivery is by RESTORE from it. */
    private static String tablePath() {
        return "s3://" + IngestFixture.BUCKET + "/tables/posts";
    }

    /** {@code args} with the value of {@code --source} replaced by {@code source}. */
    private static List<String> source(List<String> args, String source) {
        List<String> out = new ArrayList<>(args);
        int i = out.indexOf("--source");
        out.set(i + 1, source);
        return out;
    }
}
