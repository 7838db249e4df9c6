package io.github.s3mergetree.source.s3.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    @Test
    void backoffGrowsExponentiallyWithJitterUpToTheCap() {
        RetryPolicy p = new RetryPolicy(10, 100, 1000);
        for (int i = 0; i < 200; i++) {
            assertThat(p.backoffMs(0)).isBetween(0L, 100L);
            assertThat(p.backoffMs(2)).isBetween(0L, 400L);
            assertThat(p.backoffMs(9)).isBetween(0L, 1000L);
        }
    }

    @Test
    void retriesOnlyRetryableFailuresAndCountsThem() throws Exception {
        List<Long> sleeps = new ArrayList<>();
        S3SourceMetrics m = S3SourceMetrics.unregistered();
        AtomicInteger calls = new AtomicInteger();
        String r =
                new RetryPolicy(5, 10, 100)
                        .call(
                                () -> {
                                    int n = calls.incrementAndGet();
                                    if (n <= 3) {
                                        throw new RetryableStoreException("503", n == 1, null);
                                    }
                                    return "ok";
                                },
                                m,
                                sleeps::add);
        assertThat(r).isEqualTo("ok");
        assertThat(sleeps).hasSize(3);
        assertThat(m.retries()).isEqualTo(3);
        assertThat(m.throttled()).isEqualTo(1);
        assertThatThrownBy(
                        () ->
                                new RetryPolicy(5, 10, 100)
                                        .call(
                                                () -> {
                                                    throw new IOException("403 Forbidden");
                                                },
                                                m,
                                                sleeps::add))
                .hasMessageContaining("403");
        assertThatThrownBy(
                        () ->
                                new RetryPolicy(2, 1, 1)
                                        .call(
                                                () -> {
                                                    throw new RetryableStoreException(
                                                            "always", false, null);
                                                },
                                                m,
                                                sleeps::add))
                .hasMessageContaining("always");
    }

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
