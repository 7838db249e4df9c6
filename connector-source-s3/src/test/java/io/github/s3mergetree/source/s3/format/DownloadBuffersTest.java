package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DownloadBuffersTest {

    @Test
    void takesTheSmallestFreeArrayThatFits() {
        DownloadBuffers pool = new DownloadBuffers(100L << 20);
        byte[] small = pool.take(1 << 20);
        byte[] large = pool.take(8 << 20);
        pool.give(large);
        pool.give(small);
        assertThat(pool.retainedBytes()).isEqualTo(small.length + large.length);

        assertThat(pool.take(1000)).isSameAs(small);
        assertThat(pool.take(2 << 20)).isSameAs(large);
        assertThat(pool.reuses()).isEqualTo(2);
        assertThat(pool.take(2 << 20)).isNotSameAs(large).hasSizeGreaterThanOrEqualTo(2 << 20);
        assertThat(pool.retainedBytes()).isZero();
    }

    @Test
    void roundsSizesUpSoThatSimilarObjectsShareArrays() {
        assertThat(DownloadBuffers.roundUp(1000)).isEqualTo(1000);
        // an eighth of 16 MiB: 2-MiB steps
        assertThat(DownloadBuffers.roundUp(20_034_872)).isEqualTo(20 << 20);
        DownloadBuffers pool = new DownloadBuffers(100L << 20);
        byte[] a = pool.take(20_034_872);
        pool.give(a);
        assertThat(pool.take(20_100_000)).isSameAs(a);
    }

    @Test
    void keepsNoMoreThanItsLimit() {
        DownloadBuffers pool = new DownloadBuffers(3L << 20);
        byte[] a = pool.take(2 << 20);
        byte[] b = pool.take(2 << 20);
        pool.give(a);
        pool.give(b); // over the limit: left to the GC
        assertThat(pool.retainedBytes()).isEqualTo(a.length);
        assertThat(pool.take(2 << 20)).isSameAs(a);
        assertThat(pool.take(2 << 20)).isNotSameAs(b);
    }

    @Test
    void refusesAnArrayGivenBackTwice() {
        DownloadBuffers pool = new DownloadBuffers(10L << 20);
        byte[] a = pool.take(1 << 20);
        pool.give(a);
        assertThatThrownBy(() -> pool.give(a))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("twice");
    }

    @Test
    void poisonsArraysGivenBackWhenAskedTo() {
        DownloadBuffers pool = new DownloadBuffers(10L << 20);
        pool.poisonGivenArrays();
        byte[] a = pool.take(100);
        a[7] = 1;
        pool.give(a);
        assertThat(a[7]).isEqualTo((byte) 0x5A);
    }
}
