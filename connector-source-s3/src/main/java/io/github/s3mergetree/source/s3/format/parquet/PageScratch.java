package io.github.s3mergetree.source.s3.format.parquet;

/**
 * A buffer that a page reader lends to Parquet page decompression on its own thread while it reads
 * one data page, so the pages of a column chunk are decompressed into one reused array instead of a
 * new array per page. Why: a new array per page costs its zeroing and, in a growing heap, the page
 * faults of fresh memory; for ZSTD pages this was about a fifth of the fetcher's CPU beside the
 * decompression itself.
 *
 * <p>Contract: the borrower ({@link ParquetFlatPageReader}) {@link #lend lends} the buffer only
 * around {@code PageReader.readPage()} and is done with the previous page's bytes by then (it
 * decodes levels and dictionary indices eagerly and reads PLAIN values only until the page ends).
 * Without a lent buffer, {@link #outputFor} allocates, so everything else (dictionary pages, whose
 * bytes parquet's own readers keep; the value-by-value readers) gets arrays of its own. Not
 * thread-safe: one per reader at a time, used on the reader's thread ({@link PageBuffers} keeps it
 * for the thread's next reader).
 */
final class PageScratch {
    private static final ThreadLocal<PageScratch> LENT = new ThreadLocal<>();

    private byte[] buffer = new byte[0];

    /** Drops the buffer if it is larger than {@code maxBytes} (before it is kept for reuse). */
    void trimTo(int maxBytes) {
        if (buffer.length > maxBytes) {
            buffer = new byte[0];
        }
    }

    /** Lends this buffer to decompressions on this thread until {@link #takeBack()}. */
    void lend() {
        LENT.set(this);
    }

    /** Ends the loan. */
    void takeBack() {
        LENT.remove();
    }

    /**
     * Where to decompress a page of {@code size} bytes: the lent buffer (grown if needed), or a new
     * array when none is lent on this thread. The result may be longer than {@code size}.
     */
    static byte[] outputFor(int size) {
        PageScratch lent = LENT.get();
        if (lent == null) {
            return new byte[size];
        }
        if (lent.buffer.length < size) {
            lent.buffer = new byte[Math.max(size, lent.buffer.length + (lent.buffer.length >> 1))];
        }
        return lent.buffer;
    }
}
