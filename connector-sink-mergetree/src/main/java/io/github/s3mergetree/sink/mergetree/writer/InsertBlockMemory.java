package io.github.s3mergetree.sink.mergetree.writer;

/**
 * How large an insert block a writer can hold: the one memory model of {@link InsertBlockSize}. At
 * its peak a writer holds the block it accumulates, the blocks its insert threads write (with their
 * sorted copies of the key and non-String columns, and compression buffers) and the partial block a
 * checkpoint flushes beside them: about {@code max_insert_threads + 3} blocks, ClickHouse's
 * guidance {@code min_insert_block_size_bytes = peak_memory / (3 * max_insert_threads)} with room
 * for the flush. A writer's budget is {@code max_memory_usage}, else its share of half the heap
 * (the writers of the JVM share that half; the rest is left to the sources, Flink and garbage not
 * yet collected). Why: ClickHouse's default of 256 MiB per block on a 2 GiB heap with two writers
 * failed the job with an OutOfMemoryError (measured: 2.4M posts rows, p=2).
 */
final class InsertBlockMemory {
    /** The smallest block this returns: below it, parts get too small to be worth it. */
    static final long MIN_BLOCK_BYTES = 8L << 20;

    private InsertBlockMemory() {}

    /**
     * A writer's memory budget: {@code maxMemoryUsage} when positive, else its share of half the
     * heap of {@code maxHeapBytes} among {@code writers} writers.
     */
    static long writerBudget(long maxMemoryUsage, long maxHeapBytes, int writers) {
        if (maxMemoryUsage > 0) {
            return maxMemoryUsage;
        }
        if (maxHeapBytes <= 0 || writers < 1) {
            throw new IllegalArgumentException(
                    "heap "
                            + maxHeapBytes
                            + " bytes, "
                            + writers
                            + " writers: both must be positive");
        }
        return maxHeapBytes / 2 / writers;
    }

    /**
     * The largest insert block in bytes a writer with {@code insertThreads} insert threads holds
     * within {@code budgetBytes}; at least {@link #MIN_BLOCK_BYTES}.
     */
    static long largestFittingBlock(long budgetBytes, int insertThreads) {
        if (budgetBytes <= 0 || insertThreads < 1) {
            throw new IllegalArgumentException(
                    "budget "
                            + budgetBytes
                            + " bytes, "
                            + insertThreads
                            + " insert threads: both must be positive");
        }
        return Math.max(MIN_BLOCK_BYTES, budgetBytes / (insertThreads + 3));
    }

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
        return largestFittingBlock(writerBudget(0, maxHeapBytes, writers), insertThreads);
    }
}
