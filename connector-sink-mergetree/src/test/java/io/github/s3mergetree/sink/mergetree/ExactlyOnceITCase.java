package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Exactly once under failures: crashes are injected at random points of the writers (on a record,
 * after an insert block's parts are written, before the committable is handed over) and of the
 * committers (before a commit, and after a commit before it is reported, so that the restarted job
 * replays it); Flink restarts the job each time from the last checkpoint (STREAMING) or re-runs the
 * failed region (BATCH). At the end every row is in the table exactly once: count, distinct ids and
 * the hash of every row equal ClickHouse's own INSERT of the same rows, every part attaches in chDB
 * and passes {@code CHECK TABLE}, and no temporary directory is left behind.
 */
class ExactlyOnceITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    /** Crashes at random points; state is static because the MiniCluster runs in this JVM. */
    static final class RandomFailures implements FailureInjector {
        private static final long serialVersionUID = 1L;
        static final Map<Point, AtomicInteger> INJECTED = new ConcurrentHashMap<>();
        static final AtomicInteger LEFT = new AtomicInteger();
        static Random random;
        static int perPoint;

        static void reset(long seed, int total, int maxPerPoint) {
            INJECTED.clear();
            LEFT.set(total);
            random = new Random(seed);
            perPoint = maxPerPoint;
        }

        static int injected() {
            return INJECTED.values().stream().mapToInt(AtomicInteger::get).sum();
        }

        @Override
        public void at(Point point, int subtask, int attempt) {
            if (LEFT.get() <= 0) {
                return;
            }
            double p = point == Point.WRITER_RECORD ? 1.0 / 15_000 : 0.2;
            boolean fire;
            synchronized (RandomFailures.class) {
                fire = random.nextDouble() < p;
            }
            AtomicInteger n = INJECTED.computeIfAbsent(point, k -> new AtomicInteger());
            if (fire && n.get() < perPoint && LEFT.decrementAndGet() >= 0) {
                n.incrementAndGet();
                throw new RuntimeException(
                        "injected failure at "
                                + point
                                + " in subtask "
                                + subtask
                                + " attempt "
                                + attempt);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = RuntimeExecutionMode.class,
            names = {"STREAMING", "BATCH"})
    void everyRowExactlyOnceDespiteCrashes(RuntimeExecutionMode mode) throws Exception {
        boolean streaming = mode == RuntimeExecutionMode.STREAMING;
        long n = streaming ? 80_000 : 60_000;
        String name = "eo_" + mode.name().toLowerCase();
        Path dir = tmp.resolve(name);
        RandomFailures.reset(streaming ? 42 : 7, 8, 2);

        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 100);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(20));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(mode);
        env.setParallelism(2);
        if (streaming) {
            env.enableCheckpointing(100);
        }
        env.fromSequence(0, n - 1)
                .map(
                        i -> {
                            if (streaming && i % 50 == 0) {
                                Thread.sleep(1);
                            }
                            return EventRows.row(i);
                        })
                .returns(InternalTypeInfo.of(EventRows.ROW_TYPE))
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(EventRows.ROW_TYPE)
                                .setTablePath(dir.toString())
                                .setDdl(EventRows.ddl(name))
                                .setSetting("min_insert_block_size_rows", "3000")
                                .setFailureInjector(new RandomFailures())
                                .build());
        long t0 = System.nanoTime();
        env.execute(name);
        long ms = (System.nanoTime() - t0) / 1_000_000;

        ch.execute(EventRows.ddl("ours_" + name));
        ch.execute(EventRows.ddl("ref_" + name));
        ch.execute(
                "INSERT INTO ref_"
                        + name
                        + " "
                        + EventRows.INPUT_COLUMNS
                        + " "
                        + EventRows.chdbSelect(0, n));
        TableChecks.attachAll(ch, "ours_" + name, dir);
        ch.assertCheckTablePasses("ours_" + name);
        TableChecks.assertSameRows(
                ch, "ours_" + name, "ref_" + name, List.of("id", "u", "note", "id2"));
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
        System.out.printf(
                "%s: %d rows exactly once in %d ms despite %d injected failures %s%n",
                mode, n, ms, RandomFailures.injected(), RandomFailures.INJECTED);
        assertThat(RandomFailures.injected()).as("failures injected").isGreaterThanOrEqualTo(3);
        assertThat(RandomFailures.INJECTED.keySet())
                .as("points that failed")
                .hasSizeGreaterThanOrEqualTo(2);
    }
}
