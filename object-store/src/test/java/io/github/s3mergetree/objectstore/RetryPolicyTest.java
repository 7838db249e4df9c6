package io.github.s3mergetree.objectstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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
        AtomicInteger retries = new AtomicInteger();
        AtomicInteger throttled = new AtomicInteger();
        RetryPolicy.RetryListener m =
                t -> {
                    retries.incrementAndGet();
                    if (t) {
                        throttled.incrementAndGet();
                    }
                };
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
        assertThat(retries.get()).isEqualTo(3);
        assertThat(throttled.get()).isEqualTo(1);
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
}
