package io.github.s3mergetree.delivery.errors;

import java.io.IOException;

/**
 * Delivery cannot tell whether the server applied a delivery, and will not guess: re-sending could
 * duplicate rows, skipping could lose them (as Iceberg's {@code CommitStateUnknownException}). The
 * message names the delivery, its parts and their UUIDs, the target and what to check; once the
 * operator knows, {@code s3-mergetree deliver --resolve ID=delivered} (or {@code =not-delivered})
 * records it and delivery goes on.
 */
public final class DeliveryStateUnknownException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String deliveryId;

    public DeliveryStateUnknownException(String deliveryId, String message) {
        super(message);
        this.deliveryId = deliveryId;
    }

    /** The id of the unresolved delivery (its ledger record and the server's RESTORE id). */
    public String deliveryId() {
        return deliveryId;
    }
}
