package io.github.s3mergetree.engine.table;

import java.io.IOException;

/**
 * A writer no longer holds its {@link WriterLease} at its epoch (it was paused past the lease's
 * expiry and another writer took the lease over, or the lease was deleted): it must not commit,
 * since the new holder resumes the same work. Never retried.
 */
public final class WriterFencedException extends IOException {
    private static final long serialVersionUID = 1L;

    public WriterFencedException(String message) {
        super(message);
    }
}
