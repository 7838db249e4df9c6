package io.github.s3mergetree.engine.types;

import java.time.ZoneId;
import java.util.Optional;

/** {@code DateTime64(p[, 'tz'])}: Int64 ticks of 10^-p seconds since the epoch. */
public final class DateTime64Type extends DataType {
    private final int precision;
    private final String timeZone;

    public DateTime64Type(int precision, String timeZone) {
        super(TypeKind.DATETIME64);
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException(
                    "DateTime64 precision must be in [0, 9], got " + precision);
        }
        this.precision = precision;
        this.timeZone = timeZone;
        if (timeZone != null) {
            TimeZones.check(timeZone);
        }
    }

    public int precision() {
        return precision;
    }

    /** 10^precision: ticks per second. */
    public long ticksPerSecond() {
        long m = 1;
        for (int i = 0; i < precision; i++) {
            m *= 10;
        }
        return m;
    }

    public Optional<String> timeZone() {
        return Optional.ofNullable(timeZone);
    }

    public ZoneId zoneOr(ZoneId serverZone) {
        return timeZone == null ? serverZone : ZoneId.of(timeZone);
    }

    @Override
    protected String plainName() {
        return timeZone == null
                ? "DateTime64(" + precision + ")"
                : "DateTime64(" + precision + ", " + quote(timeZone) + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.LONG;
    }

    @Override
    public int fixedWidth() {
        return 8;
    }
}
