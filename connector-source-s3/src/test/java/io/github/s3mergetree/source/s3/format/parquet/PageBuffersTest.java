package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** {@link PageBuffers}: reused on the thread that released them, never handed to another. */
class PageBuffersTest {
    @Test
    void theNextReaderOnTheSameThreadGetsTheReleasedArrays() {
        PageBuffers a = PageBuffers.acquire();
        a.defs = new int[1000];
        a.indices = new int[2000];
        int[] defs = a.defs;
        a.release();
        PageBuffers b = PageBuffers.acquire();
        assertThat(b).isSameAs(a);
        assertThat(b.defs).isSameAs(defs);
        assertThat(b.indices).hasSize(2000);
        b.release();
    }

    @Test
    void aReleaseOnAnotherThreadIsDropped() throws Exception {
        PageBuffers a = PageBuffers.acquire();
        int before = PageBuffers.pooledOnThisThread();
        AtomicReference<Integer> pooledThere = new AtomicReference<>();
        Thread t =
                new Thread(
                        () -> {
                            a.release();
                            pooledThere.set(PageBuffers.pooledOnThisThread());
                        });
        t.start();
        t.join();
        assertThat(pooledThere.get()).isZero();
        assertThat(PageBuffers.pooledOnThisThread()).isEqualTo(before);
        // and a second acquire here is a new object, not the one a cancelling thread released
        assertThat(PageBuffers.acquire()).isNotSameAs(a);
    }

    @Test
    void arraysAboveTheLimitAreNotKept() {
        PageBuffers a = PageBuffers.acquire();
        a.defs = new int[PageBuffers.MAX_KEPT_BYTES / 4 + 1];
        a.indices = new int[16];
        a.release();
        PageBuffers b = PageBuffers.acquire();
        assertThat(b).isSameAs(a);
        assertThat(b.defs).isEmpty();
        assertThat(b.indices).hasSize(16);
        b.release();
    }

    @Test
    void dictionaryArraysAreReusedWhenLargeEnoughAndDroppedAboveTheLimit() {
        PageBuffers a = PageBuffers.acquire();
        long[] longs = a.dictLongs(1000);
        int[] offsets = a.dictOffsets(11);
        byte[] bytes = a.dictBytes(500);
        a.release();
        PageBuffers b = PageBuffers.acquire();
        assertThat(b).isSameAs(a);
        assertThat(b.dictLongs(600)).isSameAs(longs);
        assertThat(b.dictLongs(1001)).isNotSameAs(longs).hasSize(1001);
        assertThat(b.dictOffsets(11)).isSameAs(offsets);
        assertThat(b.dictBytes(500)).isSameAs(bytes);
        double[] huge = b.dictDoubles(PageBuffers.MAX_KEPT_BYTES / 8 + 1);
        b.release();
        PageBuffers c = PageBuffers.acquire();
        assertThat(c.dictDoubles(1)).isNotSameAs(huge).hasSize(1);
        c.release();
    }
}
