package io.github.s3mergetree.engine.types;

import java.time.DateTimeException;
import java.time.ZoneId;

/** Validation of time zone names used in DateTime types. */
final class TimeZones {
    private TimeZones() {}

    static void check(String timeZone) {
        try {
            ZoneId.of(timeZone);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("Unknown time zone '" + timeZone + "'", e);
        }
    }
}
