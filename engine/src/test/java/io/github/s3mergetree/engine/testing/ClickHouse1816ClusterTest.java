package io.github.s3mergetree.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ClickHouse1816Cluster}: two shards of two replicas each see their own macros and the whole
 * {@code remote_servers} cluster, and a {@code ReplicatedMergeTree} insert on one replica reaches
 * the other replica of its shard and no server of the other shard.
 */
class ClickHouse1816ClusterTest {
    @TempDir Path dir;

    @Test
    void twoShardsOfTwoReplicasReplicateWithinTheirShard() throws Exception {
        try (ClickHouse1816Cluster cluster = ClickHouse1816Cluster.start(dir, 2, 2)) {
            assertThat(cluster.servers()).hasSize(4);
            for (int s = 1; s <= 2; s++) {
                for (int r = 1; r <= 2; r++) {
                    ClickHouse1816 server = cluster.server(s, r);
                    assertThat(server.query("SELECT macro, substitution FROM system.macros"))
                            .isEqualTo("replica\tr" + r + "\nshard\t0" + s);
                    assertThat(
                                    server.query(
                                            "SELECT shard_num, replica_num, port FROM"
                                                    + " system.clusters WHERE cluster = '"
                                                    + ClickHouse1816Cluster.CLUSTER
                                                    + "' ORDER BY shard_num, replica_num"))
                            .isEqualTo(
                                    "1\t1\t"
                                            + cluster.server(1, 1).port()
                                            + "\n1\t2\t"
                                            + cluster.server(1, 2).port()
                                            + "\n2\t1\t"
                                            + cluster.server(2, 1).port()
                                            + "\n2\t2\t"
                                            + cluster.server(2, 2).port());
                }
            }
            cluster.executeOnEveryServer(
                    "CREATE TABLE t (k UInt32) ENGINE ="
                            + " ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}')"
                            + " ORDER BY k");
            cluster.server(1, 1)
                    .execute(
                            "INSERT INTO t SELECT toUInt32(number) FROM system.numbers LIMIT 1000");
            cluster.server(2, 2)
                    .execute("INSERT INTO t SELECT toUInt32(number) FROM system.numbers LIMIT 7");
            assertThat(awaitCount(cluster.server(1, 2), 1000)).isEqualTo(1000);
            assertThat(awaitCount(cluster.server(2, 1), 7)).isEqualTo(7);
            assertThat(cluster.server(1, 1).queryLong("SELECT count() FROM t")).isEqualTo(1000);
            assertThat(cluster.server(2, 2).queryLong("SELECT count() FROM t")).isEqualTo(7);
        }
    }

    /** Polls {@code count()} of {@code t} until it is {@code expected} or 60 s pass. */
    private static long awaitCount(ClickHouse1816 server, long expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long count = server.queryLong("SELECT count() FROM t");
        while (count != expected && System.nanoTime() < deadline) {
            Thread.sleep(100);
            count = server.queryLong("SELECT count() FROM t");
        }
        return count;
    }
}
