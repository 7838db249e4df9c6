package io.github.s3mergetree.source.s3.objects;

import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.objectstore.RetryableStoreException;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Reads byte ranges of objects the way ClickHouse does: a range larger than {@code 2 × bufferSize}
 * is downloaded as {@code threads} parallel ranged GETs of {@code bufferSize} bytes each, read
 * ahead in order (so at most {@code (threads + 1) × bufferSize} bytes are buffered per stream);
 * smaller ranges stream from one GET. Every GET honours the rate limit, counts into the metrics and
 * pins the object's ETag; a failed or truncated body is retried with backoff and resumed from the
 * last byte received.
 */
@org.apache.flink.annotation.Internal
public final class ObjectReader {
    private final ObjectStoreClient client;
    private final RetryPolicy retry;
    private final RetryPolicy.Sleeper sleeper;
    private final GetRateLimiter rateLimiter;
    private final S3SourceMetrics metrics;
    private final ExecutorService downloadExecutor;
    private final int threads;
    private final int bufferSize;

    public ObjectReader(
            ObjectStoreClient client,
            RetryPolicy retry,
            RetryPolicy.Sleeper sleeper,
            GetRateLimiter rateLimiter,
            S3SourceMetrics metrics,
            ExecutorService downloadExecutor,
            int threads,
            int bufferSize) {
        if (threads < 1) {
            throw new IllegalArgumentException("max_download_threads must be >= 1, got " + threads);
        }
        if (bufferSize < 1) {
            throw new IllegalArgumentException(
                    "max_download_buffer_size must be >= 1, got " + bufferSize);
        }
        this.client = client;
        this.retry = retry;
        this.sleeper = sleeper;
        this.rateLimiter = rateLimiter;
        this.metrics = metrics;
        this.downloadExecutor = downloadExecutor;
        this.threads = threads;
        this.bufferSize = bufferSize;
    }

    public ObjectStoreClient client() {
        return client;
    }

    /** Whether a range of {@code length} bytes is downloaded by parallel ranged GETs. */
    public boolean isParallel(long length) {
        return threads > 1 && length > 2L * bufferSize;
    }

    /** A stream of bytes {@code [start, end)} of {@code key} at {@code etag}. */
    public InputStream open(String key, String etag, long start, long end) {
        if (isParallel(end - start)) {
            return new ParallelRangeInputStream(key, etag, start, end);
        }
        return new ResumingRangeInputStream(key, etag, start, end);
    }

    /** Bytes {@code [start, end)} of {@code key} in memory (parallel when large). */
    public byte[] readFully(String key, String etag, long start, long end) throws IOException {
        checkRange(key, start, end);
        byte[] out = new byte[(int) (end - start)];
        readInto(key, etag, start, end, out);
        return out;
    }

    /**
     * Downloads bytes {@code [start, end)} of {@code key} into {@code out[0, end - start)}
     * (parallel when large), so that a caller can reuse its arrays. When this throws, a cancelled
     * parallel GET may still be writing into {@code out}: the caller must not reuse it.
     */
    public void readInto(String key, String etag, long start, long end, byte[] out)
            throws IOException {
        checkRange(key, start, end);
        long len = end - start;
        if (len > out.length) {
            throw new IllegalArgumentException(
                    "range " + start + "-" + end + " does not fit " + out.length + " bytes");
        }
        if (isParallel(len)) {
            // Ranged GETs write straight into their slice of the result: no second copy.
            List<Future<?>> parts = new ArrayList<>();
            try {
                for (long s = start; s < end; s += bufferSize) {
                    long partStart = s;
                    long partEnd = Math.min(end, s + bufferSize);
                    parts.add(
                            downloadExecutor.submit(
                                    () -> {
                                        try (InputStream in =
                                                new ResumingRangeInputStream(
                                                        key, etag, partStart, partEnd)) {
                                            readInto(
                                                    in,
                                                    out,
                                                    (int) (partStart - start),
                                                    (int) (partEnd - partStart),
                                                    key);
                                        }
                                        return null;
                                    }));
                }
                for (Future<?> f : parts) {
                    f.get();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while downloading " + key);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(
                        "download of " + client.describe(key) + " failed: " + e.getCause(),
                        e.getCause());
            } finally {
                for (Future<?> f : parts) {
                    f.cancel(true);
                }
            }
            return;
        }
        try (InputStream in = open(key, etag, start, end)) {
            readInto(in, out, 0, (int) len, key);
        }
    }

    private void checkRange(String key, long start, long end) throws IOException {
        long len = end - start;
        if (len > Integer.MAX_VALUE - 16) {
            throw new IOException(
                    "range "
                            + start
                            + "-"
                            + end
                            + " of "
                            + client.describe(key)
                            + " is larger than 2 GiB");
        }
        if (start < 0 || len < 0) {
            throw new IllegalArgumentException("bad range " + start + "-" + end);
        }
    }

    /** Reads exactly {@code len} bytes of {@code in} into {@code out[off..]}. */
    private void readInto(InputStream in, byte[] out, int off, int len, String key)
            throws IOException {
        int done = 0;
        while (done < len) {
            int n = in.read(out, off + done, len - done);
            if (n < 0) {
                throw new EOFException(
                        client.describe(key) + ": range ended " + (len - done) + " bytes early");
            }
            done += n;
        }
    }

