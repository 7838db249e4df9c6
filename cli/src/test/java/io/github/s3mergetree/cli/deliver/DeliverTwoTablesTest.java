package io.github.s3mergetree.cli.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.cli.testing.CommandRun;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 43, item 2, as a user met it: {@code s3-mergetree deliver} of two {@code s3://} tables into
 * one live ClickHouse 26.x table (chDB behind its HTTP interface) by RESTORE from an S3 API server,
 * one table after the other and then alternately; every run reports the rows it delivered and the
 * live table holds exactly its earlier rows plus both tables' rows (count and {@code
 * sum(cityHash64(*))} against ClickHouse's own rows of the union).
 */
class DeliverTwoTablesTest {
    private static final String KEY = DeliverFromS3.KEY;
    private static final String SECRET = DeliverFromS3.SECRET;

    @TempDir Path dir;

    @Test
    void twoTablesDeliveredIntoOneLiveTableBothArrive() throws Exception {
        Path s3root = dir.resolve("s3");
        Files.createDirectories(s3root.resolve("bkt"));
        // tables written straight into the S3 server's bucket directory: s3://bkt/tables/<name>
        WrittenTable a = WrittenTable.create(s3root.resolve("bkt/tables/a"), "");
        WrittenTable b = WrittenTable.create(s3root.resolve("bkt/tables/b"), "");
        try (LocalS3Server s3 = LocalS3Server.start(s3root, 0, KEY, SECRET);
                ChDbHttpServer server = ChDbHttpServer.start(dir.resolve("chdb"))) {
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
                                    + WrittenTable.referenceSelect(5_000_000, 777)));
            List<String> union = new ArrayList<>();
            union.add(WrittenTable.referenceSelect(5_000_000, 777));

            a.insert(0, 20_000);
            union.add(WrittenTable.referenceSelect(0, 20_000));
            assertThat(deliver(s3, server, "a"))
                    .contains("\"deliveries\":1,")
                    .contains("\"rows\":20000,");
            assertLiveHolds(client, union);

            b.insert(1_000_000, 20_000);
            union.add(WrittenTable.referenceSelect(1_000_000, 20_000));
            assertThat(deliver(s3, server, "b"))
                    .contains("\"deliveries\":1,")
                    .contains("\"rows\":20000,");
            assertLiveHolds(client, union);

            // alternately: each table's next commit, B first this time
            for (int round = 1; round <= 2; round++) {
                a.insert(round * 100_000L, 30_000);
                union.add(WrittenTable.referenceSelect(round * 100_000L, 30_000));
                b.insert(1_000_000 + round * 100_000L, 30_000);
                union.add(WrittenTable.referenceSelect(1_000_000 + round * 100_000L, 30_000));
                assertThat(deliver(s3, server, "b")).contains("\"rows\":30000,");
                assertThat(deliver(s3, server, "a")).contains("\"rows\":30000,");
                assertLiveHolds(client, union);
            }
            assertThat(
                            client.query(
                                            Sql.of(
                                                    "SELECT count() FROM system.backups WHERE status = 'RESTORED'"))
                                    .trim())
                    .isEqualTo("6");
        }
    }

    /** Runs {@code deliver} of {@code s3://bkt/tables/<table>}; returns its stdout line. */
    private static String deliver(LocalS3Server s3, ChDbHttpServer server, String table) {
        CommandRun run =
                CommandRun.of(
                        DeliverFromS3.args(
                                s3, "s3://bkt/tables/" + table, server.url(), "default.live"));
        assertThat(run.code()).as("deliver %s: %s", table, run.err()).isZero();
        return run.out().trim();
    }

    private static void assertLiveHolds(ClickHouseHttpClient client, List<String> union)
            throws Exception {
        String expected =
                client.query(
                                Sql.of(
                                        "SELECT count(), sum(cityHash64(*)) FROM ("
                                                + String.join(" UNION ALL ", union)
                                                + ")"))
                        .trim();
        assertThat(
                        client.query(Sql.of("SELECT count(), sum(cityHash64(*)) FROM default.live"))
                                .trim())
                .isEqualTo(expected);
    }
}
