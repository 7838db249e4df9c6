package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.s3.ObjectReader;
import io.github.s3mergetree.source.s3.s3.S3SourceMetrics;
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
import org.apache.flink.annotation.PublicEvolving;
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
    private final Map<String, Future<byte[]>> prefetched = new ConcurrentHashMap<>();

    public FormatContext(
            ObjectReader objectReader, ReadableConfig options, S3SourceMetrics metrics) {
        this.objectReader = objectReader;
        this.options = options;
        this.metrics = metrics;
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

    /** Registers bytes {@code [start, end)} of the split's object being downloaded in advance. */
    public void registerPrefetch(S3ObjectSplit split, long start, long end, Future<byte[]> bytes) {
        prefetched.put(prefetchKey(split, start, end), bytes);
    }

    /** Drops prefetched bytes of {@code split} that were not used. */
    public void discardPrefetch(S3ObjectSplit split) {
        prefetched
                .keySet()
                .removeIf(k -> k.startsWith(split.key() + "\u0000" + split.etag() + "\u0000"));
    }

    private static String prefetchKey(S3ObjectSplit split, long start, long end) {
        return split.key() + "\u0000" + split.etag() + "\u0000" + start + "\u0000" + end;
    }

    /** A stream of bytes {@code [start, end)} of the split's object. */
    public InputStream open(S3ObjectSplit split, long start, long end) throws IOException {
        Future<byte[]> f = prefetched.remove(prefetchKey(split, start, end));
        if (f != null) {
            return new ByteArrayInputStream(await(split, f));
        }
        return objectReader.open(split.key(), split.etag(), start, end);
    }

    /**
     * Bytes {@code [start, end)} of the split's object in memory: from its prefetch when the range
     * or the whole object was prefetched, else downloaded now.
     */
    public byte[] readFully(S3ObjectSplit split, long start, long end) throws IOException {
        Future<byte[]> f = prefetched.remove(prefetchKey(split, start, end));
        if (f != null) {
            return await(split, f);
        }
        Future<byte[]> whole = prefetched.get(prefetchKey(split, 0, split.objectSize()));
        if (whole != null && start >= 0 && end <= split.objectSize() && start <= end) {
            return Arrays.copyOfRange(await(split, whole), (int) start, (int) end);
        }
        return objectReader.readFully(split.key(), split.etag(), start, end);
    }

    /**
     * The whole object's bytes when they were prefetched (waiting for the download to end), else
     * null; taken, so a second call gives null. For readers that serve all their reads from one
     * array, such as Parquet's footer and column chunks.
     */
    public byte[] takePrefetchedObject(S3ObjectSplit split) throws IOException {
        Future<byte[]> f = prefetched.remove(prefetchKey(split, 0, split.objectSize()));
        return f == null ? null : await(split, f);
    }

    private byte[] await(S3ObjectSplit split, Future<byte[]> f) throws IOException {
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
