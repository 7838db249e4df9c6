package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import io.github.s3mergetree.engine.testing.ClickHouse1816Cluster;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ATTACH delivery into a {@code ReplicatedMergeTree} table of a real replicated ClickHouse 18.16
 * cluster (one shard, two replicas, an in-process ZooKeeper): parts written here in the portable
 * profile are attached on replica 1, and replica 2 fetches them through ZooKeeper and the
 * interserver port, so both hold exactly the written rows (count and a content hash equal to the
 * rows 18.16 computes itself). The written table's DDL may be the plain engine or the replicated
 * one: the parts are the same.
 */
class ReplicatedAttachDeliveryITCase {
    /** How long replica 2 may take to fetch what replica 1 attached. */
    private static final Duration REPLICATION_TIMEOUT = Duration.ofSeconds(60);

    @TempDir static Path dir;
    private static ClickHouse1816Cluster cluster;
    private static int tables;

    @BeforeAll
    static void start() {
        cluster = ClickHouse1816Cluster.start(dir.resolve("cluster"), 1, 2);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Rows [from, from + n) of the written table's generator, as 18.16 computes them. */
    private static String select(long from, long n) {
        return "SELECT toUInt64(number) AS id, toUInt8(number % 3) AS p, concat('v',"
                + " toString(number)) AS s FROM system.numbers WHERE number >= "
                + from
                + " LIMIT "
                + n;
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ENGINE = MergeTree PARTITION BY p ORDER BY id",
                "ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/{database}/{table}',"
                        + " '{replica}') PARTITION BY p ORDER BY id",
            })
    void partsAttachedOnOneReplicaReachBoth(String writtenEngine) throws Exception {
        int n = ++tables;
        TableName live = new TableName("default", "live" + n);
        cluster.executeOnEveryServer(
                "CREATE TABLE "
                        + live
                        + " "
                        + WrittenTable.COLUMNS
                        + " ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/live"
                        + n
                        + "', '{replica}') PARTITION BY p ORDER BY id");
        WrittenTable table =
                WrittenTable.withEngine(
                        dir.resolve("written" + n),
                        writtenEngine,
                        "SETTINGS index_granularity_bytes = 0");
        table.insert(0, 20_000);
        table.insert(20_000, 5_000);

        ClickHouse1816 first = cluster.server(1, 1);
        ClickHouseHttpClient client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of("http://127.0.0.1:" + first.httpPort()));
        AttachDelivery delivery =
                new AttachDelivery(
                        TableStore.local(table.dir().toString()),
                        table.schema(),
                        DeliveryTarget.resolve(client, live),
                        client,
                        null,
                        Clock.systemUTC(),
                        DeliveryOptions.defaults().withLease(Duration.ZERO));
        assertThat(delivery.check().differencesFrom(table.schema())).isEmpty();
        DeliveryResult r = delivery.deliverPending();
        assertThat(r.rows()).isEqualTo(25_000);

        String contents = "SELECT count(), " + RowsHash.of("id, p, s") + " FROM ";
        String expected = first.query(contents + "(" + select(0, 25_000) + ")");
        assertThat(first.query(contents + live)).isEqualTo(expected);
        ClickHouse1816 second = cluster.server(1, 2);
        String onSecond = awaitContents(second, contents + live, expected);
        assertThat(onSecond).as("replica 2 of %s", live).isEqualTo(expected);
        assertThat(
                        second.queryLong(
                                "SELECT count() FROM system.parts WHERE active AND table = '"
                                        + live.table()
                                        + "'"))
                .isEqualTo(
                        first.queryLong(
                                "SELECT count() FROM system.parts WHERE active AND table = '"
                                        + live.table()
                                        + "'"));
    }

    /**
     * Polls {@code sql} on {@code server} until it answers {@code expected} or {@link
     * #REPLICATION_TIMEOUT} passes; returns the last answer.
     */
    private static String awaitContents(ClickHouse1816 server, String sql, String expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + REPLICATION_TIMEOUT.toNanos();
        String last = server.query(sql);
        while (!last.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = server.query(sql);
        }
        return last;
    }
}
