package io.github.s3mergetree.objectstore;

import java.io.IOException;

/**
 * A failed object-store call that may succeed when repeated: 503 SlowDown ({@link #throttled()}),
 * other 5xx answers, connection resets, timeouts and truncated bodies.
 */
public class RetryableStoreException extends IOException {
    private static final long serialVersionUID = 1L;
    private final boolean throttled;

    public RetryableStoreException(String message, boolean throttled, Throwable cause) {
        super(message, cause);
        this.throttled = throttled;
    }

    /** Whether the store asked us to slow down (503 SlowDown). */
    public boolean throttled() {
        return throttled;
    }
}
