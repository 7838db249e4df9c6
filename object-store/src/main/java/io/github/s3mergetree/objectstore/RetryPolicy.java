package io.github.s3mergetree.objectstore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.Serializable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter for object-store calls: attempt {@code n} waits a random
 * time in {@code [0, min(max, initial * 2^n))}. Only {@link RetryableStoreException}s are retried.
 *
 * <p>Why full jitter: many readers throttled by the same 503 SlowDown must not come back in step.
 * The {@link Sleeper} is injectable so tests run without real waiting.
 */
public final class RetryPolicy implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The policy of a table's store unless configured: 20 attempts, 50 ms doubling to at most 5 s,
     * so that an outage of half a minute delays a table's metadata request instead of failing the
     * job (the source's reads default to 10 attempts: a failed read is retried per split).
     */
    public static final RetryPolicy STORE_DEFAULT = new RetryPolicy(20, 50, 5_000);

    private final int maxAttempts;
    private final long initialBackoffMs;
    private final long maxBackoffMs;

    public RetryPolicy(int maxAttempts, long initialBackoffMs, long maxBackoffMs) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
        if (initialBackoffMs < 0 || maxBackoffMs < initialBackoffMs) {
            throw new IllegalArgumentException(
                    "backoff must satisfy 0 <= initial <= max, got initial="
                            + initialBackoffMs
                            + " max="
                            + maxBackoffMs);
        }
        this.maxAttempts = maxAttempts;
        this.initialBackoffMs = initialBackoffMs;
        this.maxBackoffMs = maxBackoffMs;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    /** The backoff before the first retry, in milliseconds. */
    public long initialBackoffMs() {
        return initialBackoffMs;
    }

    /** The upper bound of the backoff, in milliseconds. */
    public long maxBackoffMs() {
        return maxBackoffMs;
    }

    /** The jittered backoff before retry number {@code attempt} (0-based). */
    public long backoffMs(int attempt) {
        long cap = initialBackoffMs;
        for (int i = 0; i < attempt && cap < maxBackoffMs; i++) {
            cap *= 2;
        }
        cap = Math.min(cap, maxBackoffMs);
        return cap <= 0 ? 0 : ThreadLocalRandom.current().nextLong(cap + 1);
    }

    /**
     * Runs {@code call}, retrying retryable failures; each retry is reported to {@code listener}.
     */
    public <T> T call(IoCallable<T> call, RetryListener listener, Sleeper sleeper)
            throws IOException {
        int attempt = 0;
        while (true) {
            try {
                return call.call();
            } catch (RetryableStoreException e) {
                attempt++;
                if (attempt >= maxAttempts) {
                    throw e;
                }
                listener.retry(e.throttled());
                sleep(sleeper, backoffMs(attempt - 1));
            }
        }
    }

    /** Sleeps, turning an interrupt into an {@link InterruptedIOException}. */
    public static void sleep(Sleeper sleeper, long ms) throws IOException {
        try {
            sleeper.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while backing off");
        }
    }

    /** Told of every retry (metrics count them). */
    @FunctionalInterface
    public interface RetryListener {
        /** Nobody listens. */
        RetryListener NONE = throttled -> {};

        /** A call is retried; {@code throttled} when the store asked to slow down. */
        void retry(boolean throttled);
    }

    /** A call that may throw {@link IOException}. */
    @FunctionalInterface
    public interface IoCallable<T> {
        T call() throws IOException;
    }

    /** Waits; {@link Thread#sleep(long)} in production, a recorder in tests. */
    @FunctionalInterface
    public interface Sleeper extends Serializable {
        Sleeper SYSTEM = Thread::sleep;

        void sleep(long millis) throws InterruptedException;
    }
}
