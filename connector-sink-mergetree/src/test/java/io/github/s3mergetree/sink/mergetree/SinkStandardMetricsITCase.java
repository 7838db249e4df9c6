package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink's standard sink metrics as a Flink user reads them from a metric reporter: the writer's
 * {@code numRecordsSend} is the rows the job wrote and {@code numBytesSend} the bytes of the parts
 * ClickHouse attaches ({@code system.parts.bytes_on_disk}); and no metric name carries the table:
 * it is the {@code <table>} variable of the sink's metrics (a label in Prometheus), and no operator
 * name has it.
 */
class SinkStandardMetricsITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final int BLOCKS = 40;
    static final int ROWS_PER_BLOCK = 100;

    static String ddl(String name) {
        return "CREATE TABLE "
                + name
                + " (id UInt64, s String) ENGINE = MergeTree PARTITION BY id % 3 ORDER BY id";
    }

    static Block block(long k) {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "m",
                        List.of("id", "s"),
                        List.of(DataTypes.UINT64, DataTypes.STRING_TYPE),
                        ZoneOffset.UTC);
        for (long i = k * ROWS_PER_BLOCK; i < (k + 1) * ROWS_PER_BLOCK; i++) {
            b.addRow(i, "s" + i);
        }
        return b.build();
    }

    @Test
    void numRecordsSendAndNumBytesSendAreWhatTheJobWroteAndNoNameHasTheTable() throws Exception {
        Path dir = tmp.resolve("standard-metrics-table");
        String table = dir.toString();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        // one writer, one insert block: one part per partition, so nothing to merge and the
        // parts ClickHouse attaches are the parts the writer wrote
        env.setParallelism(1);
        env.getConfig().enableObjectReuse(); // blocks are handed on, not copied by Kryo
        env.fromSequence(0, BLOCKS - 1)
                .map(SinkStandardMetricsITCase::block)
                .returns(TypeInformation.of(Block.class))
                .sinkTo(MergeTreeSink.forBlocks().setTablePath(table).setDdl(ddl("m")).build());
        JobID job = env.execute("standard metrics").getJobID();

        ch.execute(ddl("ours"));
        TableChecks.attachAll(ch, "ours", dir);
        long rows = (long) BLOCKS * ROWS_PER_BLOCK;
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(rows);
        long bytesOnDisk =
                ch.queryLong(
                        "SELECT sum(bytes_on_disk) FROM system.parts WHERE table = 'ours' AND active");
        assertThat(ch.queryLong("SELECT count() FROM system.parts WHERE table = 'ours'"))
                .isEqualTo(3);

        // by identifier (Flink registers some of its own metrics twice: not in one map)
        List<Map.Entry<String, Metric>> metrics = new ArrayList<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            if (job.toString().equals(g.getKey().getAllVariables().get("<job_id>"))) {
                for (Map.Entry<String, Metric> m : g.getValue().entrySet()) {
                    metrics.add(
                            Map.entry(g.getKey().getMetricIdentifier(m.getKey()), m.getValue()));
                }
            }
        }
        assertThat(sum(metrics, "numRecordsSend")).isEqualTo(rows);
        assertThat(sum(metrics, "numBytesSend")).isEqualTo(bytesOnDisk);
        // the connector's own metrics are still there, under the table's group
        assertThat(sum(metrics, "table." + table + ".rowsIn")).isEqualTo(rows);
        assertThat(sum(metrics, "table." + table + ".partsCommitted")).isEqualTo(3);

        List<String> names = new ArrayList<>();
        List<String> tableValues = new ArrayList<>();
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            Map<String, String> vars = g.getKey().getAllVariables();
            if (!job.toString().equals(vars.get("<job_id>"))) {
                continue;
            }
            assertThat(vars.getOrDefault("<operator_name>", "")).doesNotContain(table);
            if (vars.containsKey("<table>")) {
                tableValues.add(vars.get("<table>"));
            }
            for (String name : g.getValue().keySet()) {
                names.add(withoutVariableValues(g.getKey(), name));
                // the full identifier (JMX, Slf4j, REST) has the table only as that variable's
                // value, the way Flink spells every key-value group
                assertThat(
                                g.getKey()
                                        .getMetricIdentifier(name)
                                        .replace(".table." + table + ".", ".table.<table>."))
                        .doesNotContain(table);
            }
        }
        assertThat(names)
                .isNotEmpty()
                .noneMatch(n -> n.contains(table))
                .anyMatch(n -> n.endsWith(">.numRecordsSend"))
                .anyMatch(n -> n.endsWith(">.numBytesSend"))
                .anyMatch(n -> n.endsWith(">.table.<table>.rowsIn"))
                .anyMatch(n -> n.endsWith(">.table.<table>.partsCommitted"))
                .anyMatch(n -> n.endsWith(">.table.<table>.activeParts"));
        assertThat(tableValues).isNotEmpty().allMatch(table::equals);
    }

    /**
     * A metric's identifier with each variable's value replaced by its key: the name reporters such
     * as Prometheus give it, the values being labels.
     */
    private static String withoutVariableValues(MetricGroup group, String metric) {
        String id = "." + group.getMetricIdentifier(metric) + ".";
        for (Map.Entry<String, String> v : group.getAllVariables().entrySet()) {
            if (!v.getValue().isEmpty()) {
                id = id.replace("." + v.getValue() + ".", "." + v.getKey() + ".");
            }
        }
        return id.substring(1, id.length() - 1);
    }

    /** The sum of the counters of {@code metrics} whose identifier ends with {@code .suffix}. */
    private static long sum(List<Map.Entry<String, Metric>> metrics, String suffix) {
        long total = 0;
        for (Map.Entry<String, Metric> e : metrics) {
            if (e.getKey().endsWith("." + suffix) && e.getValue() instanceof Counter c) {
                total += c.getCount();
            }
        }
        return total;
    }
}
