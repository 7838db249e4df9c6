package io.github.s3mergetree.delivery.errors;

import java.io.IOException;

/**
 * A delivery failed and nothing of it reached the server's table (the ledger records it as not
 * delivered), or the target does not fit: the message says why in one line. Retrying later is safe.
 */
public class DeliveryException extends IOException {
    private static final long serialVersionUID = 1L;

    public DeliveryException(String message) {
        super(message);
    }

    public DeliveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
