package io.github.s3mergetree.source.s3.format.parquet;

import java.time.Instant;
import java.time.LocalDate;

/**
 * The ranges of ClickHouse's Date (UInt16 days since 1970-01-01) and DateTime (UInt32 seconds since
 * 1970-01-01 00:00:00 UTC) and the messages for a value outside them, shared by the Parquet
 * decoder's value-by-value and bulk paths so that both fail alike on the same value.
 */
final class TemporalRanges {
    private TemporalRanges() {}

    /** Whether {@code days} (since 1970-01-01) is a Date: 0..65535. */
    static boolean isDate(int days) {
        return (days & 0xFFFF0000) == 0;
    }

    /** Whether {@code seconds} (since the epoch) is a DateTime: 0..2^32-1. */
    static boolean isDateTime(long seconds) {
        return (seconds & ~0xFFFFFFFFL) == 0;
    }

    /** {@code days} as a Date's UInt16, or an error naming the date. */
    static short date(int days) {
        if (!isDate(days)) {
            throw new IllegalArgumentException(dateMessage(days));
        }
        return (short) days;
    }

    /** {@code seconds} as a DateTime's UInt32, or an error naming the time. */
    static int dateTime(long seconds) {
        if (!isDateTime(seconds)) {
            throw new IllegalArgumentException(dateTimeMessage(seconds));
        }
        return (int) seconds;
    }

    /** Why {@code days} (since 1970-01-01) is no Date. */
    static String dateMessage(int days) {
        return "date "
                + LocalDate.ofEpochDay(days)
                + " is outside the Date range 1970-01-01..2149-06-06";
    }

    /** Why {@code seconds} (since the epoch) is no DateTime. */
    static String dateTimeMessage(long seconds) {
        return "timestamp "
                + Instant.ofEpochSecond(seconds)
                + " is outside the DateTime range 1970..2106";
    }
}
