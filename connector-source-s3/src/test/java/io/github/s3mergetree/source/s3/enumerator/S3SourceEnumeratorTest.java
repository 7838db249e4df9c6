package io.github.s3mergetree.source.s3.enumerator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.objects.GlobPattern;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class S3SourceEnumeratorTest {
    @TempDir Path dir;

    /** A context that runs async calls when told to and records assignments. */
    static final class TestContext implements SplitEnumeratorContext<S3ObjectSplit> {
        final Map<Integer, List<S3ObjectSplit>> assigned = new HashMap<>();
        final Set<Integer> noMoreSplits = new HashSet<>();
        final List<Runnable> asyncCalls = new ArrayList<>();
        final int parallelism;

        TestContext(int parallelism) {
            this.parallelism = parallelism;
        }

        void runAsyncCalls() {
            for (Runnable r : new ArrayList<>(asyncCalls)) {
                r.run();
            }
        }

        @Override
        public SplitEnumeratorMetricGroup metricGroup() {
            return UnregisteredMetricsGroup.createSplitEnumeratorMetricGroup();
        }

        final List<Map.Entry<Integer, SourceEvent>> sent = new ArrayList<>();

        @Override
        public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
            sent.add(Map.entry(subtaskId, event));
        }

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Map<Integer, ReaderInfo> registeredReaders() {
            Map<Integer, ReaderInfo> m = new HashMap<>();
            for (int i = 0; i < parallelism; i++) {
                m.put(i, new ReaderInfo(i, "localhost"));
            }
            return m;
        }

        @Override
        public void assignSplits(SplitsAssignment<S3ObjectSplit> newSplitAssignments) {
            newSplitAssignments
                    .assignment()
                    .forEach(
                            (r, s) ->
                                    assigned.computeIfAbsent(r, k -> new ArrayList<>()).addAll(s));
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            noMoreSplits.add(subtask);
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            asyncCalls.add(() -> run(callable, handler));
        }

        @Override
        public <T> void callAsync(
                Callable<T> callable,
                BiConsumer<T, Throwable> handler,
                long initialDelay,
                long period) {
            asyncCalls.add(() -> run(callable, handler));
        }

        private static <T> void run(Callable<T> callable, BiConsumer<T, Throwable> handler) {
            try {
                handler.accept(callable.call(), null);
            } catch (Exception e) {
                handler.accept(null, e);
            }
        }

        @Override
        public void runInCoordinatorThread(Runnable runnable) {
            runnable.run();
        }
    }

    S3SourceEnumerator enumerator(
            TestContext ctx, Configuration conf, Duration interval, S3EnumeratorState state) {
        return new S3SourceEnumerator(
                ctx,
                ObjectStoreConfig.localDirectory(dir.toString()),
                GlobPattern.compile("in/*.parquet"),
                conf,
                new SplitPlanner(new ParquetBlockFormat(TargetSchema.parse("id Int64")), 0),
                interval,
                state,
                () -> 1000L);
    }

    void files(int from, int to) throws Exception {
        Files.createDirectories(dir.resolve("in"));
        for (int i = from; i < to; i++) {
            Files.write(dir.resolve(String.format("in/f%03d.parquet", i)), new byte[] {1});
        }
    }

    @Test
    void boundedAssignsOnRequestThenSignalsNoMoreSplits() throws Exception {
        files(0, 10);
        TestContext ctx = new TestContext(2);
        try (S3SourceEnumerator e =
                enumerator(ctx, new Configuration(), null, S3EnumeratorState.initial())) {
            e.start();
            e.handleSplitRequest(0, "h"); // before the listing finished: waits
            assertThat(ctx.assigned).isEmpty();
            ctx.runAsyncCalls();
            assertThat(ctx.assigned.get(0)).hasSize(1);
            S3EnumeratorState mid = e.snapshotState(1);
            assertThat(mid.initialListingDone()).isTrue();
            assertThat(mid.pendingSplits()).hasSize(9);
            for (int i = 0; i < 20; i++) {
                e.handleSplitRequest(i % 2, "h");
            }
            assertThat(ctx.assigned.get(0).size() + ctx.assigned.get(1).size()).isEqualTo(10);
            assertThat(ctx.noMoreSplits).containsExactlyInAnyOrder(0, 1);
            // a failed reader's splits come back and are handed out again
            S3ObjectSplit back = ctx.assigned.get(1).get(0);
            e.addSplitsBack(List.of(back), 1);
            assertThat(e.snapshotState(2).pendingSplits()).containsExactly(back);
        }
    }

    @Test
    void restoredEnumeratorKeepsPendingSplitsAndDoesNotListAgain() throws Exception {
        files(0, 3);
        TestContext ctx = new TestContext(1);
        S3EnumeratorState state =
                new S3EnumeratorState(
                        List.of(S3ObjectSplit.of("in/f001.parquet", "e", 1, 0, 1)),
                        true,
                        null,
                        Map.of(),
                        Map.of());
        try (S3SourceEnumerator e = enumerator(ctx, new Configuration(), null, state)) {
            e.start();
            assertThat(ctx.asyncCalls).isEmpty();
            e.handleSplitRequest(0, "h");
            e.handleSplitRequest(0, "h");
            assertThat(ctx.assigned.get(0)).containsExactly(state.pendingSplits().get(0));
            assertThat(ctx.noMoreSplits).containsExactly(0);
        }
    }

    @Test
    void continuousUnorderedStateStaysBounded() throws Exception {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.S3QUEUE_MODE, DiscoveryMode.UNORDERED);
        conf.set(S3SourceOptions.S3QUEUE_TRACKED_FILES_LIMIT, 25);
        TestContext ctx = new TestContext(1);
        try (S3SourceEnumerator e =
                enumerator(ctx, conf, Duration.ofSeconds(1), S3EnumeratorState.initial())) {
            e.start();
            files(0, 20);
            ctx.runAsyncCalls();
            assertThat(e.snapshotState(1).pendingSplits()).hasSize(20);
            ctx.runAsyncCalls(); // nothing new
            assertThat(e.snapshotState(2).pendingSplits()).hasSize(20);
            files(20, 30);
            ctx.runAsyncCalls();
            S3EnumeratorState s = e.snapshotState(3);
            assertThat(s.pendingSplits()).hasSize(30);
            assertThat(s.trackedKeys()).hasSize(25);
            assertThat(ctx.noMoreSplits).isEmpty();
        }
    }

    @Test
    void continuousOrderedKeepsOneKey() throws Exception {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.S3QUEUE_MODE, DiscoveryMode.ORDERED);
        TestContext ctx = new TestContext(1);
        try (S3SourceEnumerator e =
                enumerator(ctx, conf, Duration.ofSeconds(1), S3EnumeratorState.initial())) {
            e.start();
            files(0, 40);
            ctx.runAsyncCalls();
            ctx.runAsyncCalls();
            S3EnumeratorState s = e.snapshotState(1);
            assertThat(s.pendingSplits()).hasSize(40);
            assertThat(s.lastKey()).isEqualTo("in/f039.parquet");
            assertThat(s.trackedKeys()).isEmpty();
        }
    }

    /**
     * Parked splits reported by readers are recorded once (a reader re-reports them after every
     * restore), written to the report with their position, rows read and error, and rewritten when
     * one changes; the report is read back as the failed splits.
     */
    @Test
    void parkedSplitsAreReportedOnce() throws Exception {
        files(0, 3);
        Configuration conf = new Configuration();
        Path report = dir.resolve("report/failed.json");
        conf.set(S3SourceOptions.FAILED_OBJECTS_REPORT, report.toString());
        TestContext ctx = new TestContext(2);
        S3ObjectSplit bad =
                new S3ObjectSplit("in/f001.parquet", "e1", 100, 0, 100, 2, 5, 700, null)
                        .withFailure("s3://x/in/f001.parquet: corrupt page");
        try (S3SourceEnumerator e = enumerator(ctx, conf, null, S3EnumeratorState.initial())) {
            e.start();
            ctx.runAsyncCalls();
            assertThat(report).doesNotExist();
            e.handleSourceEvent(0, new SplitFailedEvent(bad, bad.failure().orElseThrow()));
            e.handleSourceEvent(1, new SplitFailedEvent(bad, bad.failure().orElseThrow()));
            assertThat(e.failedSplits()).containsOnlyKeys(bad.splitId());
            assertThat(FailedObjectsReport.read(report.toString())).containsExactly(bad);
            // each reader's event is acknowledged, after the report was written
            assertThat(ctx.sent)
                    .containsExactly(
                            Map.entry(0, new SplitFailedAck(bad.splitId())),
                            Map.entry(1, new SplitFailedAck(bad.splitId())));
            assertThat(Files.readString(report))
                    .contains("\"rows_read\" : 700")
                    .contains("\"error\" : \"s3://x/in/f001.parquet: corrupt page\"");
            assertThat(e.snapshotState(1).parkedObjects()).containsOnlyKeys("in/f001.parquet");
        }
        assertThat(FailedObjectsReport.read(dir.resolve("none.json").toString())).isEmpty();
    }

    /**
     * A report that cannot be written fails the job (the coordinator fails it on the exception) and
     * the split is not acknowledged, so the reader does not end its input: a bounded run never ends
     * as if it had read everything.
     */
    @Test
    void aReportThatCannotBeWrittenFailsInsteadOfAcknowledging() throws Exception {
        files(0, 1);
        Path notADirectory = Files.writeString(dir.resolve("not-a-directory"), "x");
        Configuration conf = new Configuration();
        conf.set(
                S3SourceOptions.FAILED_OBJECTS_REPORT,
                notADirectory.resolve("failed.json").toString());
        TestContext ctx = new TestContext(1);
        S3ObjectSplit bad =
                new S3ObjectSplit("in/f000.parquet", "e1", 100, 0, 100, 2, 5, 0, null)
                        .withFailure("s3://x/in/f000.parquet: corrupt page");
        try (S3SourceEnumerator e = enumerator(ctx, conf, null, S3EnumeratorState.initial())) {
            e.start();
            ctx.runAsyncCalls();
            assertThatThrownBy(
                            () ->
                                    e.handleSourceEvent(
                                            0,
                                            new SplitFailedEvent(bad, bad.failure().orElseThrow())))
                    .isInstanceOf(java.io.UncheckedIOException.class)
                    .hasMessageContaining(
                            "could not write the failed objects report "
                                    + notADirectory.resolve("failed.json"))
                    .hasMessageContaining("after parking in/f000.parquet");
            assertThat(ctx.sent).isEmpty();
        }
    }

    /** With explicit splits the enumerator hands out exactly those and never lists. */
    @Test
    void explicitSplitsAreReadWithoutListing() throws Exception {
        files(0, 5);
        TestContext ctx = new TestContext(1);
        S3ObjectSplit resume = new S3ObjectSplit("in/f003.parquet", "e", 1, 0, 1, -1, 0, 40, null);
        try (S3SourceEnumerator e =
                enumerator(
                        ctx,
                        new Configuration(),
                        null,
                        new S3EnumeratorState(List.of(resume), true, null, Map.of(), Map.of()))) {
            e.start();
            assertThat(ctx.asyncCalls).isEmpty();
            e.handleSplitRequest(0, "h");
            e.handleSplitRequest(0, "h");
            assertThat(ctx.assigned.get(0)).containsExactly(resume);
            assertThat(ctx.noMoreSplits).containsExactly(0);
        }
    }
}
