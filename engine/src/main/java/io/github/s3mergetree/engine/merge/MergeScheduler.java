package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.part.PartName;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs background merges of one table, like ClickHouse's background executor: whenever parts appear
 * (or on {@link #trigger()}), it asks the {@link MergeSelector} for a range of parts that are not
 * already being merged and runs the merge on the {@code background_pool_size} executor, until the
 * pool is full or nothing is worth merging. It can be paused (running merges finish, no new ones
 * start) and closed (running merges are cancelled at their next block).
 *
 * <p>The executor and clock are injected: a test passes a direct executor and a fixed clock and
 * gets deterministic behaviour. Periodic re-triggering (so ageing parts eventually merge) is the
 * caller's choice of timer: call {@link #trigger()} every {@code merge_selecting_sleep_ms}.
 */
public final class MergeScheduler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MergeScheduler.class);

    /** A running merge, as a row of ClickHouse's {@code system.merges} shows it. */
    public record MergeInfo(
            String partitionId,
            List<PartName> sourceParts,
            PartName resultPart,
            Duration elapsed,
            long rowsRead,
            long rowsWritten,
            long bytesReadUncompressed) {}

    private final MergingTable table;
    private final MergeSelector selector;
    private final Executor pool;
    private final int poolSize;
    private final Clock clock;
    private final Map<List<PartName>, Running> running = new ConcurrentHashMap<>();
    private final AtomicLong mergesDone = new AtomicLong();
    private final AtomicLong mergesFailed = new AtomicLong();
    private final AtomicLong bytesMerged = new AtomicLong();
    private volatile boolean paused;
    private volatile boolean closed;
    private volatile Throwable lastFailure;

    private record Running(PartName target, Instant started, PartMerger.Progress progress) {}

    /**
     * @param poolSize {@code background_pool_size}: merges running at once
     */
    public MergeScheduler(
            MergingTable table, MergeSelector selector, Executor pool, int poolSize, Clock clock) {
        if (poolSize <= 0) {
            throw new IllegalArgumentException(
                    "background_pool_size must be positive, got " + poolSize);
        }
        this.table = table;
        this.selector = selector;
        this.pool = pool;
        this.poolSize = poolSize;
        this.clock = clock;
        table.onNewParts(parts -> trigger());
    }

    /** Looks for merges to start; cheap when nothing is to be done. */
    public synchronized void trigger() {
        if (paused || closed) {
            return;
        }
        try {
            while (running.size() < poolSize) {
                Set<PartName> busy = new HashSet<>();
                for (List<PartName> parts : running.keySet()) {
                    busy.addAll(parts);
                }
                // TTL merges first, as ClickHouse's selectPartsToMerge tries them first
                List<PartName> sources = table.ttlMerge(busy);
                if (sources.isEmpty()) {
                    List<MergeCandidate> chosen =
                            selector.select(table.mergeCandidates(busy), table.maxBytesToMerge());
                    if (chosen.isEmpty()) {
                        return;
                    }
                    sources = chosen.stream().map(MergeCandidate::name).toList();
                }
                start(sources);
            }
        } catch (IOException | RuntimeException e) {
            lastFailure = e;
            LOG.warn("Selecting parts to merge failed", e);
        }
    }

    private void start(List<PartName> sources) {
        PartName first = sources.get(0);
        PartName last = sources.get(sources.size() - 1);
        int level = sources.stream().mapToInt(PartName::level).max().orElse(0) + 1;
        PartName target =
                new PartName(first.partitionId(), first.minBlock(), last.maxBlock(), level, 0);
        Running r = new Running(target, clock.instant(), new PartMerger.Progress());
        running.put(sources, r);
        pool.execute(() -> runMerge(sources, r));
    }

    private void runMerge(List<PartName> sources, Running r) {
        boolean done = false;
        try {
            if (closed) {
                return;
            }
            PartName result = table.merge(sources, r.progress());
            if (result != null) {
                mergesDone.incrementAndGet();
                bytesMerged.addAndGet(r.progress().bytesReadUncompressed());
            }
            // also when nothing was published: the parts changed (another merge, or a broken
            // source was detached), so the selector sees a new range of parts
            done = true;
        } catch (PartMerger.MergeCancelledException e) {
            LOG.info("Merge into {} cancelled", r.target());
        } catch (IOException | RuntimeException e) {
            mergesFailed.incrementAndGet();
            lastFailure = e;
            LOG.warn("Merge into {} failed", r.target(), e);
        } finally {
            running.remove(sources);
        }
        if (done) {
            trigger();
        }
    }

    /** Stops starting merges; running ones finish. */
    public void pause() {
        paused = true;
    }

    public void resume() {
        paused = false;
        trigger();
    }

    /** The merges running now. */
    public List<MergeInfo> runningMerges() {
        List<MergeInfo> out = new ArrayList<>();
        Instant now = clock.instant();
        for (var e : running.entrySet()) {
            Running r = e.getValue();
            out.add(
                    new MergeInfo(
                            r.target().partitionId(),
                            e.getKey(),
                            r.target(),
                            Duration.between(r.started(), now),
                            r.progress().rowsRead(),
                            r.progress().rowsWritten(),
                            r.progress().bytesReadUncompressed()));
        }
        return out;
    }

    public long mergesDone() {
        return mergesDone.get();
    }

    public long mergesFailed() {
        return mergesFailed.get();
    }

    /** Uncompressed bytes read by finished merges. */
    public long bytesMerged() {
        return bytesMerged.get();
    }

    public Throwable lastFailure() {
        return lastFailure;
    }

    /** Whether merges are running. */
    public boolean busy() {
        return !running.isEmpty();
    }

    /** Stops starting merges and cancels the running ones at their next block. */
    @Override
    public void close() {
        closed = true;
        for (Running r : running.values()) {
            r.progress().cancel();
        }
    }
}
