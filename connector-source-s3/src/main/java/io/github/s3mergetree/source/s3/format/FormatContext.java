package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.ObjectReader;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What a {@link FormatReader} may use: ranged reads of the object (parallel for large ranges, with
 * retries and the pinned ETag), bytes prefetched while the previous split was parsed, the source
 * options and the I/O metrics.
 */
@PublicEvolving
public final class FormatContext {
    private final ObjectReader objectReader;
    private final ReadableConfig options;
    private final S3SourceMetrics metrics;
    private final Map<String, Future<ObjectBytes>> prefetched = new ConcurrentHashMap<>();
    private final DownloadBuffers buffers;
    private final MissingColumns missingColumns;

    public FormatContext(
            ObjectReader objectReader, ReadableConfig options, S3SourceMetrics metrics) {
        this.objectReader = objectReader;
        this.options = options;
        this.metrics = metrics;
        this.missingColumns = new MissingColumns(metrics);
        // what the split reader has in flight: max_download_threads prefetched objects of up to
        // 2 x max_download_buffer_size, and the current object or row group
        long buffer = options.get(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE);
        int threads = options.get(S3SourceOptions.MAX_DOWNLOAD_THREADS);
        this.buffers = new DownloadBuffers(Math.max(0, (threads + 2) * 2 * buffer));
    }

    public ObjectReader objectReader() {
        return objectReader;
    }

    public ReadableConfig options() {
        return options;
    }

    public S3SourceMetrics metrics() {
        return metrics;
    }

    /** Where formats report target columns an object does not have. */
    public MissingColumns missingColumns() {
        return missingColumns;
    }

    /** Rows per emitted block ({@code max_block_size}). */
    public int maxBlockSize() {
        return options.get(S3SourceOptions.MAX_BLOCK_SIZE);
    }

    /** The zone of date-times whose type names none ({@code session_timezone}). */
    public ZoneId sessionZone() {
        return ZoneId.of(options.get(S3SourceOptions.SESSION_TIMEZONE));
    }

    /** {@code s3://bucket/key} for messages. */
    public String describe(String key) {
        return objectReader.client().describe(key);
    }

    /**
     * Starts downloading bytes {@code [start, end)} of the split's object on {@code executor}, into
     * an array of this context's pool, for the split's format reader to take later (a prefetch);
     * the array goes back to the pool when that reader is closed.
     */
    public Future<?> downloadForPrefetch(
            java.util.concurrent.ExecutorService executor,
            S3ObjectSplit split,
            long start,
            long end) {
        // downloads only: readPooled would find this very prefetch and wait for itself
        Future<ObjectBytes> f = executor.submit(() -> downloadPooled(split, start, end));
        prefetched.put(prefetchKey(split, start, end), f);
        return f;
    }

    /** Registers bytes {@code [start, end)} of the split's object being downloaded in advance. */
    @Internal
    public void registerPrefetch(
            S3ObjectSplit split, long start, long end, Future<ObjectBytes> bytes) {
        prefetched.put(prefetchKey(split, start, end), bytes);
    }

    /** Drops prefetched bytes of {@code split} that were not used. */
    public void discardPrefetch(S3ObjectSplit split) {
        String prefix = split.key() + "\u0000" + split.etag() + "\u0000";
        prefetched
                .entrySet()
                .removeIf(
                        e -> {
                            if (!e.getKey().startsWith(prefix)) {
                                return false;
                            }
                            releaseIfDownloaded(e.getValue());
                            return true;
                        });
    }

