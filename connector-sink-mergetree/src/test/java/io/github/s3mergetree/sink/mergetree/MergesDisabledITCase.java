package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code merges = false}: the sink has no merge coordinator, and a bounded job still finishes with
 * every row committed and no merge run, in BATCH mode, in STREAMING mode with checkpoints (the
 * final checkpoint's commit arrives after the end of input) and through Flink SQL. It once failed
 * every such streaming job with {@code Received element after endOfInput: ... CommittableSummary}:
 * the committables went to a sink chained to the committer, which had already seen its end of input
 * when the final commit emitted them. And {@code merges_at_end_of_input = leave} (merges on, none
 * started after the end of input): the SQL option is accepted and the job ends with every row.
 */
class MergesDisabledITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir Path tmp;

    private void runDataStream(Path dir, RuntimeExecutionMode mode, long rows) throws Exception {
        // no restarts: the old failure then fails the test instead of restarting forever
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (mode == RuntimeExecutionMode.STREAMING) {
            env.enableCheckpointing(100);
        }
        MergeTreeSinkITCase.rows(env, 0, rows, mode == RuntimeExecutionMode.STREAMING ? 200 : 0)
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(dir.toString())
                                .setDdl(EventRows.ddl("events"))
                                .setSetting("min_insert_block_size_rows", "1000")
                                .setSetting("merges", "false")
                                .build());
        env.execute("merges=false " + mode);
    }

    @Test
    void batchJobFinishesWithoutMerges() throws Exception {
        Path dir = tmp.resolve("batch");
        runDataStream(dir, RuntimeExecutionMode.BATCH, 8_000);
        assertAllCommittedWithoutMerges(dir, 8_000);
    }

    @Test
    void streamingJobWithCheckpointsFinishesWithoutMerges() throws Exception {
        Path dir = tmp.resolve("streaming");
        runDataStream(dir, RuntimeExecutionMode.STREAMING, 8_000);
        assertAllCommittedWithoutMerges(dir, 8_000);
    }

    @Test
    void sqlInsertFinishesWithoutMerges() throws Exception {
        Path dir = tmp.resolve("sql");
        sqlInsert(dir, "'merges' = 'false'");
        assertAllCommittedWithoutMerges(dir, 6_000);
    }

    @Test
    void sqlInsertWithMergesLeftAtTheEndFinishesWithEveryRow() throws Exception {
        Path dir = tmp.resolve("sql-leave");
        sqlInsert(dir, "'merges_at_end_of_input' = 'leave'");
        List<ActivePart> parts = TableChecks.open(dir).activeParts();
        assertThat(parts.stream().mapToLong(ActivePart::rows).sum()).isEqualTo(6_000);
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
    }

    /** INSERT of 6,000 generated ids into a mergetree table in {@code dir} with {@code option}. */
    private static void sqlInsert(Path dir, String option) throws Exception {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        t.getConfig().set("parallelism.default", "2");
        t.getConfig().set("restart-strategy.type", "none");
        t.getConfig().set("execution.checkpointing.interval", "100 ms");
        t.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '6000', 'rows-per-second' = '20000')");
        t.executeSql(
                "CREATE TABLE t (id BIGINT NOT NULL, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                        + " 'connector' = 'mergetree', 'path' = '"
                        + dir
                        + "', 'engine' = 'MergeTree', 'min_insert_block_size_rows' = '500', "
                        + option
                        + ")");
        t.executeSql("INSERT INTO t SELECT id FROM gen").await();
    }

    private static void assertAllCommittedWithoutMerges(Path dir, long rows) throws Exception {
        List<ActivePart> parts = TableChecks.open(dir).activeParts();
        assertThat(parts.stream().mapToLong(ActivePart::rows).sum()).isEqualTo(rows);
        // several inserted parts and not one merge: the coordinator is really off
        assertThat(parts).hasSizeGreaterThan(2).allMatch(p -> p.name().level() == 0);
        String log = String.join("\n", TableChecks.open(dir).partLog().lines());
        assertThat(log).contains("\"NewPart\"").doesNotContain("\"MergeParts\"");
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
    }
}
