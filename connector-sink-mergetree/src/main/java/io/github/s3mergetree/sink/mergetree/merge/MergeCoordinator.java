package io.github.s3mergetree.sink.mergetree.merge;

import io.github.s3mergetree.connector.compat.CompatSink;
import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.metrics.MergeMetrics;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import io.github.s3mergetree.sink.mergetree.table.SinkTable;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table's merge coordinator: a parallelism-1 sink after the committer (the sink's post-commit
 * topology), so one sink has exactly one, whatever its parallelism. It runs the engine's {@link
 * MergeScheduler} ({@code background_pool_size} merges at once, chosen by ClickHouse's
 * SimpleMergeSelector) whenever a commit publishes parts and every {@code
 * merge_selecting_sleep_ms}, removes outdated parts after {@code old_parts_lifetime}, and at the
 * end of a bounded input lets the merges settle, or leaves them ({@code merges_at_end_of_input}).
 *
 * <p>Even a second coordinator on the same table (another job) cannot corrupt it: the engine
 * publishes a merge only if its sources are still exactly the active parts of its range.
 */
@Internal
public final class MergeCoordinator
        implements CompatSink<CommittableMessage<MergeTreeCommittable>> {
    private static final long serialVersionUID = 1L;

    private final SinkTable table;
    private final Configuration options;
    private final Clock clock;

    /** A coordinator of the sink's {@code table}, on the system clock. */
    public MergeCoordinator(SinkTable table, Configuration options) {
        this(table, options, Clock.systemUTC());
    }

    /**
     * A coordinator whose merge ages and part lifetimes ({@code old_parts_lifetime}) are measured
     * on {@code clock} (serializable, as the coordinator is; tests pass one they advance).
     */
    MergeCoordinator(SinkTable table, Configuration options, Clock clock) {
        this.table = table;
        this.options = options;
        this.clock = clock;
    }

    @Override
    public SinkWriter<CommittableMessage<MergeTreeCommittable>> createWriter(
            WriterInitContext context) throws IOException {
        return new Writer(context, table.resolve(), table.storage(), options, clock);
    }

    /**
     * Failed merges after which the merges stop settling at the end of a bounded input (and the job
     * ends with its parts committed but not all merged).
     */
    public static final int SETTLE_MAX_FAILURES = 5;

    private static final class Writer
            implements SinkWriter<CommittableMessage<MergeTreeCommittable>> {
        private static final Logger LOG = LoggerFactory.getLogger(MergeCoordinator.class);

        private final MergeTreeTable table;
        private final MergeScheduler scheduler;
        private final ExecutorService pool;
        private final MergeMetrics metrics;
        private final WriterInitContext context;
        private final long tickMillis;
        private final boolean settleAtEnd;
        private ScheduledFuture<?> timer;
        private boolean endOfInput;
        private boolean settledSinceLastCommit;
        private boolean closed;

        Writer(
                WriterInitContext context,
                ResolvedTable resolved,
                TableStorage storage,
                Configuration options,
                Clock clock)
                throws IOException {
            this.context = context;
            this.table = storage.open(resolved.layout(), clock);
            int poolSize = Math.max(1, options.get(MergeTreeSinkOptions.BACKGROUND_POOL_SIZE));
            AtomicInteger n = new AtomicInteger();
            this.pool =
                    Executors.newFixedThreadPool(
                            poolSize,
                            r -> {
                                Thread t = new Thread(r, "mergetree-merge-" + n.incrementAndGet());
                                t.setDaemon(true);
                                return t;
                            });
            this.scheduler =
                    new MergeScheduler(table, table.mergeSelector(), pool, poolSize, clock);
            this.metrics =
                    new MergeMetrics(
                            context.metricGroup(),
                            storage.describe(),
                            scheduler,
                            table::partsDetachedBroken);
            List<PartName> broken = table.detachBrokenParts();
            if (!broken.isEmpty()) {
                LOG.warn("Detached broken parts of {}: {}", storage.describe(), broken);
            }
            this.tickMillis =
                    Math.max(10, options.get(MergeTreeSinkOptions.MERGE_SELECTING_SLEEP_MS));
            this.settleAtEnd =
                    options.get(MergeTreeSinkOptions.MERGES_AT_END_OF_INPUT)
                            == MergeTreeSinkOptions.MergesAtEndOfInput.SETTLE;
            refreshPartCounts();
            scheduler.trigger();
            scheduleTick();
            LOG.info(
                    "Merge coordinator of {} started ({} merge threads)",
                    storage.describe(),
                    poolSize);
        }

        private void scheduleTick() {
            long now = context.getProcessingTimeService().getCurrentProcessingTime();
            timer = context.getProcessingTimeService().registerTimer(now + tickMillis, t -> tick());
        }

        private void tick() throws IOException {
            if (closed) {
                return;
            }
            if (!leaving()) {
                scheduler.trigger();
            }
            removeOutdatedParts();
            refreshPartCounts();
            scheduleTick();
        }

        /** Removes the outdated parts whose old_parts_lifetime is over, counting them. */
        private void removeOutdatedParts() throws IOException {
            metrics.partsRemoved.inc(table.cleanup().size());
        }

        private void refreshPartCounts() throws IOException {
            Map<String, List<ActivePart>> byPartition = table.activePartsByPartition();
            long total = 0;
            long max = 0;
            for (List<ActivePart> parts : byPartition.values()) {
                total += parts.size();
                max = Math.max(max, parts.size());
            }
            metrics.parts(total, max);
        }

        @Override
        public void write(CommittableMessage<MergeTreeCommittable> message, Context ctx)
                throws IOException, InterruptedException {
            if (message instanceof CommittableWithLineage<MergeTreeCommittable>) {
                metrics.commitsSeen.inc();
                settledSinceLastCommit = false;
                if (leaving()) {
                    return;
                }
                scheduler.trigger();
                if (endOfInput) {
                    // commits that arrive after the end of input (the final checkpoint's)
                    settle();
                }
            }
        }

        /**
         * At the end of input the merges are not waited for here: with checkpointing, the final
         * checkpoint, whose commit makes the last inserted parts visible, completes only after
         * every operator has returned from this, so waiting here held the last rows back for as
         * long as the merges ran (seen: 8-14 s at 9.6M rows). They settle when that commit arrives
         * ({@link #write}) or, when none does (no checkpointing, batch mode), in {@link #close}.
         */
        @Override
        public void flush(boolean endOfInput) {
            if (endOfInput && !this.endOfInput) {
                this.endOfInput = true;
                if (!leaving()) {
                    scheduler.trigger();
                }
            }
        }

        /** The input ended and merges_at_end_of_input = leave: no merge starts any more. */
        private boolean leaving() {
            return endOfInput && !settleAtEnd;
        }

        /**
         * Lets the merges run until the selector picks nothing more; then OPTIMIZE FINAL if asked.
         * Gives up after {@link #SETTLE_MAX_FAILURES} failed merges (the selector picks a failing
         * merge again at once, so waiting for "nothing more to merge" would never end a bounded
         * job): the committed parts stay as they are, correct, and the next run merges them.
         */
        private void settle() throws IOException, InterruptedException {
            long t0 = System.nanoTime();
            long failedBefore = scheduler.mergesFailed();
            boolean gaveUp = false;
            while (true) {
                scheduler.trigger();
                if (!scheduler.busy()) {
                    break;
                }
                while (scheduler.busy()) {
                    Thread.sleep(10);
                }
                if (scheduler.mergesFailed() - failedBefore >= SETTLE_MAX_FAILURES) {
                    gaveUp = true;
                    break;
                }
            }
            refreshPartCounts();
            settledSinceLastCommit = true;
            if (gaveUp) {
                LOG.warn(
                        "Merges of {} stopped settling at the end of input after {} failed merges"
                                + " in {} ms ({} done); the parts stay unmerged until the next"
                                + " run. Last failure:",
                        table.store().location(),
                        scheduler.mergesFailed() - failedBefore,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
                        scheduler.mergesDone(),
                        scheduler.lastFailure());
                return;
            }
            LOG.info(
                    "Merges settled at the end of input in {} ms: {} merges done",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0),
                    scheduler.mergesDone());
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            if (timer != null) {
                timer.cancel(false);
            }
            if (endOfInput && settleAtEnd && !settledSinceLastCommit) {
                try {
                    settle();
                } catch (InterruptedException e) {
                    // cancelled while the merges settled: leave them to the next run's coordinator
                    Thread.currentThread().interrupt();
                }
            }
            if (leaving()) {
                LOG.info(
                        "Merges of {} left at the end of input (merges_at_end_of_input = leave):"
                                + " {} merges done, {} running cancelled",
                        table.store().location(),
                        scheduler.mergesDone(),
                        scheduler.runningMerges().size());
            }
            if (endOfInput && !Thread.currentThread().isInterrupted()) {
                // the parts the last merges (and OPTIMIZE FINAL) made outdated go now if their
                // old_parts_lifetime is over, not only at a tick that may not come before the end
                try {
                    removeOutdatedParts();
                } catch (IOException e) {
                    LOG.warn(
                            "Removing outdated parts of {} at the end of input failed; the next"
                                    + " run removes them",
                            table.store().location(),
                            e);
                }
            }
            scheduler.close();
            pool.shutdown();
            if (!pool.awaitTermination(30, TimeUnit.SECONDS)) {
                pool.shutdownNow();
            }
            table.close();
            table.store().close();
        }
    }
}
