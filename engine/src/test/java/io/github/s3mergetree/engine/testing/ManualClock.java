package io.github.s3mergetree.engine.testing;

import java.io.Serializable;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A UTC clock that stands still until a test moves it: tests of lifetimes and ages advance it
 * instead of sleeping. Thread-safe (writer threads read it while the test advances it) and
 * serializable (Flink serializes the operators that hold it; a copy starts at the same instant).
 */
public final class ManualClock extends Clock implements Serializable {
    private static final long serialVersionUID = 1L;

    private final AtomicReference<Instant> now;

    /** A clock at {@code start}. */
    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock forward by {@code d}. */
    public void advance(Duration d) {
        now.updateAndGet(t -> t.plus(d));
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return now.get();
    }
}
