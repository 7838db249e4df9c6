package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.source.s3.enumerator.SplitFailedEvent;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitState;
import java.util.Map;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;

/**
 * The source reader: one fetcher thread running an {@link S3SplitReader}, split state per split.
 * Pull-based: it asks the enumerator for splits at start (twice when prefetching, so the next split
 * downloads while the current one is parsed) and again whenever at most one unfinished split is
 * left.
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

    /**
     * @param expander how a decoded record becomes output records; null: as it is
     * @param failures split id → reason of splits whose read failed (continuous mode), filled by
     *     the split reader; null in bounded mode
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
        int initial = config.get(S3SourceOptions.PREFETCH) ? 2 : 1;
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            for (int i = 0; i < initial; i++) {
                context.sendSplitRequest();
            }
        }
    }

    @Override
    protected void onSplitFinished(Map<String, S3ObjectSplitState> finishedSplitIds) {
        if (failures != null) {
            for (Map.Entry<String, S3ObjectSplitState> e : finishedSplitIds.entrySet()) {
                String reason = failures.remove(e.getKey());
                if (reason != null) {
                    // every record fetched before the failure has been emitted: resume after them
                    context.sendSourceEventToCoordinator(
                            new SplitFailedEvent(e.getValue().toSplit(), reason));
                }
            }
        }
        // Ask for more while few splits are left, so the next ones can be prefetched.
        if (getNumberOfCurrentlyAssignedSplits() <= prefetchDepth) {
            context.sendSplitRequest();
        }
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
