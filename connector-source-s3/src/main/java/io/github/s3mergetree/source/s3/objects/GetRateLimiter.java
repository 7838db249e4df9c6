package io.github.s3mergetree.source.s3.objects;

import io.github.s3mergetree.objectstore.RetryPolicy;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * Spaces GET requests to at most {@code permitsPerSecond} ({@code s3_max_get_rps}); 0 disables it.
 * The clock and sleeper are injectable for tests.
 */
@org.apache.flink.annotation.Internal
public final class GetRateLimiter {
    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private final RetryPolicy.Sleeper sleeper;
    private long nextFreeNanos;

    public GetRateLimiter(
            long permitsPerSecond, LongSupplier nanoClock, RetryPolicy.Sleeper sleeper) {
        if (permitsPerSecond < 0) {
            throw new IllegalArgumentException(
                    "s3_max_get_rps must be >= 0, got " + permitsPerSecond);
        }
        this.intervalNanos = permitsPerSecond == 0 ? 0 : 1_000_000_000L / permitsPerSecond;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
        this.nextFreeNanos = nanoClock.getAsLong();
    }

    public static GetRateLimiter unlimited() {
        return new GetRateLimiter(0, System::nanoTime, RetryPolicy.Sleeper.SYSTEM);
    }

    /** Waits until the next GET may start. */
    public void acquire() throws IOException {
        if (intervalNanos == 0) {
            return;
        }
        long waitNanos;
        synchronized (this) {
            long now = nanoClock.getAsLong();
            long start = Math.max(now, nextFreeNanos);
            nextFreeNanos = start + intervalNanos;
            waitNanos = start - now;
        }
        if (waitNanos > 0) {
            RetryPolicy.sleep(sleeper, Math.max(1, waitNanos / 1_000_000));
        }
    }
}
