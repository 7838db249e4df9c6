package io.github.s3mergetree.source.s3.format;

import java.util.ArrayDeque;

/**
 * The arrays one {@link ParquetFlatPageReader} decodes its pages with (definition levels,
 * dictionary indices, the decompressed page), kept per thread between objects: a fetcher reads
 * object after object, and each object's column readers would otherwise allocate (and the kernel
 * zero and fault in) a page's worth of fresh arrays per column. Measured on the posts ingest: these
 * arrays were 29 % of the bytes the job allocated.
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

    int[] defs = NO_INTS;
    int[] indices = NO_INTS;
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
        ArrayDeque<PageBuffers> pool = POOL.get();
        if (pool.size() < MAX_POOLED) {
            pool.addFirst(this);
        }
    }

    /** How many buffers this thread keeps (for tests). */
    static int pooledOnThisThread() {
        return POOL.get().size();
    }
}
