package io.github.s3mergetree.delivery.http;

import java.io.IOException;

/**
 * No HTTP answer came from the server: connection refused, unknown host, TLS failure or a timeout.
 * Whether a statement that was being sent ran is unknown, which the delivery protocol accounts for.
 */
public final class ClickHouseUnreachableException extends IOException {
    private static final long serialVersionUID = 1L;

    public ClickHouseUnreachableException(String message, Throwable cause) {
        super(message, cause);
    }
}
