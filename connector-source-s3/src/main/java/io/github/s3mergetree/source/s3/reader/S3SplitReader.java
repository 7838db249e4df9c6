package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.s3.GetRateLimiter;
import io.github.s3mergetree.source.s3.s3.ObjectReader;
import io.github.s3mergetree.source.s3.s3.S3SourceMetrics;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the assigned splits one after another on Flink's fetcher thread, one format batch per
 * {@link #fetch()}. While a split is parsed, the next assigned small splits are already being
 * downloaded (prefetch, bounded by {@code max_download_threads} objects and as many buffers); large
 * ranges are read ahead by parallel ranged GETs.
 *
 * <p>In continuous mode a split that fails is not fatal: it is reported to the enumerator (with the
 * position of its last emitted record) for a retry or parking; in bounded mode the failure fails
 * the job so that Flink restarts from the last checkpoint.
 */
@org.apache.flink.annotation.Internal
public final class S3SplitReader<T> implements SplitReader<PositionedRecord<T>, S3ObjectSplit> {
    private static final Logger LOG = LoggerFactory.getLogger(S3SplitReader.class);

    private final S3ObjectFormat<T> format;
    private final ObjectStoreClient client;
    private final ExecutorService downloads;
    private final FormatContext context;
    private final ObjectReader objectReader;
    private final boolean prefetch;
    private final long prefetchLimit;
    private final Map<String, String> failures;
    private final ArrayDeque<S3ObjectSplit> splits = new ArrayDeque<>();
    private S3ObjectSplit current;
    private FormatReader<T> currentReader;

    /** Split id → bytes of splits whose download started and that were not opened yet. */
    private final java.util.Map<String, Long> prefetchedBytes = new java.util.HashMap<>();

    private final int prefetchDepth;
    private final long prefetchBudget;

    /**
     * @param failures where continuous mode records failed splits (split id → reason) for the
     *     reader to report once their emitted records are out; null: failures are fatal
     */
    public S3SplitReader(
            S3ObjectFormat<T> format,
            ObjectStoreClient client,
            ReadableConfig options,
            S3SourceMetrics metrics,
            ExecutorService downloads,
            Map<String, String> failures) {
        this.format = format;
        this.client = client;
        this.downloads = downloads;
        int threads = options.get(S3SourceOptions.MAX_DOWNLOAD_THREADS);
        long buffer = options.get(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE);
        this.objectReader =
                new ObjectReader(
                        client,
                        new RetryPolicy(
                                options.get(S3SourceOptions.S3_RETRY_ATTEMPTS),
                                options.get(S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS),
                                options.get(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS)),
                        RetryPolicy.Sleeper.SYSTEM,
                        new GetRateLimiter(
                                options.get(S3SourceOptions.S3_MAX_GET_RPS),
                                System::nanoTime,
                                RetryPolicy.Sleeper.SYSTEM),
                        metrics,
                        downloads,
                        threads,
                        (int) Math.min(Integer.MAX_VALUE - 16, buffer));
        this.context = new FormatContext(objectReader, options, metrics);
        this.prefetch = options.get(S3SourceOptions.PREFETCH);
        this.prefetchLimit = 2 * buffer;
        this.prefetchDepth = threads;
        this.prefetchBudget = threads * buffer;
        this.failures = failures;
    }

    @Override
    public RecordsWithSplitIds<PositionedRecord<T>> fetch() throws IOException {
        if (current == null) {
            current = splits.poll();
            if (current == null) {
                return new RecordsBySplits.Builder<PositionedRecord<T>>().build();
            }
            prefetchedBytes.remove(current.splitId());
            try {
                currentReader = format.createReader(context, current);
            } catch (IOException | RuntimeException e) {
                return failed(current, e);
            }
            startPrefetch();
        }
        String id = current.splitId();
        List<PositionedRecord<T>> batch;
        try {
            batch = currentReader.nextBatch();
        } catch (IOException | RuntimeException e) {
            return failed(current, e);
        }
        RecordsBySplits.Builder<PositionedRecord<T>> out = new RecordsBySplits.Builder<>();
        if (batch == null) {
            closeCurrent();
            out.addFinishedSplit(id);
        } else {
            out.addAll(id, batch);
        }
        return out.build();
    }

    private RecordsWithSplitIds<PositionedRecord<T>> failed(S3ObjectSplit split, Exception e)
            throws IOException {
        closeCurrent();
        if (failures == null) {
            if (e instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) e;
        }
        // The reader reports it with the split's last emitted position once those records are out.
        LOG.warn("Reading {} failed", split, e);
        failures.put(split.splitId(), String.valueOf(e.getMessage()));
        RecordsBySplits.Builder<PositionedRecord<T>> out = new RecordsBySplits.Builder<>();
        out.addFinishedSplit(split.splitId());
        return out.build();
    }

    /**
     * Starts downloading the next queued small splits (up to {@code max_download_threads} of them
     * and {@code max_download_threads × max_download_buffer_size} bytes) while the current one is
     * parsed, so that many small objects are fetched concurrently.
     */
    private void startPrefetch() {
        if (!prefetch) {
            return;
        }
        long inFlight = 0;
        for (long b : prefetchedBytes.values()) {
            inFlight += b;
        }
        for (S3ObjectSplit next : splits) {
            if (prefetchedBytes.size() >= prefetchDepth) {
                return;
            }
            if (prefetchedBytes.containsKey(next.splitId())) {
                continue;
            }
            long len = next.rangeEnd() - next.rangeStart();
            if (!next.isWholeObject()
                    || next.offset() != S3ObjectSplit.NOT_STARTED
                    || len <= 0
                    || len > prefetchLimit) {
                continue; // large or resumed splits stream with parallel ranged reads instead
            }
            if (inFlight + len > prefetchBudget && !prefetchedBytes.isEmpty()) {
                return;
            }
            inFlight += len;
            prefetchedBytes.put(next.splitId(), len);
            context.registerPrefetch(
                    next,
                    0,
                    next.objectSize(),
                    downloads.submit(
                            () ->
                                    objectReader.readFully(
                                            next.key(), next.etag(), 0, next.objectSize())));
        }
    }

    private void closeCurrent() {
        if (currentReader != null) {
            try {
                currentReader.close();
            } catch (IOException e) {
                LOG.debug("closing the reader of {} failed", current, e);
            }
        }
        if (current != null) {
            context.discardPrefetch(current);
        }
        currentReader = null;
        current = null;
    }

    @Override
    public void handleSplitsChanges(SplitsChange<S3ObjectSplit> splitsChanges) {
        if (!(splitsChanges instanceof SplitsAddition)) {
            throw new UnsupportedOperationException(
                    "unsupported splits change " + splitsChanges.getClass().getSimpleName());
        }
        splits.addAll(splitsChanges.splits());
        if (current != null) {
            startPrefetch();
        }
    }

    @Override
    public void wakeUp() {
        // fetch() returns after one batch; nothing blocks indefinitely
    }

    @Override
    public void close() throws Exception {
        closeCurrent();
        downloads.shutdownNow();
        client.close();
    }
}
