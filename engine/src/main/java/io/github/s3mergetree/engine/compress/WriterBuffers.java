package io.github.s3mergetree.engine.compress;

import java.util.ArrayDeque;

/**
 * The byte arrays of the {@link CompressedBlockWriter}s of one thread, kept between the writers:
 * the buffers of pending uncompressed bytes, which a closed writer gives back for the thread's next
 * writer, and one scratch array for the compressed block being emitted, which every writer of the
 * thread uses in turn.
 *
 * <p>Why: a part has one compressed stream per column (and per nested stream), all open at once,
 * and each allocated its own pending buffer and its own compressed-block buffer; an insert or merge
 * thread writes part after part, so these arrays were a large share of all the bytes the ingest
 * allocated (wide table, 60 numeric columns: 14 % of them), each one zeroed and, in a growing heap,
 * faulted in by the kernel, and every young collection they caused also copied the insert blocks
 * still waiting in memory. A compressed block is emitted to the stream in one call, so one array
 * per thread serves all of the thread's writers.
 *
 * <p>Contract: used on one thread at a time through {@link #local()}. A pending buffer given back
 * ({@link #givePending}) must no longer be used by the writer that had it. The compressed scratch
 * is taken ({@link #takeCompressed}) and given back ({@link #giveCompressed}) around one block, so
 * a nested use on the same thread gets an array of its own instead of the one being written. At
 * most {@link #MAX_POOLED_BYTES} of pending buffers are kept per thread; more are left to the GC.
 */
final class WriterBuffers {
    /** Pending buffers kept per thread at most, in bytes (a part's streams, with room to spare). */
    static final long MAX_POOLED_BYTES = 64L << 20;

    private static final ThreadLocal<WriterBuffers> LOCAL =
            ThreadLocal.withInitial(WriterBuffers::new);

    private final ArrayDeque<byte[]> pending = new ArrayDeque<>();
    private long pooledBytes;
    private byte[] compressed = new byte[0];

    private WriterBuffers() {}

    /** The buffers of the calling thread. */
    static WriterBuffers local() {
        return LOCAL.get();
    }

    /**
     * A pending buffer of at least {@code minLength} and at most {@code maxLength} bytes: the one
     * given back last if it fits, else a new array of {@code minLength} bytes.
     */
    byte[] takePending(int minLength, int maxLength) {
        byte[] b = pending.peekFirst();
        if (b != null && b.length >= minLength && b.length <= maxLength) {
            pending.pollFirst();
            pooledBytes -= b.length;
            return b;
        }
        return new byte[minLength];
    }

    /** Gives a pending buffer back for the thread's next writer (kept while under the cap). */
    void givePending(byte[] b) {
        if (b.length == 0 || pooledBytes + b.length > MAX_POOLED_BYTES) {
            return;
        }
        pending.addFirst(b);
        pooledBytes += b.length;
    }

    /** An array of at least {@code length} bytes for one compressed block; give it back after. */
    byte[] takeCompressed(int length) {
        byte[] b = compressed;
        compressed = null;
        if (b == null || b.length < length) {
            b = new byte[length];
        }
        return b;
    }

    /** Gives back the array of {@link #takeCompressed} once the block is written. */
    void giveCompressed(byte[] b) {
        if (compressed == null || compressed.length < b.length) {
            compressed = b;
        }
    }

    /** Bytes of pending buffers kept on this thread (for tests). */
    long pooledBytes() {
        return pooledBytes;
    }
}
