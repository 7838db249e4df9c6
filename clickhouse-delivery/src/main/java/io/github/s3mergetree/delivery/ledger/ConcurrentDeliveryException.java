package io.github.s3mergetree.delivery.ledger;

import java.io.IOException;

/**
 * Another deliverer recorded the same step of the same target's ledger first (its conditional
 * create won). The caller reloads the ledger and decides again.
 */
public final class ConcurrentDeliveryException extends IOException {
    private static final long serialVersionUID = 1L;

    public ConcurrentDeliveryException(String message) {
        super(message);
    }
}
