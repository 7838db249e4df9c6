package io.github.s3mergetree.engine.types;

import java.time.ZoneId;
import java.util.Optional;

/**
 * {@code DateTime} or {@code DateTime('tz')}: seconds since the epoch as UInt32. The time zone only
 * affects rendering and time functions (toYYYYMM, toStartOfDay, ...); without one the server's time
 * zone applies.
 */
public final class DateTimeType extends DataType {
    private final String timeZone;

    /**
     * @param timeZone an IANA time zone name, or null for the server's.
     */
    public DateTimeType(String timeZone) {
        super(TypeKind.DATETIME);
        this.timeZone = timeZone;
        if (timeZone != null) {
            TimeZones.check(timeZone);
        }
    }

    /** The explicit time zone, if the type names one. */
    public Optional<String> timeZone() {
        return Optional.ofNullable(timeZone);
    }

    /** The zone time functions use: the explicit one or {@code serverZone}. */
    public ZoneId zoneOr(ZoneId serverZone) {
        return timeZone == null ? serverZone : ZoneId.of(timeZone);
    }

    @Override
    protected String plainName() {
        return timeZone == null ? "DateTime" : "DateTime(" + quote(timeZone) + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.INT;
    }

    @Override
    public int fixedWidth() {
        return 4;
    }

    @Override
    public boolean isUnsigned() {
        return true;
    }
}
