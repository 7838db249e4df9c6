package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.source.s3.enumerator.SplitFailedAck;
import io.github.s3mergetree.source.s3.enumerator.SplitFailedEvent;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.core.io.InputStatus;

/**
 * The source reader: one fetcher thread running an {@link S3SplitReader}, split state per split.
 * Pull-based: it asks the enumerator for splits at start (twice when prefetching, so the next split
 * downloads while the current one is parsed) and again whenever at most one unfinished split is
 * left.
 *
 * <p>Parked splits (failed, {@code s3.failed-objects = PARK}) stay in this reader's checkpointed
 * state, at the position and with the rows read when they failed, and are reported to the
 * enumerator ({@link SplitFailedEvent}) when they fail and again whenever the reader starts from a
 * checkpoint holding them. Why here and not only in the enumerator: the reader's state is aligned
 * with the records it emitted (the same checkpoint barrier), an event to the enumerator is not; a
 * failure recorded only by the enumerator could be lost, or kept for a split a restore rolled back.
 * So the enumerator's list of parked splits is always rebuilt from, and equal to, the readers'.
 *
 * @param <B> what the format decodes
 * @param <T> what the source emits
 */
@Internal
public final class S3SourceReader<B, T>
        extends SingleThreadMultiplexSourceReaderBase<
                PositionedRecord<B>, T, S3ObjectSplit, S3ObjectSplitState> {

    private final Map<String, String> failures;
    private final int prefetchDepth;

    /** Parked splits by split id (task thread only). */
    private final Map<String, S3ObjectSplit> parked = new LinkedHashMap<>();

    private final List<S3ObjectSplit> toReport = new ArrayList<>();

    /** Ids of parked splits the enumerator has not acknowledged yet (task thread only). */
    private final Set<String> unacknowledged = new HashSet<>();

    /**
     * While the input waits for acknowledgements: completed when the last one arrives (and reset by
     * the next poll).
     */
    @Nullable private CompletableFuture<Void> acknowledged;

    private boolean started;

    /**
     * @param expander how a decoded record becomes output records; null: as it is
     * @param failures split id → reason of splits whose read failed, filled by the split reader
     *     when failed objects are parked; null when failures are fatal
     */
    public S3SourceReader(
            Supplier<SplitReader<PositionedRecord<B>, S3ObjectSplit>> splitReaderSupplier,
            @Nullable RecordExpander<B, T> expander,
            Configuration config,
            SourceReaderContext context,
            Map<String, String> failures) {
        super(splitReaderSupplier, new S3RecordEmitter<>(expander), config, context);
        this.failures = failures;
        this.prefetchDepth =
                config.get(S3SourceOptions.PREFETCH)
                        ? config.get(S3SourceOptions.MAX_DOWNLOAD_THREADS)
                        : 0;
    }

    @Override
    public void start() {
        started = true;
        for (S3ObjectSplit s : toReport) {
            report(s);
        }
        toReport.clear();
        int initial = config.get(S3SourceOptions.PREFETCH) ? 2 : 1;
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            for (int i = 0; i < initial; i++) {
                context.sendSplitRequest();
            }
        }
    }

    /** Takes parked splits (restored from a checkpoint) aside; the others are read. */
    @Override
    public void addSplits(List<S3ObjectSplit> splits) {
        List<S3ObjectSplit> toRead = new ArrayList<>(splits.size());
        for (S3ObjectSplit s : splits) {
            if (s.isFailed()) {
                park(s);
            } else {
                toRead.add(s);
            }
        }
        if (!toRead.isEmpty() || splits.isEmpty()) {
            super.addSplits(toRead);
        }
    }

    private void park(S3ObjectSplit failed) {
        parked.put(failed.splitId(), failed);
        if (started) {
            report(failed);
        } else {
            toReport.add(failed);
        }
    }

    private void report(S3ObjectSplit failed) {
        unacknowledged.add(failed.splitId());
        context.sendSourceEventToCoordinator(
                new SplitFailedEvent(failed, failed.failure().orElse("")));
    }

    /**
     * As the base class, but the input does not end while a parked split is not acknowledged by the
     * enumerator ({@link SplitFailedAck}): a bounded job must not finish before the enumerator
     * recorded, and reported, every object it could not read.
     */
    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws Exception {
        if (acknowledged != null && acknowledged.isDone()) {
            acknowledged = null;
        }
        InputStatus status = super.pollNext(output);
        if (status != InputStatus.END_OF_INPUT || unacknowledged.isEmpty()) {
            return status;
        }
        if (acknowledged == null) {
            acknowledged = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return acknowledged != null ? acknowledged : super.isAvailable();
    }

    /** The enumerator's acknowledgements of parked splits ({@link SplitFailedAck}). */
    @Override
    public void handleSourceEvents(SourceEvent event) {
        if (event instanceof SplitFailedAck ack) {
            unacknowledged.remove(ack.splitId());
            if (unacknowledged.isEmpty() && acknowledged != null) {
                // stays the (done) availability until the next poll, which ends the input
                acknowledged.complete(null);
            }
        } else {
            super.handleSourceEvents(event);
        }
    }

    @Override
    public List<S3ObjectSplit> snapshotState(long checkpointId) {
        List<S3ObjectSplit> state = new ArrayList<>(super.snapshotState(checkpointId));
        state.addAll(parked.values());
        return state;
    }

    @Override
    protected void onSplitFinished(Map<String, S3ObjectSplitState> finishedSplitIds) {
        if (failures != null) {
            for (Map.Entry<String, S3ObjectSplitState> e : finishedSplitIds.entrySet()) {
                String reason = failures.remove(e.getKey());
                if (reason != null) {
                    // every record fetched before the failure has been emitted: it is parked
                    // after them, with the rows they carried
                    park(e.getValue().toSplit().withFailure(reason));
                }
            }
        }
        // Ask for more while few splits are left, so the next ones can be prefetched.
        if (getNumberOfCurrentlyAssignedSplits() <= prefetchDepth) {
            context.sendSplitRequest();
        }
    }

    /** The parked splits (tests). */
    List<S3ObjectSplit> parkedSplits() {
        return List.copyOf(parked.values());
    }

    @Override
    protected S3ObjectSplitState initializedState(S3ObjectSplit split) {
        return new S3ObjectSplitState(split);
    }

    @Override
    protected S3ObjectSplit toSplitType(String splitId, S3ObjectSplitState splitState) {
        return splitState.toSplit();
    }
}
