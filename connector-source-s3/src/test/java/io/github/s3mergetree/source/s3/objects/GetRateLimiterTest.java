package io.github.s3mergetree.source.s3.objects;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class GetRateLimiterTest {
    @Test
    void rateLimiterSpacesRequests() throws Exception {
        AtomicLong now = new AtomicLong(0);
        List<Long> sleeps = new ArrayList<>();
        GetRateLimiter l =
                new GetRateLimiter(
                        10,
                        now::get,
                        ms -> {
                            sleeps.add(ms);
                            now.addAndGet(ms * 1_000_000);
                        });
        for (int i = 0; i < 5; i++) {
            l.acquire();
        }
        assertThat(sleeps).containsExactly(100L, 100L, 100L, 100L);
        assertThatThrownBy(() -> new GetRateLimiter(-1, now::get, ms -> {}))
                .hasMessageContaining("got -1");
    }
}
