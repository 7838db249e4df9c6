package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The insert block that fits the writers of a JVM. */
class InsertBlockMemoryTest {
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void clickHousesDefaultFitsADefaultHeapButNotASmallOne() {
        // a 6 GiB heap (a quarter of 24 GiB) with two writers holds 256 MiB blocks
        assertThat(InsertBlockMemory.largestFittingBlock(6 * GIB, 2, 1)).isGreaterThan(256 * MIB);
        // a 2 GiB heap with two writers does not: half the heap, per writer, over 4 blocks
        assertThat(InsertBlockMemory.largestFittingBlock(2 * GIB, 2, 1)).isEqualTo(128 * MIB);
        // more insert threads and more writers mean smaller blocks
        assertThat(InsertBlockMemory.largestFittingBlock(2 * GIB, 2, 2)).isLessThan(128 * MIB);
        assertThat(InsertBlockMemory.largestFittingBlock(2 * GIB, 4, 1)).isEqualTo(64 * MIB);
    }

    @Test
    void neverBelowTheFloorAndRejectsNonsense() {
        assertThat(InsertBlockMemory.largestFittingBlock(64 * MIB, 8, 4))
                .isEqualTo(InsertBlockMemory.MIN_BLOCK_BYTES);
        assertThatThrownBy(() -> InsertBlockMemory.largestFittingBlock(GIB, 0, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 writers");
    }
}
