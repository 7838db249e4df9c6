package io.github.s3mergetree.delivery;

import java.io.Serializable;
import java.time.Duration;

/**
 * Timing and sizing of deliveries.
 *
 * @param lease how long a delivery recorded by another deliverer (process) is left to finish before
 *     this one recovers it; recovery is safe even if that deliverer is only slow, since a RESTORE
 *     id is fenced before a delivery is declared not made
 * @param pollInterval how often the server's {@code system.backups} is read while a RESTORE runs
 * @param applyTimeout how long one RESTORE may run before this round gives up waiting (the delivery
 *     stays recorded and the next round picks it up)
 * @param maxPartsPerDelivery the most parts one RESTORE (or one round of ATTACH PART) carries
 * @param compactAfter how many resolved deliveries the ledger keeps as records before they are
 *     compacted into a summary ({@code DeliveryLedger#compact})
 */
public record DeliveryOptions(
        Duration lease,
        Duration pollInterval,
        Duration applyTimeout,
        int maxPartsPerDelivery,
        int compactAfter)
        implements Serializable {
    public DeliveryOptions {
        if (maxPartsPerDelivery <= 0) {
            throw new IllegalArgumentException(
                    "maxPartsPerDelivery must be positive, got " + maxPartsPerDelivery);
        }
        if (compactAfter <= 0) {
            throw new IllegalArgumentException(
                    "compactAfter must be positive, got " + compactAfter);
        }
    }

    public static DeliveryOptions defaults() {
        return new DeliveryOptions(
                Duration.ofMinutes(10), Duration.ofMillis(200), Duration.ofHours(1), 1000, 64);
    }

    public DeliveryOptions withLease(Duration d) {
        return new DeliveryOptions(
                d, pollInterval, applyTimeout, maxPartsPerDelivery, compactAfter);
    }

    public DeliveryOptions withApplyTimeout(Duration d) {
        return new DeliveryOptions(lease, pollInterval, d, maxPartsPerDelivery, compactAfter);
    }

    public DeliveryOptions withMaxPartsPerDelivery(int n) {
        return new DeliveryOptions(lease, pollInterval, applyTimeout, n, compactAfter);
    }

    public DeliveryOptions withCompactAfter(int n) {
        return new DeliveryOptions(lease, pollInterval, applyTimeout, maxPartsPerDelivery, n);
    }
}
