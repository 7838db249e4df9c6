package io.github.s3mergetree.objectstore;

import java.io.IOException;

/**
 * A conditional write found its condition false (HTTP 412): the key existed for {@code
 * If-None-Match: *}, or had another ETag for {@code If-Match}. Another writer got there first;
 * never retried as such (the caller re-reads and decides).
 */
public class PreconditionFailedException extends IOException {
    private static final long serialVersionUID = 1L;

    public PreconditionFailedException(String message) {
        super(message);
    }

    public PreconditionFailedException(String message, Throwable cause) {
        super(message, cause);
    }
}
