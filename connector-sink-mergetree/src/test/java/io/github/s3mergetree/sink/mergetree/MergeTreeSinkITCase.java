package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink end to end on a MiniCluster (2 TaskManagers x 2 slots, parallelism 2): a BATCH job, a
 * STREAMING job with checkpoints and a STREAMING job without checkpoints write the same table
 * directory one after the other (the later ones take the DDL stored in the directory); after each,
 * every part attaches in chDB, {@code CHECK TABLE} passes, and the table equals ClickHouse's own
 * INSERT of the same rows (count, per-column and whole-row hashes, no duplicate ids), DEFAULT
 * columns included.
 */
class MergeTreeSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final List<String> COLUMNS =
            List.of(
                    "id", "d", "ts", "user", "kind", "amount", "score", "n", "tags", "attrs", "loc",
                    "code", "u", "small", "note", "id2");

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static DataStream<RowData> rows(
            StreamExecutionEnvironment env, long from, long count, int sleepEvery) {
        return env.fromSequence(from, from + count - 1)
                .map(
                        i -> {
                            if (sleepEvery > 0 && i % sleepEvery == 0) {
                                Thread.sleep(2);
                            }
                            return EventRows.row(i);
                        })
                .returns(InternalTypeInfo.of(EventRows.ROW_TYPE));
    }

    @Test
    void threeJobsShareTableAndEqualClickHouseInsert() throws Exception {
        Path dir = tmp.resolve("events");
        long n = 30_000;

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        rows(env, 0, n, 0)
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(dir.toString())
                                .setDdl(EventRows.ddl("events"))
                                .setSetting("min_insert_block_size_rows", "7000")
                                .build());
        env.execute("batch");

        ch.execute(EventRows.ddl("ours1"));
        ch.execute(EventRows.ddl("ref1"));
        ch.execute(
                "INSERT INTO ref1 " + EventRows.INPUT_COLUMNS + " " + EventRows.chdbSelect(0, n));
        List<ActivePart> parts = TableChecks.attachAll(ch, "ours1", dir);
        ch.assertCheckTablePasses("ours1");
        TableChecks.assertSameRows(ch, "ours1", "ref1", COLUMNS);
        assertThat(parts).isNotEmpty();
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();

        // a second job, streaming with checkpoints, appends to the same directory; DDL from it
        StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment();
        env2.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env2.setParallelism(2);
        env2.enableCheckpointing(150);
        rows(env2, n, n, 100)
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(dir.toString())
                                .setSetting("min_insert_block_size_rows", "5000")
                                .build())
                .uid("events-sink");
        env2.execute("streaming");

        ch.execute(EventRows.ddl("ours2"));
        ch.execute(EventRows.ddl("ref2"));
        ch.execute(
                "INSERT INTO ref2 "
                        + EventRows.INPUT_COLUMNS
                        + " "
                        + EventRows.chdbSelect(0, 2 * n));
        TableChecks.attachAll(ch, "ours2", dir);
        ch.assertCheckTablePasses("ours2");
        TableChecks.assertSameRows(ch, "ours2", "ref2", COLUMNS);
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();

        // a third job, streaming without checkpoints: everything is committed at the end of input
        StreamExecutionEnvironment env3 = StreamExecutionEnvironment.getExecutionEnvironment();
        env3.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env3.setParallelism(2);
        rows(env3, 2 * n, n / 2, 0)
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(dir.toString())
                                .setSetting("min_insert_block_size_rows", "4000")
                                .build());
        env3.execute("streaming without checkpoints");

        long total = 2 * n + n / 2;
        ch.execute(EventRows.ddl("ours3"));
        ch.execute(EventRows.ddl("ref3"));
        ch.execute(
                "INSERT INTO ref3 "
                        + EventRows.INPUT_COLUMNS
                        + " "
                        + EventRows.chdbSelect(0, total));
        TableChecks.attachAll(ch, "ours3", dir);
        ch.assertCheckTablePasses("ours3");
        TableChecks.assertSameRows(ch, "ours3", "ref3", COLUMNS);
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
    }
}
