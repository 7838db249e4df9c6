package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;

/**
 * The network memory {@link EmbeddedNetworkMemory} sets is enough on a real MiniCluster: a job with
 * two all-to-all edges and an all-to-one edge at parallelism 8 (more network than the ingest job's
 * one edge) deploys and moves every row; with Flink's minimum buffers it would fail at deployment
 * ("Insufficient number of network buffers").
 */
class EmbeddedNetworkMemoryITCase {

    @Test
    void parallelismEightRunsWithinTheSizedNetworkMemory() throws Exception {
        Configuration conf = new Configuration();
        MemorySize set = EmbeddedNetworkMemory.configure(conf, 8);
        assertThat(set).isNotNull();
        assertThat(set.getBytes()).isLessThan(EmbeddedNetworkMemory.FLINK_LOCAL_DEFAULT.getBytes());

        List<Long> seen = runAtParallelismEight(conf);
        assertThat(seen).hasSize(20_000);
        assertThat(seen.stream().mapToLong(Long::longValue).sum())
                .isEqualTo(20_000L * 20_001L + 20_000L);
    }

    /** The control: the same job in far less network memory fails, so the test above can. */
    @Test
    void theSameJobFailsWithTooLittleNetworkMemory() {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.ofMebiBytes(2));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.ofMebiBytes(2));
        assertThat(EmbeddedNetworkMemory.configure(conf, 8)).isNull();

        assertThatThrownBy(() -> runAtParallelismEight(conf))
                .satisfies(
                        e ->
                                assertThat(ExceptionUtils.stringifyException(e))
                                        .contains("network buffers"));
    }

    /** 1..20,000 through two all-to-all edges (x * 2, then + 1) and collected: the rows seen. */
    private static List<Long> runAtParallelismEight(Configuration conf) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(8, conf);
        List<Long> seen = new ArrayList<>();
        try (CloseableIterator<Long> it =
                env.fromSequence(1, 20_000)
                        .rebalance()
                        .map(x -> x * 2)
                        .rebalance()
                        .map(x -> x + 1)
                        .executeAndCollect()) {
            it.forEachRemaining(seen::add);
        }
        return seen;
    }
}
