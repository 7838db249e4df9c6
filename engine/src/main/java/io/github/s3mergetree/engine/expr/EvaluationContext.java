package io.github.s3mergetree.engine.expr;

import java.time.Clock;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * What expression evaluation needs beyond the data: the server time zone, used by time functions on
 * {@code DateTime} values whose type names no time zone (as ClickHouse uses its server's {@code
 * timezone()}), and by {@code now()} / {@code today()}; and the clock that {@code now()}, {@code
 * now64()} and {@code today()} read (the system clock unless a caller, e.g. a test, injects one).
 *
 * @param serverTimeZone the zone of DateTime values without an explicit one
 * @param clock the source of the current time
 */
public record EvaluationContext(ZoneId serverTimeZone, Clock clock) {

    private static final EvaluationContext UTC = new EvaluationContext(ZoneOffset.UTC);

    /** Validates the arguments. */
    public EvaluationContext {
        Objects.requireNonNull(serverTimeZone, "serverTimeZone");
        Objects.requireNonNull(clock, "clock");
    }

    /** A context with the given server time zone and the system clock. */
    public EvaluationContext(ZoneId serverTimeZone) {
        this(serverTimeZone, Clock.systemUTC());
    }

    /** A context whose server time zone is UTC (the default of chDB and of this engine). */
    public static EvaluationContext utc() {
        return UTC;
    }

    /** A context with the given server time zone. */
    public static EvaluationContext of(ZoneId serverTimeZone) {
        return new EvaluationContext(serverTimeZone);
    }

    /** This context reading the current time from {@code clock}. */
    public EvaluationContext withClock(Clock clock) {
        return new EvaluationContext(serverTimeZone, clock);
    }
}
