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
 * @param owner the recording process, {@code host:pid}, so that a deliverer on the same host can
 *     tell that the owner is gone and recover at once instead of waiting out the lease
 */
public record DeliveryIntent(
        long sequence,
        String id,
        String method,
        long serverNowSeconds,
        long createdMillis,
        String owner,
        List<DeliveredPart> parts) {
    public DeliveryIntent {
        parts = List.copyOf(parts);
    }

    /** This process, as {@link #owner()} names it. */
    public static String currentOwner() {
        String host;
        try {
            host = java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown-host";
        }
        return host + ":" + ProcessHandle.current().pid();
    }

    /** Whether the owner was a process on this host that no longer runs. */
    public boolean ownerIsGone() {
        if (owner == null) {
            return false;
        }
        int colon = owner.lastIndexOf(':');
        if (colon < 0) {
            return false;
        }
        String self = currentOwner();
        if (!self.substring(0, self.lastIndexOf(':')).equals(owner.substring(0, colon))) {
            return false;
        }
        try {
            long pid = Long.parseLong(owner.substring(colon + 1));
            return ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true);
        } catch (NumberFormatException e) {
            return false;
        }
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
