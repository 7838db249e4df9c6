package io.github.s3mergetree.source.s3.format.parquet;

import java.util.ArrayDeque;

/**
 * The arrays one {@link ParquetFlatPageReader} decodes its pages with (definition levels,
 * dictionary indices, the decompressed page, the decoded dictionary), kept per thread between
 * objects: a fetcher reads object after object, and each object's column readers would otherwise
 * allocate (and the kernel zero and fault in) a page's worth of fresh arrays per column. Measured
 * on the posts ingest: these arrays were 29 % of the bytes the job allocated; on the wide (60
 * numeric columns) ingest the dictionary pages and their decoded arrays, kept since, were another
 * 19 %.
 *
 * <p>Contract: {@link #acquire} and {@link #release} on the reader's own thread; a released object
 * is not used by its former reader again (the reader drops its references). A release on another
 * thread (a reader closed by a cancelling thread) is dropped, so no thread gets arrays another one
 * may still write. Arrays above {@link #MAX_KEPT_BYTES} are not kept, nor more than {@link
 * #MAX_POOLED} objects per thread.
 */
final class PageBuffers {
    /** Objects kept per thread: a few objects' worth of columns. */
    static final int MAX_POOLED = 256;

    /** Larger arrays are left to the GC when released (a rare huge page does not stay pinned). */
    static final int MAX_KEPT_BYTES = 4 << 20;

    private static final ThreadLocal<ArrayDeque<PageBuffers>> POOL =
            ThreadLocal.withInitial(ArrayDeque::new);

    private static final int[] NO_INTS = new int[0];
    private static final long[] NO_LONGS = new long[0];
    private static final float[] NO_FLOATS = new float[0];
    private static final double[] NO_DOUBLES = new double[0];
    private static final byte[] NO_BYTES = new byte[0];

    int[] defs = NO_INTS;
    int[] indices = NO_INTS;
    // the decoded dictionary of the current column chunk; only its first dictSize entries count
    private int[] dictInts = NO_INTS;
    private long[] dictLongs = NO_LONGS;
    private float[] dictFloats = NO_FLOATS;
    private double[] dictDoubles = NO_DOUBLES;
    private int[] dictOffsets = NO_INTS;
    private byte[] dictBytes = NO_BYTES;
    private int[] dictCodes = NO_INTS;
    // a run's INT32 / INT64 values before they are narrowed or range-checked into the column
    private int[] runInts = NO_INTS;
    private long[] runLongs = NO_LONGS;
    final PageScratch scratch = new PageScratch();
    private Thread owner;

    private PageBuffers() {}

    /** Buffers for a reader on this thread: pooled ones if this thread released some. */
    static PageBuffers acquire() {
        PageBuffers b = POOL.get().pollFirst();
        if (b == null) {
            b = new PageBuffers();
        }
        b.owner = Thread.currentThread();
        return b;
    }

    /** Gives the buffers back for the next reader on this thread. */
    void release() {
        if (owner != Thread.currentThread()) {
            return;
        }
        owner = null;
        if (4L * defs.length > MAX_KEPT_BYTES) {
            defs = NO_INTS;
        }
        if (4L * indices.length > MAX_KEPT_BYTES) {
            indices = NO_INTS;
        }
        scratch.trimTo(MAX_KEPT_BYTES);
        if (4L * dictInts.length > MAX_KEPT_BYTES) {
            dictInts = NO_INTS;
        }
        if (8L * dictLongs.length > MAX_KEPT_BYTES) {
            dictLongs = NO_LONGS;
        }
        if (4L * dictFloats.length > MAX_KEPT_BYTES) {
            dictFloats = NO_FLOATS;
        }
        if (8L * dictDoubles.length > MAX_KEPT_BYTES) {
            dictDoubles = NO_DOUBLES;
        }
        if (4L * dictOffsets.length > MAX_KEPT_BYTES) {
            dictOffsets = NO_INTS;
        }
        if (dictBytes.length > MAX_KEPT_BYTES) {
            dictBytes = NO_BYTES;
        }
        if (4L * dictCodes.length > MAX_KEPT_BYTES) {
            dictCodes = NO_INTS;
        }
        if (4L * runInts.length > MAX_KEPT_BYTES) {
            runInts = NO_INTS;
        }
        if (8L * runLongs.length > MAX_KEPT_BYTES) {
            runLongs = NO_LONGS;
        }
        ArrayDeque<PageBuffers> pool = POOL.get();
        if (pool.size() < MAX_POOLED) {
            pool.addFirst(this);
        }
    }

    /** An array for a dictionary of {@code n} INT32 entries (its earlier content is stale). */
    int[] dictInts(int n) {
        if (dictInts.length < n) {
            dictInts = new int[n];
        }
        return dictInts;
    }

    /** An array for a dictionary of {@code n} INT64 entries. */
    long[] dictLongs(int n) {
        if (dictLongs.length < n) {
            dictLongs = new long[n];
        }
        return dictLongs;
    }

    /** An array for a dictionary of {@code n} FLOAT entries. */
    float[] dictFloats(int n) {
        if (dictFloats.length < n) {
            dictFloats = new float[n];
        }
        return dictFloats;
    }

    /** An array for a dictionary of {@code n} DOUBLE entries. */
    double[] dictDoubles(int n) {
        if (dictDoubles.length < n) {
            dictDoubles = new double[n];
        }
        return dictDoubles;
    }

    /** An array for {@code n} offsets of BYTE_ARRAY dictionary entries. */
    int[] dictOffsets(int n) {
        if (dictOffsets.length < n) {
            dictOffsets = new int[n];
        }
        return dictOffsets;
    }

    /** An array for {@code n} bytes of BYTE_ARRAY dictionary entries. */
    byte[] dictBytes(int n) {
        if (dictBytes.length < n) {
            dictBytes = new byte[n];
        }
        return dictBytes;
    }

    /** An array for the Enum codes of {@code n} dictionary entries. */
    int[] dictCodes(int n) {
        if (dictCodes.length < n) {
            dictCodes = new int[n];
        }
        return dictCodes;
    }

    /** An array for a run of {@code n} INT32 values (its earlier content is stale). */
    int[] runInts(int n) {
        if (runInts.length < n) {
            runInts = new int[n];
        }
        return runInts;
    }

    /** An array for a run of {@code n} INT64 values. */
    long[] runLongs(int n) {
        if (runLongs.length < n) {
            runLongs = new long[n];
        }
        return runLongs;
    }

    /** How many buffers this thread keeps (for tests). */
    static int pooledOnThisThread() {
        return POOL.get().size();
    }
}
