package io.github.s3mergetree.sink.mergetree.delivery;

import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;

/**
 * How long committed rows wait until the live server shows them: from the moment the delivery
 * operator learns of a commit (the committers emit a committable after committing it) until a
 * delivery round reported the parts applied on the server. The earliest commit not yet delivered
 * starts the clock; a successful round stops it (recording the latency if it delivered parts; a
 * round with nothing to send means an earlier round already carried that commit); a failed round
 * leaves it running, so retries count in the latency.
 */
@Internal
final class CommitToVisibleLatency {
    private final LongSupplier nanoClock;
    private long pendingSince = -1;
    private volatile long lastMillis = -1;

    CommitToVisibleLatency(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A commit arrived. */
    void committed() {
        if (pendingSince < 0) {
            pendingSince = nanoClock.getAsLong();
        }
    }

    /** A round succeeded; {@code delivered}: it sent parts. */
    void roundSucceeded(boolean delivered) {
        if (pendingSince >= 0 && delivered) {
            lastMillis = (nanoClock.getAsLong() - pendingSince) / 1_000_000;
        }
        pendingSince = -1;
    }

    /** The last commit-to-visible latency in milliseconds, -1 before the first delivery. */
    long lastMillis() {
        return lastMillis;
    }
}
