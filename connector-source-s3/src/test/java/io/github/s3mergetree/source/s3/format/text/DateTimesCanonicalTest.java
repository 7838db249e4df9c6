package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast path of best-effort date-time parsing ({@code YYYY-MM-DD hh:mm:ss[.fraction]}) gives
 * exactly what the general path gives — value, fraction, position after it, or the same error — for
 * valid and invalid fields, every suffix that matters (quotes, delimiters, line ends, offsets,
 * {@code Z}, AM/PM, more digits), time zones with and without transitions, and values cut by the
 * end of a streaming cursor's buffer.
 */
class DateTimesCanonicalTest {
    private static final List<String> SUFFIXES =
            List.of(
                    "", "\"", "'", ",", "\n", "\r\n", "\t", "Z", "+03:00", "-0530", " PM", " AM",
                    " UTC", "x", "1", " ", "T", ".", ":00");
    private static final List<ZoneId> ZONES =
            List.of(
                    ZoneId.of("UTC"),
                    ZoneId.of("Europe/Moscow"),
                    ZoneId.of("America/New_York"),
                    ZoneId.of("Asia/Kolkata"));

    /** What one parse produced: its fields and the position after it, or its error. */
    private static String outcome(
            String text, int bufferSize, ZoneId zone, boolean fractional, boolean general) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        TextCursor in =
                bufferSize == 0
                        ? TextCursor.inMemory().reset(b, 0, b.length)
                        : new TextCursor(new ByteArrayInputStream(b), 0, 1, bufferSize);
        DateTimes.Parsed p = new DateTimes.Parsed();
        try {
            if (general) {
                DateTimes.readBestEffortGeneral(in, zone, false, fractional, p);
            } else {
                DateTimes.readBestEffort(in, zone, false, fractional, p);
            }
        } catch (TextParseException e) {
            return "error: " + e.getMessage();
        }
        return p.seconds + "/" + p.fraction + "/" + p.fractionDigits + " at " + in.offset();
    }

    private static String two(Random r, int max) {
        return String.format("%02d", r.nextInt(max));
    }

    private static String randomCanonical(Random r) {
        String y =
                switch (r.nextInt(6)) {
                    case 0 -> "0000";
                    case 1 -> String.format("%04d", 1890 + r.nextInt(20));
                    case 2 -> String.format("%04d", 2290 + r.nextInt(20));
                    default -> String.format("%04d", 1970 + r.nextInt(60));
                };
        String s =
                y
                        + "-"
                        + (r.nextInt(8) == 0
                                ? two(r, 14)
                                : String.format("%02d", 1 + r.nextInt(12)))
                        + "-"
                        + (r.nextInt(8) == 0
                                ? two(r, 33)
                                : String.format("%02d", 1 + r.nextInt(28)))
                        + (r.nextInt(20) == 0 ? "T" : " ")
                        + (r.nextInt(8) == 0 ? two(r, 26) : two(r, 24))
                        + ":"
                        + (r.nextInt(8) == 0 ? two(r, 62) : two(r, 60))
                        + ":"
                        + (r.nextInt(8) == 0 ? two(r, 62) : two(r, 60));
        if (r.nextInt(30) == 0) { // a non-digit where a digit belongs
            char[] c = s.toCharArray();
            c[r.nextInt(c.length)] = 'a';
            s = new String(c);
        }
        if (r.nextInt(3) > 0) {
            StringBuilder f = new StringBuilder(".");
            int n = r.nextInt(10) == 0 ? r.nextInt(25) : 1 + r.nextInt(9);
            for (int i = 0; i < n; i++) {
                f.append((char) ('0' + r.nextInt(10)));
            }
            s += f;
        }
        return s + SUFFIXES.get(r.nextInt(SUFFIXES.size()));
    }

    @Test
    void theFastPathAgreesWithTheGeneralPath() {
        Random r = new Random(11);
        int fast = 0;
        for (int i = 0; i < 40_000; i++) {
            String text = randomCanonical(r);
            ZoneId zone = ZONES.get(r.nextInt(ZONES.size()));
            boolean fractional = r.nextBoolean();
            int bufferSize = r.nextInt(3) == 0 ? 8 + r.nextInt(40) : 0;
            String expected = outcome(text, bufferSize, zone, fractional, true);
            String actual = outcome(text, bufferSize, zone, fractional, false);
            assertThat(actual)
                    .as("'%s' in %s, fractional %s, buffer %d", text, zone, fractional, bufferSize)
                    .isEqualTo(expected);
            byte[] b = text.getBytes(StandardCharsets.US_ASCII);
            if (DateTimes.readCanonical(
                    TextCursor.inMemory().reset(b, 0, b.length),
                    zone,
                    fractional,
                    new DateTimes.Parsed())) {
                fast++;
            }
        }
        assertThat(fast).as("inputs taken by the fast path").isGreaterThan(5_000);
    }

    @Test
    void whatClickHouseWritesTakesTheFastPath() {
        for (String s :
                List.of(
                        "2008-07-01 00:00:00.000\"",
                        "2008-07-01 12:34:56,",
                        "2024-02-29 23:59:59.123456789\n",
                        "1999-12-31 23:59:59")) {
            byte[] b = s.getBytes(StandardCharsets.US_ASCII);
            DateTimes.Parsed p = new DateTimes.Parsed();
            TextCursor in = TextCursor.inMemory().reset(b, 0, b.length);
            assertThat(DateTimes.readCanonical(in, ZoneId.of("UTC"), true, p)).as(s).isTrue();
            assertThat(outcome(s, 0, ZoneId.of("UTC"), true, false))
                    .isEqualTo(outcome(s, 0, ZoneId.of("UTC"), true, true));
        }
        DateTimes.Parsed p = new DateTimes.Parsed();
        byte[] b = "2008-07-01 00:00:01.5\"".getBytes(StandardCharsets.US_ASCII);
        DateTimes.readBestEffort(
                TextCursor.inMemory().reset(b, 0, b.length), ZoneId.of("UTC"), false, true, p);
        assertThat(p.seconds).isEqualTo(1214870401L);
        assertThat(p.fraction).isEqualTo(5);
        assertThat(p.fractionDigits).isEqualTo(1);
    }
}
