package io.github.s3mergetree.cli.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.cli.testing.CommandRun;
import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree deliver} of an {@code s3://} table by RESTORE into a live ClickHouse 26.x
 * (chDB behind its HTTP interface) reading the parts from an S3 API server process' bucket, with
 * the deliverer's JVM stopped dead ({@code Runtime.halt}, as kill -9: no finally, no shutdown hook)
 * at each of the five points of the delivery protocol, each time with new commits in the table;
 * after every rerun the live table holds its earlier rows plus every written row once (count and
 * {@code RowsHash} against the same rows computed by ClickHouse).
 */
class DeliverKillTest {
    private static final String KEY = DeliverFromS3.KEY;
    private static final String SECRET = DeliverFromS3.SECRET;

    @TempDir Path dir;

    @Test
    void killedAtEveryPointOfTheProtocolARerunDeliversEveryRowOnce() throws Exception {
        Path s3root = dir.resolve("s3");
        Files.createDirectories(s3root.resolve("bkt"));
        WrittenTable table = WrittenTable.create(s3root.resolve("bkt/tables/posts"), "");
        try (LocalS3Server s3 = LocalS3Server.start(s3root, 0, KEY, SECRET);
                ChDbHttpServer server = ChDbHttpServer.start(dir.resolve("chdb"))) {
            server.awaitUptimeAbove(2);
            ClickHouseHttpClient client =
                    ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
            client.query(
                    Sql.of(
                            "CREATE TABLE default.live "
                                    + WrittenTable.COLUMNS
                                    + " "
                                    + WrittenTable.ENGINE));
            client.query(
                    Sql.of(
                            "INSERT INTO default.live "
                                    + WrittenTable.referenceSelect(5_000_000, 321)));
            List<String> args =
                    DeliverFromS3.args(s3, "s3://bkt/tables/posts", server.url(), "default.live");
            long rows = 0;
            String[] points = {
                DeliveryFaultPoints.AFTER_INTENT,
                DeliveryFaultPoints.AFTER_MANIFEST,
                DeliveryFaultPoints.AFTER_SEND,
                DeliveryFaultPoints.AFTER_APPLIED,
                DeliveryFaultPoints.AFTER_OUTCOME
            };
            for (String point : points) {
                table.insert(rows, 1500);
                rows += 1500;
                Process p = killedRun(point, args);
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
                assertThat(p.exitValue())
                        .as(
                                "deliver halted at "
                                        + point
                                        + ": "
                                        + Files.readString(dir.resolve("child.err")))
                        .isEqualTo(137);
                CommandRun rerun = CommandRun.of(args);
                assertThat(rerun.code()).as(rerun.err()).isZero();
                String expected =
                        client.query(
                                        Sql.of(
                                                "SELECT count(), "
                                                        + RowsHash.ALL_COLUMNS
                                                        + " FROM ("
                                                        + WrittenTable.referenceSelect(
                                                                5_000_000, 321)
                                                        + " UNION ALL "
                                                        + WrittenTable.referenceSelect(0, rows)
                                                        + ")"))
                                .trim();
                assertThat(
                                client.query(
                                                Sql.of(
                                                        "SELECT count(), "
                                                                + RowsHash.ALL_COLUMNS
                                                                + " FROM default.live"))
                                        .trim())
                        .as("after a kill at " + point)
                        .isEqualTo(expected);
            }
            assertThat(
                            client.query(
                                            Sql.of(
                                                    "CHECK TABLE default.live SETTINGS check_query_single_value_result = 1"))
                                    .trim())
                    .isEqualTo("1");
        }
    }

    private Process killedRun(String point, List<String> args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("-Ds3mergetree.deliver.halt-at=" + point);
        command.add(S3MergeTreeCommand.class.getName());
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectOutput(dir.resolve("child.out").toFile())
                .redirectError(dir.resolve("child.err").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .start();
    }
}