    /**
     * One GET of {@code [start, end)} that reopens at the current position after a retryable
     * failure or a body shorter than announced.
     */
    private final class ResumingRangeInputStream extends InputStream {
        private final String key;
        private final String etag;
        private final long end;
        private long pos;
        private InputStream current;
        private int failuresWithoutProgress;
        private boolean closed;

        ResumingRangeInputStream(String key, String etag, long start, long end) {
            this.key = key;
            this.etag = etag;
            this.pos = start;
            this.end = end;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("stream of " + client.describe(key) + " is closed");
            }
            if (pos >= end) {
                return -1;
            }
            if (len == 0) {
                return 0;
            }
            while (true) {
                try {
                    if (current == null) {
                        rateLimiter.acquire();
                        metrics.getRequest();
                        current = client.get(key, etag, pos, end);
                    }
                    int n = current.read(b, off, (int) Math.min(len, end - pos));
                    if (n < 0) {
                        throw new RetryableStoreException(
                                client.describe(key)
                                        + ": body ended at byte "
                                        + pos
                                        + ", expected "
                                        + end
                                        + " (truncated)",
                                false,
                                null);
                    }
                    pos += n;
                    metrics.downloaded(n);
                    failuresWithoutProgress = 0;
                    return n;
                } catch (RetryableStoreException e) {
                    closeCurrent();
                    failuresWithoutProgress++;
                    if (failuresWithoutProgress >= retry.maxAttempts()) {
                        throw e;
                    }
                    metrics.retry(e.throttled());
                    RetryPolicy.sleep(sleeper, retry.backoffMs(failuresWithoutProgress - 1));
                }
            }
        }

        private void closeCurrent() {
            if (current != null) {
                try {
                    current.close();
                } catch (IOException | RuntimeException ignored) {
                    // the connection is dropped anyway
                }
                current = null;
            }
        }

        @Override
        public void close() {
            closed = true;
            closeCurrent();
        }
    }

    /** Parallel ranged GETs of {@code bufferSize}, consumed in order with bounded read-ahead. */
    private final class ParallelRangeInputStream extends InputStream {
        private final String key;
        private final String etag;
        private final long end;
        private long nextChunkStart;
        private final ArrayDeque<Future<byte[]>> inFlight = new ArrayDeque<>();
        private final ArrayDeque<Integer> chunkLengths = new ArrayDeque<>();

        /** Consumed chunk buffers, reused for the next downloads (bounded memory, no GC churn). */
        private final ArrayDeque<byte[]> free = new ArrayDeque<>();

        private byte[] chunk;
        private int chunkLen;
        private int chunkPos;
        private boolean closed;

        ParallelRangeInputStream(String key, String etag, long start, long end) {
            this.key = key;
            this.etag = etag;
            this.end = end;
            this.nextChunkStart = start;
            fill();
        }

        private void fill() {
            while (inFlight.size() < threads && nextChunkStart < end) {
                long s = nextChunkStart;
                long e = Math.min(end, s + bufferSize);
                nextChunkStart = e;
                byte[] buf = free.poll();
                byte[] target = buf != null && buf.length >= e - s ? buf : new byte[bufferSize];
                inFlight.add(downloadExecutor.submit(() -> download(target, s, e)));
                chunkLengths.add((int) (e - s));
            }
        }

        private byte[] download(byte[] buf, long s, long e) throws IOException {
            int len = (int) (e - s);
            try (InputStream in = new ResumingRangeInputStream(key, etag, s, e)) {
                int off = 0;
                while (off < len) {
                    int n = in.read(buf, off, len - off);
                    if (n < 0) {
                        throw new EOFException(client.describe(key) + " ended at " + (s + off));
                    }
                    off += n;
                }
            }
            return buf;
        }

        private boolean nextChunk() throws IOException {
            Future<byte[]> f = inFlight.poll();
            if (f == null) {
                return false;
            }
            if (chunk != null) {
                free.add(chunk);
            }
            try {
                chunk = f.get();
                chunkLen = chunkLengths.poll();
                chunkPos = 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while downloading " + key);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw new IOException(
                        "download of " + client.describe(key) + " failed: " + e.getCause(),
                        e.getCause());
            } catch (CancellationException e) {
                throw new IOException("download of " + client.describe(key) + " was cancelled", e);
            }
            fill();
            return true;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("stream of " + client.describe(key) + " is closed");
            }
            if (len == 0) {
                return 0;
            }
            while (chunk == null || chunkPos >= chunkLen) {
                if (!nextChunk()) {
                    return -1;
                }
            }
            int n = Math.min(len, chunkLen - chunkPos);
            System.arraycopy(chunk, chunkPos, b, off, n);
            chunkPos += n;
            return n;
        }

        @Override
        public void close() {
            closed = true;
            for (Future<byte[]> f : inFlight) {
                f.cancel(true);
            }
            inFlight.clear();
            chunk = null;
        }
    }
}
