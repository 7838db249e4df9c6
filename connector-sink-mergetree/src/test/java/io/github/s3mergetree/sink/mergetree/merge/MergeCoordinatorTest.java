package io.github.s3mergetree.sink.mergetree.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.engine.testing.ManualClock;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.LocalTableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import io.github.s3mergetree.sink.mergetree.table.SinkTable;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.api.common.operators.ProcessingTimeService;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;

/**
 * The merge coordinator alone, with fake committable messages, a manual processing-time service and
 * a metric group that records (as {@code KafkaCommitterTest} tests its committer): a commit message
 * starts the merges, a timer tick removes the parts merged away once {@code old_parts_lifetime} is
 * over and schedules the next tick, and the end of a bounded input lets the merges settle in {@code
 * close()} and removes the parts they made outdated.
 */
class MergeCoordinatorTest {
    static final String DDL =
            "CREATE TABLE t (id Int64, p UInt8) ENGINE = MergeTree PARTITION BY p ORDER BY id"
                    + " SETTINGS old_parts_lifetime = 0";

    /** The table of {@link #aTickRemovesThePartsMergedAwayOnceTheirLifetimeIsOver}. */
    static final String DDL_LIFETIME_30 =
            DDL.replace("old_parts_lifetime = 0", "old_parts_lifetime = 30");

    static final int INSERTS = 6;
    static final int ROWS_PER_INSERT = 100;

    @TempDir Path dir;
    MergeTreeTable table;
    final ManualTimers timers = new ManualTimers();
    final Map<String, Object> metrics = new HashMap<>();
    final Configuration options = new Configuration();
    final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    String ddl;

