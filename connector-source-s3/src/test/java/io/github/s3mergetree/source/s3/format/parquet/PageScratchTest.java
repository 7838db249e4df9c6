package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class PageScratchTest {

    @Test
    void aLentBufferIsReusedAndGrownOnlyOnItsThread() throws Exception {
        PageScratch scratch = new PageScratch();
        byte[] unlent = PageScratch.outputFor(100);
        assertThat(unlent).hasSize(100);
        assertThat(PageScratch.outputFor(100)).isNotSameAs(unlent);

        scratch.lend();
        try {
            byte[] first = PageScratch.outputFor(1000);
            assertThat(first.length).isGreaterThanOrEqualTo(1000);
            assertThat(PageScratch.outputFor(500)).isSameAs(first);
            byte[] grown = PageScratch.outputFor(5000);
            assertThat(grown).isNotSameAs(first);
            assertThat(grown.length).isGreaterThanOrEqualTo(5000);
            assertThat(PageScratch.outputFor(1000)).isSameAs(grown);
            // another thread (another reader's fetcher) gets arrays of its own
            byte[] elsewhere = CompletableFuture.supplyAsync(() -> PageScratch.outputFor(10)).get();
            assertThat(elsewhere).isNotSameAs(grown).hasSize(10);
        } finally {
            scratch.takeBack();
        }
        byte[] after = PageScratch.outputFor(10);
        assertThat(after).hasSize(10);
    }
}
