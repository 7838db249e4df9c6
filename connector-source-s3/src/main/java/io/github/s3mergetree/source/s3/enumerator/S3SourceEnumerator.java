package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.GlobPattern;
import io.github.s3mergetree.source.s3.objects.ObjectLister;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import javax.annotation.Nullable;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists the pattern (once when bounded, every {@code discovery-interval} when continuous), turns
 * new objects into splits and hands them out to readers that ask for them (pull-based: fast readers
 * take more). While many splits are pending a request gets a few (at most {@link #MAX_BATCH}, at
 * most a quarter of the pending splits per reader) to save round trips; towards the end one at a
 * time.
 *
 * <p>Listing runs on Flink's enumerator worker thread; all state changes run in the coordinator
 * thread. In bounded mode no split is assigned before the listing completed, so a restored
 * enumerator whose listing had not completed simply lists again. A source given explicit splits
 * ({@code S3SourceBuilder#setSplits}) starts with them pending and never lists.
 *
 * <p>Parked (failed) splits are owned by the readers, whose checkpoints hold them; the enumerator
 * learns of them by {@link SplitFailedEvent}s, counts each once (metric {@code parkedObjects}) and
 * rewrites {@code s3.failed-objects.report} ({@link FailedObjectsReport}) when one arrives and when
 * it closes.
 */
@org.apache.flink.annotation.Internal
public final class S3SourceEnumerator implements SplitEnumerator<S3ObjectSplit, S3EnumeratorState> {
    private static final Logger LOG = LoggerFactory.getLogger(S3SourceEnumerator.class);

    /** Most splits handed to a reader per request. */
    static final int MAX_BATCH = 8;

    private final SplitEnumeratorContext<S3ObjectSplit> context;
    private final ObjectStoreConfig storeConfig;
    private final GlobPattern pattern;
    private final ReadableConfig options;
    private final SplitPlanner planner;
    @Nullable private final Duration discoveryInterval;
    private final LongSupplier clock;
    private final DiscoveryState discovery;
    private final ArrayDeque<S3ObjectSplit> pending = new ArrayDeque<>();
    private final Set<Integer> waitingReaders = new LinkedHashSet<>();
    private final Map<String, String> parked = new LinkedHashMap<>();
    private final Map<String, S3ObjectSplit> failedSplits = new LinkedHashMap<>();
    @Nullable private final String reportPath;
    private boolean reportWritten;
    private final S3SourceMetrics metrics;
    private boolean initialListingDone;
    private ObjectStoreClient client;
    private ObjectLister lister;

    public S3SourceEnumerator(
            SplitEnumeratorContext<S3ObjectSplit> context,
            ObjectStoreConfig storeConfig,
            GlobPattern pattern,
            ReadableConfig options,
            SplitPlanner planner,
            @Nullable Duration discoveryInterval,
            S3EnumeratorState state,
            LongSupplier clock) {
        this.context = context;
        this.storeConfig = storeConfig;
        this.pattern = pattern;
        this.options = options;
        this.planner = planner;
        this.discoveryInterval = discoveryInterval;
        this.clock = clock;
        this.discovery =
                new DiscoveryState(
                        options.get(S3SourceOptions.S3QUEUE_MODE),
                        options.get(S3SourceOptions.S3QUEUE_TRACKED_FILES_LIMIT),
                        options.get(S3SourceOptions.S3QUEUE_TRACKED_FILE_TTL_SEC) * 1000);
        this.discovery.restore(state.lastKey(), state.trackedKeys());
        this.pending.addAll(state.pendingSplits());
        this.parked.putAll(state.parkedObjects());
        this.initialListingDone = state.initialListingDone();
        this.startAfterSnapshot = discovery.startAfter();
        this.metrics = new S3SourceMetrics(context.metricGroup());
        this.reportPath = options.getOptional(S3SourceOptions.FAILED_OBJECTS_REPORT).orElse(null);
        context.metricGroup().setUnassignedSplitsGauge(() -> (long) pending.size());
    }

    @Override
    public void start() {
        client = storeConfig.createClient();
        lister =
                new ObjectLister(
                        client,
                        new RetryPolicy(
                                options.get(S3SourceOptions.S3_RETRY_ATTEMPTS),
                                options.get(S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS),
                                options.get(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS)),
                        RetryPolicy.Sleeper.SYSTEM,
                        metrics,
                        options.get(S3SourceOptions.S3_LIST_OBJECT_KEYS_SIZE),
                        options.get(S3SourceOptions.LIST_THREADS));
        if (discoveryInterval == null) {
            if (!initialListingDone) {
                context.callAsync(this::listNew, this::onListed);
            }
        } else {
            context.callAsync(this::listNew, this::onListed, 0, discoveryInterval.toMillis());
        }
    }

    /** Runs on the worker thread. */
    private List<ObjectSummary> listNew() throws IOException {
        return lister.list(pattern, discoveryStartAfter());
    }

    private volatile String startAfterSnapshot;

    private String discoveryStartAfter() {
        return startAfterSnapshot;
    }

    /** Runs on the coordinator thread. */
    private void onListed(List<ObjectSummary> objects, Throwable error) {
        if (error != null) {
            if (discoveryInterval == null) {
                throw new RuntimeException(
                        "listing " + storeConfig + " pattern '" + pattern + "' failed", error);
            }
            LOG.warn("Listing pattern '{}' failed; retrying at the next discovery", pattern, error);
            return;
        }
        long now = clock.getAsLong();
        discovery.expire(now);
        int added = 0;
        for (ObjectSummary o : objects) {
            if (discoveryInterval != null && (!discovery.isNew(o) || parked.containsKey(o.key()))) {
                continue;
            }
            discovery.markDiscovered(o, now);
            List<S3ObjectSplit> splits = planner.plan(o);
            pending.addAll(splits);
            added += splits.size();
        }
        startAfterSnapshot = discovery.startAfter();
        if (discoveryInterval == null) {
            initialListingDone = true;
            if (objects.isEmpty()) {
                LOG.warn(
                        "No object matches '{}' in {}: the source finishes with no rows",
                        pattern,
                        storeConfig);
            }
            LOG.info(
                    "Listed {} objects matching '{}' into {} splits",
                    objects.size(),
                    pattern,
                    added);
        } else if (added > 0) {
            LOG.info("Discovered {} new splits matching '{}'", added, pattern);
        }
        assignPending();
    }

    private void assignPending() {
        Iterator<Integer> it = waitingReaders.iterator();
        while (it.hasNext()) {
            int reader = it.next();
            if (!context.registeredReaders().containsKey(reader)) {
                it.remove();
                continue;
            }
            S3ObjectSplit split = pending.poll();
            if (split != null) {
                // Many pending splits: hand out a few at once to save round trips; few: one at a
                // time, so that fast readers take more (pull-based).
                int batch =
                        Math.min(
                                MAX_BATCH,
                                Math.max(
                                        1,
                                        pending.size()
                                                / (4 * Math.max(1, context.currentParallelism()))));
                List<S3ObjectSplit> assigned = new ArrayList<>(batch);
                assigned.add(split);
                while (assigned.size() < batch && !pending.isEmpty()) {
                    assigned.add(pending.poll());
                }
                context.assignSplits(
                        new org.apache.flink.api.connector.source.SplitsAssignment<>(
                                Map.of(reader, assigned)));
                it.remove();
            } else if (discoveryInterval == null && initialListingDone) {
                context.signalNoMoreSplits(reader);
                it.remove();
            } else {
                break;
            }
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, @Nullable String requesterHostname) {
        waitingReaders.add(subtaskId);
        assignPending();
    }

    @Override
    public void addSplitsBack(List<S3ObjectSplit> splits, int subtaskId) {
        List<S3ObjectSplit> reversed = new ArrayList<>(splits);
        java.util.Collections.reverse(reversed);
        for (S3ObjectSplit s : reversed) {
            pending.addFirst(s);
        }
        assignPending();
    }

    @Override
    public void addReader(int subtaskId) {
        // readers ask for splits themselves
    }

    /**
     * A reader parked a failed split (when it failed, or again after a restore): recorded, counted
     * once, excluded from later discoveries, written to the report and acknowledged to the reader
     * ({@link SplitFailedAck}). The readers retried it already; it is not read again.
     */
    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof SplitFailedEvent f) {
            S3ObjectSplit split = f.split();
            S3ObjectSplit before;
            synchronized (this) {
                before = failedSplits.put(split.splitId(), split);
            }
            parked.put(split.key(), f.reason());
            if (before == null) {
                LOG.error(
                        "Parked {} after {} rows: it is not read again: {}",
                        split,
                        split.rowsRead(),
                        f.reason());
                metrics.parked();
            }
            if (!split.equals(before)) {
                try {
                    writeReport();
                } catch (IOException e) {
                    // not acknowledged: the job fails (the coordinator fails it on this exception)
                    // and the restarted readers report their parked splits again
                    throw new UncheckedIOException(
                            "could not write the failed objects report "
                                    + reportPath
                                    + " after parking "
                                    + split.key()
                                    + "; the job fails rather than finish without reporting it",
                            e);
                }
            }
            // after the report: the reader ends its input only when its parked splits are in it
            context.sendEventToSourceReader(subtaskId, new SplitFailedAck(split.splitId()));
        }
    }

    /** The parked splits reported so far, by split id (tests). */
    Map<String, S3ObjectSplit> failedSplits() {
        return java.util.Collections.unmodifiableMap(failedSplits);
    }

    /**
     * Synchronized: {@link #close()} may run on another thread than the coordinator's event loop
     * that handles the last parked split; two writes at once once lost the report (a rename of the
     * shared temporary file failed and the report was deleted), so the run ended as if nothing had
     * failed.
     */
    private synchronized void writeReport() throws IOException {
        if (reportPath == null) {
            return;
        }
        try {
            FailedObjectsReport.write(
                    reportPath,
                    failedSplits.values(),
                    key -> client == null ? key : client.describe(key));
            reportWritten = true;
        } catch (RuntimeException e) {
            throw new IOException(e);
        }
    }

    @Override
    public S3EnumeratorState snapshotState(long checkpointId) {
        return new S3EnumeratorState(
                new ArrayList<>(pending),
                initialListingDone,
                discovery.lastKey(),
                discovery.tracked(),
                parked);
    }

    /** The discovery state (tests). */
    DiscoveryState discoveryState() {
        return discovery;
    }

    @Override
    public void close() throws IOException {
        if (reportWritten || !failedSplits.isEmpty()) {
            try {
                writeReport();
            } catch (IOException e) {
                // every parked split was written when it was parked: this rewrite only refreshes it
                LOG.error("Could not rewrite the failed objects report {}", reportPath, e);
            }
        }
        if (lister != null) {
            lister.close();
        }
        if (client != null) {
            client.close();
        }
    }
}
