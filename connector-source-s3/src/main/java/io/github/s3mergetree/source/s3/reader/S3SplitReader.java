package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.ObjectChangedException;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.GetRateLimiter;
import io.github.s3mergetree.source.s3.objects.ObjectReader;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
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
 * <p>When failed objects are parked ({@code s3.failed-objects = PARK}, the default in continuous
 * mode) a split that fails is not fatal: it is retried here, from the position after its last
 * fetched record, up to {@code s3queue_loading_retries} times with backoff (1 s, doubling, at most
 * {@code s3_retry_max_backoff_ms}; parse errors and changed objects are not retried), then given up
 * and recorded for the {@link S3SourceReader} to park once its fetched records are emitted.
 * Otherwise ({@code FAIL}, the bounded default) the failure fails the job so that Flink restarts
 * from the last checkpoint.
 *
 * <p>A split that has not started but counts rows as read ({@link
 * S3ObjectSplit#rowsToSkipFromStart()}) is read from the start and that many leading rows are
 * dropped before anything is emitted (records must be {@link Block}s).
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
    private final S3SourceMetrics metrics;
    private final ArrayDeque<S3ObjectSplit> splits = new ArrayDeque<>();
    private S3ObjectSplit current;
    private FormatReader<T> currentReader;

    // the current split's progress on this thread: the position after its last fetched record
    // (where a retry resumes), the leading rows still to drop, failed attempts and when to retry
    private boolean fetchedAny;
    private long lastOffset;
    private long lastSkip;
    private long rowsToDrop;
    private int attempts;
    private long retryAtNanos;
    private final int loadingRetries;
    private final long maxBackoffMillis;

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
        this.metrics = metrics;
        this.loadingRetries = options.get(S3SourceOptions.S3QUEUE_LOADING_RETRIES);
        this.maxBackoffMillis = Math.max(1, options.get(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS));
    }

    @Override
    public RecordsWithSplitIds<PositionedRecord<T>> fetch() throws IOException {
        if (current == null) {
            current = splits.poll();
            if (current == null) {
                return empty();
            }
            prefetchedBytes.remove(current.splitId());
            fetchedAny = false;
            attempts = 0;
            retryAtNanos = 0;
            rowsToDrop = current.rowsToSkipFromStart();
            try {
                currentReader = format.createReader(context, current);
            } catch (IOException | RuntimeException e) {
                return failed(e);
            }
            startPrefetch();
        } else if (currentReader == null) {
            // waiting to retry the current split
            long wait = retryAtNanos - System.nanoTime();
            if (wait > 0) {
                sleep(Math.min(TimeUnit.NANOSECONDS.toMillis(wait) + 1, 100));
                return empty();
            }
            S3ObjectSplit from = fetchedAny ? current.withPosition(lastOffset, lastSkip) : current;
            rowsToDrop = from.rowsToSkipFromStart();
            try {
                currentReader = format.createReader(context, from);
            } catch (IOException | RuntimeException e) {
                return failed(e);
            }
        }
        String id = current.splitId();
        List<PositionedRecord<T>> batch;
        try {
            batch = currentReader.nextBatch();
            if (batch != null && rowsToDrop > 0) {
                batch = dropLeadingRows(batch);
            }
        } catch (IOException | RuntimeException e) {
            return failed(e);
        }
        RecordsBySplits.Builder<PositionedRecord<T>> out = new RecordsBySplits.Builder<>();
        if (batch == null) {
            closeCurrent();
            out.addFinishedSplit(id);
        } else if (!batch.isEmpty()) {
            countRows(batch);
            PositionedRecord<T> last = batch.get(batch.size() - 1);
            fetchedAny = true;
            lastOffset = last.offset();
            lastSkip = last.recordsToSkip();
            out.addAll(id, batch);
        }
        return out.build();
    }

    /** Rows read: those of a block, or one per record of another type. */
    private void countRows(List<PositionedRecord<T>> batch) {
        long rows = 0;
        for (PositionedRecord<T> r : batch) {
            rows += r.record() instanceof Block b ? b.rows() : 1;
        }
        metrics.read(rows);
    }

    /** Drops the first {@link #rowsToDrop} rows of the current split from {@code batch}. */
    @SuppressWarnings("unchecked")
    private List<PositionedRecord<T>> dropLeadingRows(List<PositionedRecord<T>> batch) {
        List<PositionedRecord<T>> kept = new ArrayList<>(batch.size());
        for (PositionedRecord<T> r : batch) {
            if (rowsToDrop == 0) {
                kept.add(r);
                continue;
            }
            if (!(r.record() instanceof Block b)) {
                throw new IllegalStateException(
                        "cannot skip the first "
                                + rowsToDrop
                                + " rows of "
                                + current
                                + ": its records are not blocks");
            }
            if (b.rows() <= rowsToDrop) {
                rowsToDrop -= b.rows();
                continue;
            }
            int from = (int) rowsToDrop;
            Block rest = b.newEmpty(b.rows() - from);
            rest.appendRange(b, from, b.rows());
            rowsToDrop = 0;
            kept.add(new PositionedRecord<>((T) rest, r.offset(), r.recordsToSkip()));
        }
        return kept;
    }

    /**
     * The current split failed: rethrown when failures are fatal; otherwise retried later (a
     * transient error, attempts left) or given up and reported as finished with its reason.
     */
    private RecordsWithSplitIds<PositionedRecord<T>> failed(Exception e) throws IOException {
        S3ObjectSplit split = current;
        // the read's failure is what the user sees; a reader that also fails to close (Arrow's
        // "Memory was leaked" after a failed read) only adds a suppressed exception to it
        closeReader(e);
        if (failures == null) {
            closeCurrent();
            if (e instanceof IOException io) {
                throw io;
            }
            throw (RuntimeException) e;
        }
        attempts++;
        if (isTransient(e) && attempts <= loadingRetries) {
            long backoff = Math.min(maxBackoffMillis, 1000L << Math.min(20, attempts - 1));
            LOG.warn(
                    "Reading {} failed (attempt {} of {}); retrying from its last read row in {} ms",
                    split,
                    attempts,
                    loadingRetries + 1,
                    backoff,
                    e);
            retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(backoff);
            return empty();
        }
        // The reader parks it with the split's last emitted position once those records are out.
        LOG.warn("Reading {} failed after {} attempts; giving it up", split, attempts, e);
        failures.put(split.splitId(), reason(e));
        closeCurrent();
        RecordsBySplits.Builder<PositionedRecord<T>> out = new RecordsBySplits.Builder<>();
        out.addFinishedSplit(split.splitId());
        return out.build();
    }

    /**
     * Whether another attempt may succeed: an I/O error that is neither a format error nor a
     * changed object anywhere in its causes.
     */
    static boolean isTransient(Throwable e) {
        if (!(e instanceof IOException)) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ObjectFormatException || t instanceof ObjectChangedException) {
                return false;
            }
        }
        return true;
    }

    /** The failure's message, with its innermost cause's when that adds something. */
    static String reason(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e) {
            String r =
                    root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
            if (!m.contains(r)) {
                m = m + ": " + r;
            }
        }
        return m.replace('\n', ' ');
    }

    private RecordsWithSplitIds<PositionedRecord<T>> empty() {
        return new RecordsBySplits.Builder<PositionedRecord<T>>().build();
    }

    private static void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting to retry");
        }
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
            context.downloadForPrefetch(downloads, next, 0, next.objectSize());
        }
    }

    private void closeCurrent() {
        closeReader(null);
        current = null;
    }

    /**
     * Closes the current split's format reader (and drops its prefetched bytes), keeping the split;
     * a failure to close is added to {@code failure} if given.
     */
    private void closeReader(Exception failure) {
        if (currentReader != null) {
            try {
                currentReader.close();
            } catch (IOException | RuntimeException e) {
                if (failure != null) {
                    failure.addSuppressed(e);
                } else {
                    LOG.warn("closing the reader of {} failed", current, e);
                }
            }
        }
        if (current != null) {
            context.discardPrefetch(current);
        }
        currentReader = null;
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
