package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** One parse of the block size settings, and one memory model for 'auto' and the default. */
class InsertBlockSizeTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    private static InsertBlockSize of(String bytes, long maxMemoryUsage, int threads) {
        Configuration c = new Configuration();
        if (bytes != null) {
            c.set(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES, bytes);
        }
        c.set(MergeTreeSinkOptions.MAX_MEMORY_USAGE, maxMemoryUsage);
        c.set(MergeTreeSinkOptions.MAX_INSERT_THREADS, threads);
        return InsertBlockSize.of(c);
    }

    @Test
    void autoIsTheLargestBlockTheBudgetHolds() {
        // max_memory_usage: the budget; a writer holds max_insert_threads + 3 blocks
        assertThat(of("auto", 800 * MIB, 1).sized(64 * GIB, 3))
                .isEqualTo(new InsertBlockSize.Sized(800 * MIB, 200 * MIB, false));
        assertThat(of(" AUTO ", 800 * MIB, 5).sized(64 * GIB, 3).minBytes()).isEqualTo(100 * MIB);
        // no max_memory_usage: the writer's share of half the heap
        assertThat(of("auto", 0, 1).sized(8 * GIB, 2))
                .isEqualTo(new InsertBlockSize.Sized(2 * GIB, 512 * MIB, false));
        // never below 8 MiB
        assertThat(of("auto", 10 * MIB, 1).sized(GIB, 1).minBytes())
                .isEqualTo(InsertBlockMemory.MIN_BLOCK_BYTES);
    }

    @Test
    void theDefaultIsLoweredToWhatFitsAndAnExplicitSizeIsKept() {
        // 2 GiB heap, two writers: 512 MiB each, 128 MiB blocks instead of 256 MiB
        assertThat(of(null, 0, 1).sized(2 * GIB, 2))
                .isEqualTo(new InsertBlockSize.Sized(512 * MIB, 128 * MIB, true));
        // the same with max_memory_usage as the budget
        assertThat(of(null, 400 * MIB, 1).sized(64 * GIB, 1).minBytes()).isEqualTo(100 * MIB);
        // fits: ClickHouse's default as it is
        assertThat(of(null, 0, 1).sized(16 * GIB, 1))
                .isEqualTo(new InsertBlockSize.Sized(8 * GIB, 256 * MIB, false));
        assertThat(of("268435456", 0, 1).sized(2 * GIB, 2).minBytes()).isEqualTo(256 * MIB);
        assertThat(of("0", 0, 1).sized(2 * GIB, 2).minBytes()).isZero();
    }

    @Test
    void refusesBadValuesNamingThem() {
        assertThatThrownBy(() -> of("12k", 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "min_insert_block_size_bytes must be a number of bytes >= 0 or 'auto', got"
                                + " '12k'");
        assertThatThrownBy(() -> of("-1", 0, 1)).hasMessageContaining("got '-1'");
        assertThatThrownBy(() -> of("auto", -5, 1))
                .hasMessage("max_memory_usage must be >= 0, got -5");
        assertThatThrownBy(() -> of("auto", 0, 0))
                .hasMessage("max_insert_threads must be positive, got 0");
        Configuration rows = new Configuration();
        rows.set(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS, -2L);
        assertThatThrownBy(() -> InsertBlockSize.of(rows))
                .hasMessage("min_insert_block_size_rows must be >= 0, got -2");
    }
}