    @BeforeEach
    void open(TestInfo test) throws IOException {
        ddl =
                test.getTestMethod().orElseThrow().getName().startsWith("aTickRemoves")
                        ? DDL_LIFETIME_30
                        : DDL;
        table =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(dir.toString()),
                        ResolvedTable.resolve(ddl, new Configuration()).layout(),
                        clock);
        options.set(MergeTreeSinkOptions.MERGE_SELECTING_SLEEP_MS, 1000L);
        options.set(MergeTreeSinkOptions.BACKGROUND_POOL_SIZE, 2);
    }

    /** Inserts rows {@code [from, from + n)} into both partitions: two parts. */
    private void insert(long from, int n) throws IOException {
        Block b = Block.empty(List.of("id", "p"), table.layout().columnTypes(), n);
        for (long i = from; i < from + n; i++) {
            ((LongColumn) b.column(0)).add(i);
            ((ByteColumn) b.column(1)).add((byte) (i % 2));
        }
        table.insert(b);
    }

    private void insertAll() throws IOException {
        for (int i = 0; i < INSERTS; i++) {
            insert((long) i * ROWS_PER_INSERT, ROWS_PER_INSERT);
        }
    }

    private SinkWriter<CommittableMessage<MergeTreeCommittable>> coordinator() throws IOException {
        return new MergeCoordinator(
                        new SinkTable(
                                TableDefinition.parse(ddl),
                                new LocalTableStorage(dir.toString()),
                                options,
                                null),
                        options,
                        clock)
                .createWriter(context());
    }

    private static CommittableMessage<MergeTreeCommittable> commit(long checkpoint) {
        return new CommittableWithLineage<>(
                new MergeTreeCommittable("t-0-" + checkpoint, List.of(), false), checkpoint, 0);
    }

    private long maxPartsInAPartition() throws IOException {
        return table.activePartsByPartition().values().stream()
                .mapToLong(List::size)
                .max()
                .orElse(0);
    }

    private long rows() throws IOException {
        return table.activeParts().stream().mapToLong(ActivePart::rows).sum();
    }

    private long counter(String name) {
        return ((Counter) metrics.get(name)).getCount();
    }

    private Object gauge(String name) {
        return ((Gauge<?>) metrics.get(name)).getValue();
    }

    private void awaitMergedToOnePartPerPartition() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (maxPartsInAPartition() > 1 || (Integer) gauge("mergesRunning") > 0) {
            assertThat(System.nanoTime()).as("merges done within 60 s").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void aCommitMessageStartsTheMerges() throws Exception {
        SinkWriter<CommittableMessage<MergeTreeCommittable>> c = coordinator();
        try {
            insertAll();
            Thread.sleep(300);
            // nothing but a commit (or a tick) looks at the table again
            assertThat(maxPartsInAPartition()).isEqualTo(INSERTS);
            assertThat((Long) gauge("mergesDone")).isZero();

            c.write(commit(1), null);
            assertThat(counter("commitsSeen")).isEqualTo(1);
            awaitMergedToOnePartPerPartition();
            assertThat(rows()).isEqualTo((long) INSERTS * ROWS_PER_INSERT);
            assertThat((Long) gauge("mergesDone")).isGreaterThanOrEqualTo(2);
            assertThat((Long) gauge("mergesFailed")).isZero();
        } finally {
            c.close();
        }
    }

    @Test
    void aTickRemovesThePartsMergedAwayOnceTheirLifetimeIsOver() throws Exception {
        SinkWriter<CommittableMessage<MergeTreeCommittable>> c = coordinator();
        try {
            assertThat(timers.pending()).as("the first tick is scheduled").isEqualTo(1);
            insertAll();
            c.write(commit(1), null);
            awaitMergedToOnePartPerPartition();
            assertThat(partDirectories()).hasSize(2 * INSERTS + 2);
            assertThat(counter("partsRemoved")).isZero();

            clock.advance(Duration.ofSeconds(29));
            timers.advance(1000);
            assertThat(counter("partsRemoved"))
                    .as("old_parts_lifetime = 30 s on the table's clock is not over after 29 s")
                    .isZero();
            assertThat(timers.pending()).as("the next tick is scheduled").isEqualTo(1);
            clock.advance(Duration.ofSeconds(1));
            timers.advance(1000);
            assertThat(counter("partsRemoved")).isEqualTo(2L * INSERTS);
            assertThat(partDirectories()).hasSize(2);
            assertThat(gauge("activeParts")).isEqualTo(2L);
            assertThat(gauge("maxPartsInPartition")).isEqualTo(1L);
            assertThat(timers.pending()).as("the next tick is scheduled").isEqualTo(1);
        } finally {
            c.close();
        }
        assertThat(timers.cancelled).as("close() cancels the pending tick").isEqualTo(1);
    }

    @Test
    void theEndOfABoundedInputSettlesTheMergesInClose() throws Exception {
        insertAll();
        SinkWriter<CommittableMessage<MergeTreeCommittable>> c = coordinator();
        c.flush(true);
        c.close();
        // close() returned only after the selector found nothing more to merge
        assertThat(gauge("mergesRunning")).isEqualTo(0);
        assertThat(maxPartsInAPartition()).isEqualTo(1);
        assertThat(rows()).isEqualTo((long) INSERTS * ROWS_PER_INSERT);
        // and the parts merged away (old_parts_lifetime = 0) are removed before close() returns,
        // without a tick
        assertThat(partDirectories()).hasSize(2);
        assertThat(counter("partsRemoved")).isEqualTo(2L * INSERTS);
    }

    @Test
    void leaveStartsNoMergeAfterTheEndOfInput() throws Exception {
        options.set(
                MergeTreeSinkOptions.MERGES_AT_END_OF_INPUT,
                MergeTreeSinkOptions.MergesAtEndOfInput.LEAVE);
        SinkWriter<CommittableMessage<MergeTreeCommittable>> c = coordinator();
        insertAll();
        c.flush(true);
        // the final checkpoint's commit, and a tick, after the end of input
        c.write(commit(1), null);
        timers.advance(1000);
        c.close();
        assertThat(counter("commitsSeen")).isEqualTo(1);
        assertThat((Long) gauge("mergesDone")).isZero();
        assertThat(maxPartsInAPartition()).isEqualTo(INSERTS);
        assertThat(partDirectories()).hasSize(2 * INSERTS);
        assertThat(rows()).isEqualTo((long) INSERTS * ROWS_PER_INSERT);
    }

    @Test
    void leaveStillMergesWhatTheCommitsBeforeTheEndOfInputBrought() throws Exception {
        options.set(
                MergeTreeSinkOptions.MERGES_AT_END_OF_INPUT,
                MergeTreeSinkOptions.MergesAtEndOfInput.LEAVE);
        SinkWriter<CommittableMessage<MergeTreeCommittable>> c = coordinator();
        try {
            insertAll();
            c.write(commit(1), null);
            awaitMergedToOnePartPerPartition();
            assertThat((Long) gauge("mergesDone")).isGreaterThanOrEqualTo(2);
            assertThat(rows()).isEqualTo((long) INSERTS * ROWS_PER_INSERT);
        } finally {
            c.flush(true);
            c.close();
        }
    }

    private List<Path> partDirectories() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().matches("\\d+_\\d+_\\d+_\\d+"))
                    .toList();
        }
    }

    /**
     * The writer context the coordinator uses: its metric group and processing-time service
     * (proxies, so that the test compiles against the interfaces of Flink 1.20 and 2.x alike).
     */
    private WriterInitContext context() {
        SinkWriterMetricGroup group =
                (SinkWriterMetricGroup)
                        Proxy.newProxyInstance(
                                getClass().getClassLoader(),
                                new Class<?>[] {SinkWriterMetricGroup.class},
                                (proxy, m, args) ->
                                        switch (m.getName()) {
                                            case "counter" -> {
                                                Object counter =
                                                        args.length > 1
                                                                ? args[1]
                                                                : new SimpleCounter();
                                                metrics.put((String) args[0], counter);
                                                yield counter;
                                            }
                                            case "gauge" -> {
                                                metrics.put((String) args[0], args[1]);
                                                yield args[1];
                                            }
                                            case "addGroup" -> proxy;
                                            case "toString" -> "metrics";
                                            case "hashCode" -> 1;
                                            case "equals" -> proxy == args[0];
                                            default ->
                                                    throw new UnsupportedOperationException(
                                                            m.getName());
                                        });
        return (WriterInitContext)
                Proxy.newProxyInstance(
                        getClass().getClassLoader(),
                        new Class<?>[] {WriterInitContext.class},
                        (proxy, m, args) ->
                                switch (m.getName()) {
                                    case "metricGroup" -> group;
                                    case "getProcessingTimeService" -> timers.service();
                                    case "toString" -> "context";
                                    case "hashCode" -> 2;
                                    case "equals" -> proxy == args[0];
                                    default -> throw new UnsupportedOperationException(m.getName());
                                });
    }

    /** Processing time that moves only when the test says so; due timers fire in order. */
    static final class ManualTimers {
        long now = 1_000_000L;
        int cancelled;
        final List<Timer> timers = new ArrayList<>();

        record Timer(long time, ProcessingTimeService.ProcessingTimeCallback callback) {}

        int pending() {
            return timers.size();
        }

        void advance(long millis) throws Exception {
            now += millis;
            while (true) {
                Timer due = timers.stream().filter(t -> t.time() <= now).findFirst().orElse(null);
                if (due == null) {
                    return;
                }
                timers.remove(due);
                due.callback().onProcessingTime(due.time());
            }
        }

        ProcessingTimeService service() {
            return (ProcessingTimeService)
                    Proxy.newProxyInstance(
                            ManualTimers.class.getClassLoader(),
                            new Class<?>[] {ProcessingTimeService.class},
                            (proxy, m, args) ->
                                    switch (m.getName()) {
                                        case "getCurrentProcessingTime" -> now;
                                        case "registerTimer" -> {
                                            Timer t =
                                                    new Timer(
                                                            (Long) args[0],
                                                            (ProcessingTimeService
                                                                            .ProcessingTimeCallback)
                                                                    args[1]);
                                            timers.add(t);
                                            yield new Future(t);
                                        }
                                        case "toString" -> "timers";
                                        case "hashCode" -> 3;
                                        case "equals" -> proxy == args[0];
                                        default ->
                                                throw new UnsupportedOperationException(
                                                        m.getName());
                                    });
        }

        /** The handle of a registered timer: cancelling removes it. */
        final class Future implements ScheduledFuture<Object> {
            final Timer timer;

            Future(Timer timer) {
                this.timer = timer;
            }

            @Override
            public boolean cancel(boolean mayInterrupt) {
                boolean removed = timers.remove(timer);
                if (removed) {
                    cancelled++;
                }
                return removed;
            }

            @Override
            public boolean isCancelled() {
                return !timers.contains(timer);
            }

            @Override
            public boolean isDone() {
                return !timers.contains(timer);
            }

            @Override
            public Object get() {
                return null;
            }

            @Override
            public Object get(long timeout, TimeUnit unit) {
                return null;
            }

            @Override
            public long getDelay(TimeUnit unit) {
                return unit.convert(timer.time() - now, TimeUnit.MILLISECONDS);
            }

            @Override
            public int compareTo(Delayed o) {
                return Long.compare(
                        getDelay(TimeUnit.MILLISECONDS), o.getDelay(TimeUnit.MILLISECONDS));
            }
        }
    }
}
