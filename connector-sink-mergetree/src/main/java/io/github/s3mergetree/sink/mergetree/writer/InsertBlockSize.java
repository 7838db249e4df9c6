package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import java.util.Locale;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * When a writer turns its insert block into parts: {@code min_insert_block_size_rows} and {@code
 * min_insert_block_size_bytes} (a number of bytes, or {@code auto}), parsed once, here, for the
 * builder's check and for the writer. The byte size of a block depends on memory, with one model
 * ({@link InsertBlockMemory}) for {@code auto} and for the default: a writer holds about {@code
 * max_insert_threads + 3} blocks at its peak, within a budget of {@code max_memory_usage} (else its
 * share of half the heap). {@code auto} is the largest block that fits the budget; the default
 * (ClickHouse's 256 MiB) is lowered to it when it does not fit; an explicit number is kept as set.
 */
@Internal
public final class InsertBlockSize {
    private final long minRows;
    private final long minBytes;
    private final boolean auto;
    private final boolean explicit;
    private final long maxMemoryUsage;
    private final int insertThreads;

    private InsertBlockSize(
            long minRows,
            long minBytes,
            boolean auto,
            boolean explicit,
            long maxMemoryUsage,
            int insertThreads) {
        this.minRows = minRows;
        this.minBytes = minBytes;
        this.auto = auto;
        this.explicit = explicit;
        this.maxMemoryUsage = maxMemoryUsage;
        this.insertThreads = insertThreads;
    }

    /**
     * Parses the sink's {@code min_insert_block_size_rows}, {@code min_insert_block_size_bytes},
     * {@code max_memory_usage} and {@code max_insert_threads}.
     *
     * @throws IllegalArgumentException naming the setting and its value when one is out of range
     */
    public static InsertBlockSize of(ReadableConfig options) {
        long rows = options.get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS);
        if (rows < 0) {
            throw new IllegalArgumentException(
                    "min_insert_block_size_rows must be >= 0, got " + rows);
        }
        String bytes = options.get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES).trim();
        boolean auto = bytes.toLowerCase(Locale.ROOT).equals("auto");
        long minBytes = -1;
        if (!auto) {
            try {
                minBytes = Long.parseLong(bytes);
            } catch (NumberFormatException e) {
                minBytes = -1;
            }
            if (minBytes < 0) {
                throw new IllegalArgumentException(
                        "min_insert_block_size_bytes must be a number of bytes >= 0 or 'auto', got '"
                                + bytes
                                + "'");
            }
        }
        long memory = options.get(MergeTreeSinkOptions.MAX_MEMORY_USAGE);
        if (memory < 0) {
            throw new IllegalArgumentException("max_memory_usage must be >= 0, got " + memory);
        }
        int threads = options.get(MergeTreeSinkOptions.MAX_INSERT_THREADS);
        if (threads <= 0) {
            throw new IllegalArgumentException(
                    "max_insert_threads must be positive, got " + threads);
        }
        boolean explicit =
                options.getOptional(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES).isPresent();
        return new InsertBlockSize(rows, minBytes, auto, explicit, memory, threads);
    }

    /** {@code min_insert_block_size_rows} (0: no row limit). */
    public long minRows() {
        return minRows;
    }

    /** {@code max_insert_threads}. */
    public int insertThreads() {
        return insertThreads;
    }

    /** What a writer uses, given the memory it may use. */
    public record Sized(long budgetBytes, long minBytes, boolean lowered) {}

    /**
     * The writer's memory budget and insert block size in bytes (0: no byte limit) when {@code
     * writers} writers share a heap of {@code maxHeapBytes}.
     */
    public Sized sized(long maxHeapBytes, int writers) {
        long budget = InsertBlockMemory.writerBudget(maxMemoryUsage, maxHeapBytes, writers);
        long fits = InsertBlockMemory.largestFittingBlock(budget, insertThreads);
        if (auto) {
            return new Sized(budget, fits, false);
        }
        if (!explicit && minBytes > fits) {
            return new Sized(budget, fits, true);
        }
        return new Sized(budget, minBytes, false);
    }
}