    /** A finished download's array back to the pool (an unfinished one may still be written). */
    private void releaseIfDownloaded(Future<ObjectBytes> f) {
        if (f.isDone() && !f.isCancelled()) {
            try {
                release(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // failed: nothing to give back
            }
        }
    }

    private static String prefetchKey(S3ObjectSplit split, long start, long end) {
        return split.key() + "\u0000" + split.etag() + "\u0000" + start + "\u0000" + end;
    }

    /** A stream of bytes {@code [start, end)} of the split's object. */
    public InputStream open(S3ObjectSplit split, long start, long end) throws IOException {
        Future<ObjectBytes> f = prefetched.remove(prefetchKey(split, start, end));
        if (f != null) {
            ObjectBytes b = await(split, f);
            // not given back: the stream's reader may hold it past close
            return new ByteArrayInputStream(b.array(), 0, b.length());
        }
        return objectReader.open(split.key(), split.etag(), start, end);
    }

    /**
     * Bytes {@code [start, end)} of the split's object in memory: from its prefetch when the range
     * or the whole object was prefetched, else downloaded now.
     */
    public byte[] readFully(S3ObjectSplit split, long start, long end) throws IOException {
        ObjectBytes b = fromPrefetch(split, start, end);
        if (b == null) {
            return objectReader.readFully(split.key(), split.etag(), start, end);
        }
        if (b.array().length == b.length()) {
            return b.array(); // the caller keeps it: not given back
        }
        byte[] exact = b.exact();
        release(b);
        return exact;
    }

    /**
     * Bytes {@code [start, end)} of the split's object in an array of this context's pool (or of a
     * prefetch); the caller gives it back with {@link #release} once nothing reads it.
     */
    @Internal
    public ObjectBytes readPooled(S3ObjectSplit split, long start, long end) throws IOException {
        ObjectBytes b = fromPrefetch(split, start, end);
        return b != null ? b : downloadPooled(split, start, end);
    }

    /**
     * Bytes {@code [start, end)} from a prefetch: the range's own (taken), or a copy out of the
     * whole object's; null when neither was prefetched.
     */
    private ObjectBytes fromPrefetch(S3ObjectSplit split, long start, long end) throws IOException {
        Future<ObjectBytes> f = prefetched.remove(prefetchKey(split, start, end));
        if (f != null) {
            return await(split, f);
        }
        Future<ObjectBytes> whole = prefetched.get(prefetchKey(split, 0, split.objectSize()));
        if (whole != null && start >= 0 && end <= split.objectSize() && start <= end) {
            return ObjectBytes.of(
                    Arrays.copyOfRange(await(split, whole).array(), (int) start, (int) end));
        }
        return null;
    }

    /** Downloads bytes {@code [start, end)} of the split's object into an array of the pool. */
    private ObjectBytes downloadPooled(S3ObjectSplit split, long start, long end)
            throws IOException {
        long len = end - start;
        if (len < 0 || len > Integer.MAX_VALUE - 16) {
            return ObjectBytes.of(objectReader.readFully(split.key(), split.etag(), start, end));
        }
        byte[] array = buffers.take((int) len);
        // on failure the array is not given back: a cancelled ranged GET may still write it
        objectReader.readInto(split.key(), split.etag(), start, end, array);
        return new ObjectBytes(array, (int) len, true);
    }

    /** Gives an array of {@link #readPooled} back to the pool: nothing may read it afterwards. */
    @Internal
    public void release(ObjectBytes bytes) {
        if (bytes != null && bytes.pooled()) {
            buffers.give(bytes.array());
        }
    }

    /** The pool of download arrays (for tests). */
    @VisibleForTesting
    public DownloadBuffers buffers() {
        return buffers;
    }

    /**
     * The whole object's bytes when they were prefetched (waiting for the download to end), else
     * null; taken, so a second call gives null. For readers that serve all their reads from one
     * array, such as Parquet's footer and column chunks.
     */
    @Internal
    public ObjectBytes takePrefetchedObject(S3ObjectSplit split) throws IOException {
        Future<ObjectBytes> f = prefetched.remove(prefetchKey(split, 0, split.objectSize()));
        return f == null ? null : await(split, f);
    }

    private ObjectBytes await(S3ObjectSplit split, Future<ObjectBytes> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted waiting for a prefetch");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("prefetch of " + describe(split.key()) + " failed", e.getCause());
        }
    }
}
