package io.github.s3mergetree.sink.mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DataStream sink with {@code clickhouse.url}: every commit of a streaming job with checkpoints
 * lands in a live ClickHouse 26.x table (chDB behind its HTTP interface, ATTACH delivery) that
 * already has rows; the live table then equals its earlier rows plus ClickHouse's own insert of the
 * same input (count, RowsHash). A target that does not fit fails build().
 */
class DeliveryCoordinatorITCase {
    @TempDir static Path tmp;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient ch;

    @BeforeAll
    static void start() throws Exception {
        server = ChDbHttpServer.start(tmp.resolve("chdb"));
        ch = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String q(String sql) throws Exception {
        return ch.query(Sql.of(sql)).trim();
    }

    @Test
    void aStreamingJobDeliversEveryCommitExactlyOnce() throws Exception {
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
        env.enableCheckpointing(200);
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
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(tmp.resolve("events").toString())
                                .setDdl(EventRows.ddl("events"))
                                .setSetting("min_insert_block_size_rows", "3000")
                                .setOption(MergeTreeSinkOptions.CLICKHOUSE_URL, server.url())
                                .setOption(MergeTreeSinkOptions.CLICKHOUSE_TABLE, "default.live")
                                .build());
        env.execute("delivering");
        q(EventRows.ddl("ref"));
        q("INSERT INTO ref " + EventRows.INPUT_COLUMNS + " " + EventRows.chdbSelect(1_000_000, 50));
        q("INSERT INTO ref " + EventRows.INPUT_COLUMNS + " " + EventRows.chdbSelect(0, n));
        assertThat(q("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM live"))
                .isEqualTo(q("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM ref"))
                .startsWith((n + 50) + "\t");
        assertThat(q("CHECK TABLE live SETTINGS check_query_single_value_result = 1"))
                .isEqualTo("1");
    }

    /**
     * The DDL is parsed once where the sink is built (the table, the input and the delivery target
     * checked with one parse) and, in the job, at most once by each task that uses the table (2
     * writers, 2 committers, the merge coordinator and the delivery coordinator); not once more by
     * every consumer of the table, nor by every copy of the sink Flink deserializes.
     */
    @Test
    void theDdlIsParsedOnceWhenBuiltAndOncePerTask() throws Exception {
        q(EventRows.ddl("live_parsed"));
        String ddl = EventRows.ddl("events_parsed");
        List<String> parses = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (AutoCloseable observed =
                io.github.s3mergetree.engine.ddl.DdlParser.observeParses(
                        text -> {
                            if (text.equals(ddl)) {
                                parses.add(Thread.currentThread().getName());
                            }
                        })) {
            MergeTreeSink<org.apache.flink.table.data.RowData> sink =
                    MergeTreeSink.forRowData()
                            .setRowType(EventRows.ROW_TYPE)
                            .setTablePath(tmp.resolve("events_parsed").toString())
                            .setDdl(ddl)
                            .setOption(MergeTreeSinkOptions.CLICKHOUSE_URL, server.url())
                            .setOption(MergeTreeSinkOptions.CLICKHOUSE_TABLE, "default.live_parsed")
                            .build();
            assertThat(parses).as("parses while building").hasSize(1);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
            env.setRuntimeMode(RuntimeExecutionMode.BATCH);
            env.setParallelism(2);
            env.fromSequence(0, 999)
                    .map(EventRows::row)
                    .returns(InternalTypeInfo.of(EventRows.ROW_TYPE))
                    .sinkTo(sink);
            env.execute("parsing once");
            List<String> inTasks = parses.subList(1, parses.size());
            // 6 tasks: 2 writers, 2 committers, the merge and the delivery coordinator
            assertThat(inTasks)
                    .as("parses in the tasks (by thread)")
                    .doesNotHaveDuplicates()
                    .hasSizeBetween(1, 6);
        }
        assertThat(q("SELECT count() FROM live_parsed")).isEqualTo("1000");
    }

    @Test
    void aTargetThatDoesNotFitFailsBuild() throws Exception {
        q(EventRows.ddl("other").replaceFirst("ORDER BY [^\\n]*", "ORDER BY tuple()"));
        assertThatThrownBy(
                        () ->
                                MergeTreeSink.forRowData()
                                        .setRowType(EventRows.ROW_TYPE)
                                        .setTablePath(tmp.resolve("events2").toString())
                                        .setDdl(EventRows.ddl("events2"))
                                        .setOption(
                                                MergeTreeSinkOptions.CLICKHOUSE_URL, server.url())
                                        .setOption(
                                                MergeTreeSinkOptions.CLICKHOUSE_TABLE,
                                                "default.other")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit");
    }
}
