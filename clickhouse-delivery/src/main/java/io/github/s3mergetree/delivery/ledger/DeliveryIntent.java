package io.github.s3mergetree.delivery.ledger;

import java.util.List;

/**
 * A delivery the ledger recorded before anything was sent to the server: its sequence number in the
 * target's ledger, its id (the RESTORE's {@code id}, unique per target and attempt), the method,
 * the parts, and the server's clock when it was recorded (so that recovery can compare it with the
 * server's start time on the same clock).
 *
 * @param serverNowSeconds the server's {@code now()} (epoch seconds) read just before the record
 * @param createdMillis the deliverer's clock when recorded (for the lease of a live deliverer)
 */
public record DeliveryIntent(
        long sequence,
        String id,
        String method,
        long serverNowSeconds,
        long createdMillis,
        List<DeliveredPart> parts) {
    public DeliveryIntent {
        parts = List.copyOf(parts);
    }

    public long rows() {
        long r = 0;
        for (DeliveredPart p : parts) {
            r += p.rows();
        }
        return r;
    }

    public long bytes() {
        long b = 0;
        for (DeliveredPart p : parts) {
            b += p.bytes();
        }
        return b;
    }
}
