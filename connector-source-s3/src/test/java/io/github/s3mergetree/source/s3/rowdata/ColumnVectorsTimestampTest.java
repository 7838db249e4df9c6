package io.github.s3mergetree.source.s3.rowdata;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;

/**
 * DateTime64 ticks before 1970 with a fraction of a second into Flink's TIMESTAMP (wall clock in
 * the column's zone) and TIMESTAMP_LTZ (the instant): the fraction counts forward from the floor
 * second, so a negative tick count keeps the date-time it stands for.
 */
class ColumnVectorsTimestampTest {

    private static TimestampData read(String type, long ticks, boolean ltz, int precision) {
        LongColumn c = new LongColumn(1);
        c.add(ticks);
        ColumnVectors.Reader r =
                ColumnVectors.plan(
                        "d",
                        DataTypeParser.parse(type),
                        ltz ? new LocalZonedTimestampType(precision) : new TimestampType(precision),
                        ZoneId.of("UTC"));
        return r.vector(c).getTimestamp(0, precision);
    }

    private static long ticks(Instant i, int precision) {
        long perSecond = (long) Math.pow(10, precision);
        return i.getEpochSecond() * perSecond + i.getNano() / (1_000_000_000L / perSecond);
    }

    @Test
    void preEpochTicksWithAFractionAreTheDateTimeTheyStandFor() {
        Instant a = Instant.parse("1921-01-03T06:08:46.045Z");
        assertThat(read("DateTime64(3)", ticks(a, 3), false, 3).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1921, 1, 3, 6, 8, 46, 45_000_000));
        assertThat(read("DateTime64(3)", ticks(a, 3), true, 3).toInstant()).isEqualTo(a);

        Instant b = Instant.parse("1967-01-02T21:15:26.947361Z");
        assertThat(read("DateTime64(6)", ticks(b, 6), true, 6).toInstant()).isEqualTo(b);
        // in the column's zone, wall clock
        ZoneId ny = ZoneId.of("America/New_York");
        assertThat(
                        read("DateTime64(6, 'America/New_York')", ticks(b, 6), false, 6)
                                .toLocalDateTime())
                .isEqualTo(LocalDateTime.ofInstant(b, ny));

        Instant c = Instant.parse("1900-01-01T00:00:00.000000001Z");
        assertThat(read("DateTime64(9)", ticks(c, 9), true, 9).toInstant()).isEqualTo(c);
        assertThat(read("DateTime64(9)", -1, false, 9).toLocalDateTime())
                .isEqualTo(LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999));
        // a Flink precision below the column's truncates towards the past
        assertThat(read("DateTime64(9)", -1, true, 3).toInstant())
                .isEqualTo(Instant.parse("1969-12-31T23:59:59.999Z"));
        assertThat(read("DateTime64(3)", ticks(a, 3), false, 0).toLocalDateTime())
                .isEqualTo(LocalDateTime.ofEpochSecond(a.getEpochSecond(), 0, ZoneOffset.UTC));
    }
}
