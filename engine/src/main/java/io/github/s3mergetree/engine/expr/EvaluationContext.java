package io.github.s3mergetree.engine.expr;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * What expression evaluation needs beyond the data: the server time zone, used by time functions on
 * {@code DateTime} values whose type names no time zone (as ClickHouse uses its server's {@code
 * timezone()}), and by {@code now()} / {@code today()}.
 *
 * @param serverTimeZone the zone of DateTime values without an explicit one
 */
public record EvaluationContext(ZoneId serverTimeZone) {

    private static final EvaluationContext UTC = new EvaluationContext(ZoneOffset.UTC);

    /** Validates the arguments. */
    public EvaluationContext {
        Objects.requireNonNull(serverTimeZone, "serverTimeZone");
    }

    /** A context whose server time zone is UTC (the default of chDB and of this engine). */
    public static EvaluationContext utc() {
        return UTC;
    }

    /** A context with the given server time zone. */
    public static EvaluationContext of(ZoneId serverTimeZone) {
        return new EvaluationContext(serverTimeZone);
    }
}
