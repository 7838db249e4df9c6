package io.github.s3mergetree.sink.mergetree.writer;

/**
 * How large an insert block the writers of one JVM can hold. At its peak a writer holds the block
 * it accumulates, the blocks its insert threads write (with their sorted copies of the key and
 * non-String columns, and compression buffers) and the partial block a checkpoint flushes beside
 * them: about {@code max_insert_threads + 3} blocks, ClickHouse's guidance {@code
 * min_insert_block_size_bytes = peak_memory / (3 * max_insert_threads)} with room for the flush.
 * Half the heap is shared by the writers of the JVM; the rest is left to the sources, Flink and
 * garbage not yet collected. Why: ClickHouse's default of 256 MiB per block on a 2 GiB heap with
 * two writers failed the job with an OutOfMemoryError (measured: 2.4M posts rows, p=2).
 */
final class InsertBlockMemory {
    /** The smallest block this returns: below it, parts get too small to be worth it. */
    static final long MIN_BLOCK_BYTES = 8L << 20;

    private InsertBlockMemory() {}

    /**
     * The largest insert block in bytes that {@code writers} writers with {@code insertThreads}
     * insert threads each can hold in a heap of {@code maxHeapBytes}; at least {@link
     * #MIN_BLOCK_BYTES}.
     */
    static long largestFittingBlock(long maxHeapBytes, int writers, int insertThreads) {
        if (maxHeapBytes <= 0 || writers < 1 || insertThreads < 1) {
            throw new IllegalArgumentException(
                    "heap "
                            + maxHeapBytes
                            + " bytes, "
                            + writers
                            + " writers, "
                            + insertThreads
                            + " insert threads: all must be positive");
        }
        long perWriter = maxHeapBytes / 2 / writers;
        return Math.max(MIN_BLOCK_BYTES, perWriter / (insertThreads + 3));
    }
}
