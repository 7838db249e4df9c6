package io.github.s3mergetree.delivery;

import java.util.List;

/**
 * What one round of delivery did: deliveries made (or found made by an earlier attempt), parts,
 * rows and bytes the server received, and how long from the start of the round until the server
 * reported the parts visible.
 */
public record DeliveryResult(
        List<String> deliveryIds, int parts, long rows, long bytes, long latencyMillis) {
    public static final DeliveryResult NOTHING = new DeliveryResult(List.of(), 0, 0, 0, 0);

    public DeliveryResult {
        deliveryIds = List.copyOf(deliveryIds);
    }

    public boolean isEmpty() {
        return deliveryIds.isEmpty();
    }

    public DeliveryResult plus(DeliveryResult o) {
        List<String> ids = new java.util.ArrayList<>(deliveryIds);
        ids.addAll(o.deliveryIds);
        return new DeliveryResult(
                ids,
                parts + o.parts,
                rows + o.rows,
                bytes + o.bytes,
                Math.max(latencyMillis, o.latencyMillis));
    }
}
