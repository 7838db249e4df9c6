package io.github.s3mergetree.sink.mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkBuilder;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import java.nio.file.Path;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DataStream sink writing an {@code s3://} table (S3Proxy 2.9.0 on loopback) with {@code
 * clickhouse.url}: every commit is delivered by RESTORE (the default for S3 tables) into a live
 * ClickHouse 26.x table (chDB behind its HTTP interface) that already has rows; the server reads
 * the committed part objects in place from the bucket. The live table then equals its earlier rows
 * plus ClickHouse's own insert of the same input (count, RowsHash), and CHECK TABLE passes. attach
 * on an S3 table fails build() with one line.
 */
class S3RestoreDeliveryITCase {
    @TempDir static Path tmp;
    private static S3ProxyServer s3;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient ch;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3ProxyServer(tmp.resolve("s3"));
        s3.createBucket("bkt");
        server = ChDbHttpServer.start(tmp.resolve("chdb"));
        ch = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static String q(String sql) throws Exception {
        return ch.query(Sql.of(sql)).trim();
    }

    private static MergeTreeSinkBuilder<RowData> sink(String name, String target) {
        return MergeTreeSink.forRowData()
                .setRowType(EventRows.ROW_TYPE)
                .setTablePath("s3://bkt/tables/" + name)
                .setTableS3(s3.endpoint().toString(), "us-east-1", true)
                .setTableCredentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)
                .setDdl(EventRows.ddl(name))
                .setOption(MergeTreeSinkOptions.CLICKHOUSE_URL, server.url())
                .setOption(MergeTreeSinkOptions.CLICKHOUSE_TABLE, target);
    }

    @Test
    void aStreamingJobOnAnS3TableRestoresEveryCommitExactlyOnce() throws Exception {
        long n = 20_000;
        q(EventRows.ddl("live"));
        q(
                "INSERT INTO live "
                        + EventRows.INPUT_COLUMNS
                        + " "
                        + EventRows.chdbSelect(1_000_000, 50));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.setParallelism(2);
        env.enableCheckpointing(300);
        env.fromSequence(0, n - 1)
                .map(
                        i -> {
                            if (i % 200 == 0) {
                                Thread.sleep(5);
                            }
                            return EventRows.row(i);
                        })
                .returns(InternalTypeInfo.of(EventRows.ROW_TYPE))
                .sinkTo(
                        sink("events", "default.live")
                                .setSetting("min_insert_block_size_rows", "3000")
                                .build());
        env.execute("restoring");
        q(EventRows.ddl("ref"));
        q("INSERT INTO ref " + EventRows.INPUT_COLUMNS + " " + EventRows.chdbSelect(1_000_000, 50));
        q("INSERT INTO ref " + EventRows.INPUT_COLUMNS + " " + EventRows.chdbSelect(0, n));
        assertThat(q("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM live"))
                .isEqualTo(q("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM ref"))
                .startsWith((n + 50) + "\t");
        assertThat(q("CHECK TABLE live SETTINGS check_query_single_value_result = 1"))
                .isEqualTo("1");
        // delivered by RESTORE (the server's own record of each), not by ATTACH
        assertThat(
                        Long.parseLong(
                                q("SELECT count() FROM system.backups WHERE status = 'RESTORED'")))
                .isPositive();
    }

    @Test
    void attachOnAnS3TableFailsBuild() throws Exception {
        q(EventRows.ddl("other"));
        assertThatThrownBy(
                        () ->
                                sink("events2", "default.other")
                                        .setOption(MergeTreeSinkOptions.DELIVER, "attach")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("use deliver = restore");
    }
}
