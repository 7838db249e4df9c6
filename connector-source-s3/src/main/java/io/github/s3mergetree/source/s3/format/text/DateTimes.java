package io.github.s3mergetree.source.s3.format.text;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.util.function.LongSupplier;

/**
 * Dates and date-times from text with ClickHouse's rules: {@code readDateText} (YYYY-MM-DD,
 * YYYYMMDD, one-digit months and days, any non-digit separator), {@code date_time_input_format =
 * basic} ({@code readDateTimeTextFallback}: YYYY-MM-DD[ hh:mm:ss] or a unix timestamp) and {@code
 * best_effort} ({@code parseDateTimeBestEffort}: ISO 8601 with {@code T}, {@code Z} and offsets,
 * RFC 2822, month names, AM/PM, unix timestamps, ...), and ClickHouse's date LUT arithmetic (years
 * 1900..2299, a day past the month's end rolls over, out-of-range values saturate).
 */
final class DateTimes {
    private DateTimes() {}

    static final int LUT_MIN_YEAR = 1900;
    static final int LUT_MAX_YEAR = 2299;

    /** Day number of 1900-01-01 and of 2299-12-31. */
    static final long LUT_FIRST_DAY = LocalDate.of(LUT_MIN_YEAR, 1, 1).toEpochDay();

    static final long LUT_LAST_DAY = LocalDate.of(LUT_MAX_YEAR, 12, 31).toEpochDay();

    /**
     * The smallest {@code basic} DateTime64 unix timestamp (without a fraction) that ClickHouse
     * (26.x) takes as ticks rather than seconds: 10000-01-01 00:00:00 UTC, past the last second a
     * DateTime64 can show.
     */
    static final long SCALED_TICKS_FROM = 253_402_300_800L;

    /** The years ClickHouse's date-time arithmetic represents outside its LUT (cctz). */
    static final int MIN_REPRESENTABLE_YEAR = 0;

    static final int MAX_REPRESENTABLE_YEAR = 9999;

    /** The clock giving "now" to best-effort parsing of dates without a year (tests fix it). */
    static volatile LongSupplier clock = System::currentTimeMillis;

    /**
     * ClickHouse's {@code makeDayNum}: {@code errorDay} for an impossible month or day or a year
     * before 1900, the last LUT day for years after 2299, days past a month's end rolling over.
     */
    static long makeDayNum(int year, int month, int day, long errorDay) {
        if (year < LUT_MIN_YEAR || month < 1 || month > 12 || day < 1 || day > 31) {
            return errorDay;
        }
        if (year > LUT_MAX_YEAR) {
            return LUT_LAST_DAY;
        }
        long d = LocalDate.of(year, month, 1).toEpochDay() + day - 1;
        return Math.min(d, LUT_LAST_DAY);
    }

    /** {@code makeLUTIndex} as a day number: 1900-01-01 for impossible dates. */
    static long lutDay(int year, int month, int day) {
        return makeDayNum(year, month, day, LUT_FIRST_DAY);
    }

    /**
     * ClickHouse's {@code DateLUTImpl::makeDateTime} in {@code zone}: a year outside the LUT
     * (1900..2299) with a month 1..12 and a day 1..31 is computed on the proleptic calendar ({@code
     * makeDateTimeOutOfRange}: the year clamped to 0..9999, fields past their range rolling over,
     * the later instant of a repeated local time, the offset after a skipped one); any other
     * impossible date is the LUT's first day.
     */
    static long makeDateTime(ZoneId zone, int year, int month, int day, int h, int m, int s) {
        if ((year < LUT_MIN_YEAR || year > LUT_MAX_YEAR)
                && month >= 1
                && month <= 12
                && day >= 1
                && day <= 31) {
            return makeDateTimeOutOfRange(zone, year, month, day, h, m, s);
        }
        long dayNum = lutDay(year, month, day);
        long timeOffset = h * 3600L + m * 60L + s;
        if (zone == ZoneOffset.UTC || "UTC".equals(zone.getId())) {
            return dayNum * 86400 + timeOffset;
        }
        LocalDate date = LocalDate.ofEpochDay(dayNum);
        long start = date.atStartOfDay(zone).toEpochSecond();
        if (zone.getRules().isFixedOffset()) {
            return start + timeOffset;
        }
        long next = date.plusDays(1).atStartOfDay(zone).toEpochSecond();
        ZoneOffsetTransition t = zone.getRules().nextTransition(Instant.ofEpochSecond(start));
        if (t != null && t.toEpochSecond() < next) {
            long at = t.toEpochSecond() - start;
            long amount =
                    t.getOffsetAfter().getTotalSeconds() - t.getOffsetBefore().getTotalSeconds();
            if (timeOffset >= at) {
                timeOffset -= amount;
            }
        }
        return start + timeOffset;
    }

    private static long makeDateTimeOutOfRange(
            ZoneId zone, int year, int month, int day, int h, int m, int s) {
        int y = Math.max(MIN_REPRESENTABLE_YEAR, Math.min(MAX_REPRESENTABLE_YEAR, year));
        java.time.LocalDateTime local =
                java.time.LocalDateTime.of(y, month, 1, 0, 0)
                        .plusDays(day - 1L)
                        .plusHours(h)
                        .plusMinutes(m)
                        .plusSeconds(s);
        ZoneOffsetTransition t = zone.getRules().getTransition(local);
        ZoneOffset offset = t != null ? t.getOffsetAfter() : zone.getRules().getOffset(local);
        return local.toEpochSecond(offset);
    }

    /** A date as read by {@code readDateText}: year, month and day, not validated. */
    record YMD(int year, int month, int day) {}

    private static boolean digit(int c) {
        return c >= '0' && c <= '9';
    }

    /**
     * {@code readDateText}: {@code YYYY?M?D}, {@code YYYY?MM?DD} with any non-digit separators, or
     * {@code YYYYMMDD}.
     */
    static YMD readDate(TextCursor in) {
        int y = 0;
        for (int i = 0; i < 4; i++) {
            int c = in.peek();
            if (!digit(c)) {
                if (c < 0 || i > 0 || !hasMore(in, 10)) {
                    throw new TextParseException("Cannot parse date: value is too short");
                }
                throw new TextParseException("Cannot parse date here: " + in.snippet(10));
            }
            y = y * 10 + (c - '0');
            in.pos++;
        }
        if (in.eof()) {
            throw new TextParseException("Cannot parse date: value is too short");
        }
        int month = 0;
        int day = 0;
        if (digit(in.buf[in.pos])) {
            for (int i = 0; i < 2; i++) {
                int c = in.peek();
                if (!digit(c)) {
                    throw new TextParseException("Cannot parse date: value is too short");
                }
                month = month * 10 + (c - '0');
                in.pos++;
            }
            for (int i = 0; i < 2; i++) {
                int c = in.peek();
                if (!digit(c)) {
                    throw new TextParseException("Cannot parse date: value is too short");
                }
                day = day * 10 + (c - '0');
                in.pos++;
            }
        } else {
            in.pos++;
            int c = in.peek();
            if (!digit(c)) {
                throw new TextParseException("Cannot parse date: value is too short");
            }
            month = c - '0';
            in.pos++;
            c = in.peek();
            if (digit(c)) {
                month = month * 10 + (c - '0');
                in.pos++;
                c = in.peek();
            }
            if (c < 0 || digit(c)) {
                throw new TextParseException("Cannot parse date: value is too short");
            }
            in.pos++;
            c = in.peek();
            if (!digit(c)) {
                throw new TextParseException("Cannot parse date: value is too short");
            }
            day = c - '0';
            in.pos++;
            c = in.peek();
            if (digit(c)) {
                day = day * 10 + (c - '0');
                in.pos++;
            }
        }
        return new YMD(y, month, day);
    }

    private static boolean hasMore(TextCursor in, int n) {
        int avail = in.end - in.pos;
        if (avail >= n) {
            return true;
        }
        in.pin();
        try {
            while (in.end - in.pos < n && in.fill()) {
                // read on
            }
            return in.end - in.pos >= n;
        } finally {
            in.unpin();
        }
    }

    /**
     * The result of parsing a date-time: seconds since the epoch and a fraction of a second. The
     * fraction counts forward from {@link #seconds} (as the text reads: {@code 1921-01-03
     * 06:08:46.045} is the second {@code 06:08:46} plus 45 ms, whatever the sign of its epoch
     * second), except after a unix timestamp written with a minus sign ({@link
     * #negativeTimestamp}), whose fraction counts away from zero as its digits do: {@code -1.5} is
     * -1.5 s.
     */
    static final class Parsed {
        long seconds;
        long fraction;
        int fractionDigits;

        /** The value was a unix timestamp with a leading {@code -} ({@code basic}, DateTime64). */
        boolean negativeTimestamp;

        /**
         * {@link #seconds} holds DateTime64 ticks, not seconds: a {@code basic} unix timestamp of
         * at least {@link #SCALED_TICKS_FROM} without a fraction (ClickHouse reads it as a
         * timestamp already multiplied by the precision's power of ten).
         */
        boolean scaledTicks;

        final int[] digits = new int[19];
        final char[] alpha = new char[9];
        final char[] rest = new char[7];

        void reset() {
            seconds = 0;
            fraction = 0;
            fractionDigits = 0;
            negativeTimestamp = false;
            scaledTicks = false;
        }
    }

    /**
     * {@code readDateTimeTextImpl} ({@code date_time_input_format = basic}): a unix timestamp or
     * {@code YYYY-MM-DD[( |T)hh:mm:ss]}, read as ClickHouse reads them with 19 bytes ahead ({@link
     * #readBasicWhole}) or fewer ({@code readDateTimeTextFallback}: a unix timestamp of at least 5
     * digits, any separators).
     */
    static void readBasic(TextCursor in, ZoneId zone, boolean dt64, Parsed out) {
        out.reset();
        if (!dt64 && !in.eof() && !digit(in.buf[in.pos])) {
            throw new TextParseException("Cannot parse datetime");
        }
        out.negativeTimestamp = in.at('-');
        if (hasMore(in, 19)) {
            readBasicWhole(in, zone, out);
            return;
        }
        readBasicFallback(in, zone, dt64, out);
    }

    /**
     * The path of ClickHouse's {@code readDateTimeTextImpl} taken when at least 19 bytes follow
     * (almost always: they need not belong to the value): if the fifth byte is not a digit, a date
     * {@code YYYY?MM?DD} and, after a space or {@code T}, a time {@code hh?mm?ss} at fixed
     * positions, whatever the bytes there (ClickHouse does not check them: a short value such as
     * {@code -57} takes bytes of what follows it, which then fails to parse); otherwise a unix
     * timestamp ({@code readIntText}: a sign, digits).
     */
    private static void readBasicWhole(TextCursor in, ZoneId zone, Parsed out) {
        byte[] s = in.buf;
        int p = in.pos;
        if (digit(s[p + 4])) {
            out.seconds = Numbers.readInt(in, true);
            return;
        }
        int year =
                (short)
                        (((s[p] - '0') * 1000
                                + (s[p + 1] - '0') * 100
                                + (s[p + 2] - '0') * 10
                                + (s[p + 3] - '0')));
        int month = ((s[p + 5] - '0') * 10 + (s[p + 6] - '0')) & 0xFF;
        int day = ((s[p + 8] - '0') * 10 + (s[p + 9] - '0')) & 0xFF;
        int h = 0;
        int mi = 0;
        int sec = 0;
        boolean dateTime = s[p + 10] == ' ' || s[p + 10] == 'T';
        if (dateTime) {
            h = ((s[p + 11] - '0') * 10 + (s[p + 12] - '0')) & 0xFF;
            mi = ((s[p + 14] - '0') * 10 + (s[p + 15] - '0')) & 0xFF;
            sec = ((s[p + 17] - '0') * 10 + (s[p + 18] - '0')) & 0xFF;
        }
        out.seconds = year == 0 ? 0 : makeDateTime(zone, year, month, day, h, mi, sec);
        in.pos += dateTime ? 19 : 10;
    }

    /** {@code readDateTimeTextFallback}: fewer than 19 bytes are left. */
    private static void readBasicFallback(TextCursor in, ZoneId zone, boolean dt64, Parsed out) {
        boolean negative = false;
        if (in.at('-')) {
            if (!dt64) {
                throw new TextParseException("Cannot parse DateTime");
            }
            negative = true;
            in.pos++;
        }
        byte[] s = new byte[19];
        int n = 0;
        while (n < 19 && (in.pos < in.end || in.fill()) && digit(in.buf[in.pos])) {
            s[n++] = in.buf[in.pos++];
        }
        if (!negative && n == 4 && !in.eof() && !digit(in.buf[in.pos])) {
            for (; n < 10; n++) {
                int c = in.peek();
                if (c < 0) {
                    throw new TextParseException("Cannot parse DateTime");
                }
                s[n] = (byte) c;
                in.pos++;
            }
            int year = num(s, 0, 4);
            int month = num(s, 5, 2);
            int day = num(s, 8, 2);
            int h = 0;
            int mi = 0;
            int sec = 0;
            if (in.at(' ') || in.at('T')) {
                in.pos++;
                byte[] t = new byte[8];
                for (int i = 0; i < 8; i++) {
                    int c = in.peek();
                    if (c < 0) {
                        throw new TextParseException("Cannot parse time component of DateTime");
                    }
                    t[i] = (byte) c;
                    in.pos++;
                }
                h = num(t, 0, 2);
                mi = num(t, 3, 2);
                sec = num(t, 6, 2);
            }
            out.seconds = year == 0 ? 0 : makeDateTime(zone, year, month, day, h, mi, sec);
            return;
        }
        if (n <= 4 && !(dt64 && (negative || in.at('.')))) {
            throw new TextParseException("Cannot parse DateTime");
        }
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = v * 10 + (s[i] - '0');
        }
        out.seconds = negative ? -v : v;
    }

    /** Digits of {@code s[off, off + len)} as ClickHouse computes them (no validation). */
    private static int num(byte[] s, int off, int len) {
        int v = 0;
        for (int i = off; i < off + len; i++) {
            v = v * 10 + (s[i] - '0');
        }
        return v;
    }

    private static long decimal(int[] d, int from, int count) {
        long v = 0;
        for (int i = from; i < from + count; i++) {
            v = v * 10 + d[i];
        }
        return v;
    }

    private static int readDigits(TextCursor in, int[] res, int max) {
        int n = 0;
        while (n < max && (in.pos < in.end || in.fill()) && digit(in.buf[in.pos])) {
            res[n++] = in.buf[in.pos++] - '0';
        }
        return n;
    }

    private static int readAlpha(TextCursor in, char[] res, int max) {
        int n = 0;
        while (n < max && (in.pos < in.end || in.fill()) && Numbers.isAsciiLetter(in.buf[in.pos])) {
            res[n++] = (char) in.buf[in.pos++];
        }
        return n;
    }

    private static int month(char[] a) {
        String w = new String(a, 0, 3).toLowerCase(java.util.Locale.ROOT);
        return switch (w) {
            case "jan" -> 1;
            case "feb" -> 2;
            case "mar" -> 3;
            case "apr" -> 4;
            case "may" -> 5;
            case "jun" -> 6;
            case "jul" -> 7;
            case "aug" -> 8;
            case "sep" -> 9;
            case "oct" -> 10;
            case "nov" -> 11;
            case "dec" -> 12;
            default -> 0;
        };
    }

    private static final java.util.Set<String> FULL_NAMES =
            java.util.Set.of(
                    "january",
                    "february",
                    "march",
                    "april",
                    "june",
                    "july",
                    "august",
                    "september",
                    "october",
                    "november",
                    "december",
                    "monday",
                    "tuesday",
                    "wednesday",
                    "thursday",
                    "friday",
                    "saturday",
                    "sunday");

    private static final java.util.Set<String> WEEKDAYS =
            java.util.Set.of("mon", "tue", "wed", "thu", "fri", "sat", "sun");

    private static TextParseException bad(String what) {
        return new TextParseException("Cannot read DateTime: " + what);
    }

    /**
     * ClickHouse's {@code parseDateTimeBestEffort} ({@code usStyle}: {@code best_effort_us}, MM/DD
     * before DD/MM; {@code fractional}: DateTime64, which keeps a fraction of a second). Dates
     * without a year take the current one (or the previous one for a day after today), as
     * ClickHouse does for syslog timestamps.
     */
    static void readBestEffort(
            TextCursor in, ZoneId local, boolean usStyle, boolean fractional, Parsed out) {
        if (readCanonical(in, local, fractional, out)) {
            return;
        }
        readBestEffortGeneral(in, local, usStyle, fractional, out);
    }

    /**
     * The fast path of {@link #readBestEffort} for the shape almost every file has, {@code
     * YYYY-MM-DD hh:mm:ss[.fraction]} (what ClickHouse itself writes), followed by a byte after
     * which best-effort parsing reads nothing more (a quote, a delimiter, a line end, the end): the
     * same components, the same result as the general path, without its per-character dispatch.
     * Anything else — other shapes, offsets, {@code Z}, AM/PM, out-of-range fields, a value not
     * wholly in the buffer — is left to the general path (returns false, nothing read).
     */
    static boolean readCanonical(TextCursor in, ZoneId local, boolean fractional, Parsed out) {
        byte[] b = in.buf;
        int p = in.pos;
        int end = in.end;
        if (end - p < 19
                || b[p + 4] != '-'
                || b[p + 7] != '-'
                || b[p + 10] != ' '
                || b[p + 13] != ':'
                || b[p + 16] != ':') {
            return false;
        }
        int year = digits(b, p, 4);
        int month = digits(b, p + 5, 2);
        int day = digits(b, p + 8, 2);
        int hour = digits(b, p + 11, 2);
        int minute = digits(b, p + 14, 2);
        int second = digits(b, p + 17, 2);
        if (year <= 0
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59
                || month < 0
                || day < 0
                || !validDate(year, month, day)) {
            return false; // not digits, or a value the general path decides on
        }
        int q = p + 19;
        long fraction = 0;
        int kept = 0;
        if (q < end && b[q] == '.') {
            if (!fractional) {
                return false;
            }
            int f = q + 1;
            while (f < end && digit(b[f]) && kept < 18) {
                fraction = fraction * 10 + (b[f] - '0');
                kept++;
                f++;
            }
            if (kept == 0 || (f < end && digit(b[f]))) {
                return false; // no digits, or more than 18: the general path decides
            }
            q = f;
        }
        if (q < end) {
            byte c = b[q];
            if (c != '"' && c != '\'' && c != ',' && c != '\t' && c != '\n' && c != '\r') {
                return false;
            }
        } else if (!in.exhausted()) {
            return false; // more input may follow in the stream: let the general path look
        }
        out.reset();
        out.seconds = makeDateTime(local, year, month, day, hour, minute, second);
        if (q > p + 19) {
            out.fraction = fraction;
            out.fractionDigits = kept;
        }
        in.pos = q;
        return true;
    }

    /** The value of {@code n} ASCII digits at {@code b[p..]}, or -1 if one is not a digit. */
    private static int digits(byte[] b, int p, int n) {
        int v = 0;
        for (int i = p; i < p + n; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** {@link #readBestEffort} without its fast path (tests compare the two). */
    static void readBestEffortGeneral(
            TextCursor in, ZoneId local, boolean usStyle, boolean fractional, Parsed out) {
        out.reset();
        int year = 0;
        int month = 0;
        int day = 0;
        int hour = 0;
        int minute = 0;
        int second = 0;
        boolean hasTime = false;
        boolean hasFractional = false;
        boolean hasOffset = false;
        boolean offsetNegative = false;
        int offsetHour = 0;
        int offsetMinute = 0;
        boolean am = false;
        boolean pm = false;
        boolean commaBetween = false;
        int[] d = out.digits;
        while (!in.eof()) {
            if ((year != 0 && !hasTime) || (year == 0 && hasTime)) {
                if (in.buf[in.pos] == ',') {
                    commaBetween = true;
                    in.pos++;
                    if (in.eof()) {
                        break;
                    }
                }
            }
            int n = 0;
            if (year == 0 || !hasTime) {
                n = readDigits(in, d, 19);
                if (n == 13 && year == 0 && !hasTime) {
                    out.seconds = decimal(d, 0, 10);
                    if (fractional) {
                        out.fraction = decimal(d, 10, 3);
                        out.fractionDigits = 3;
                    }
                    return;
                }
                if ((n == 10 || n == 9) && year == 0 && !hasTime) {
                    out.seconds = decimal(d, 0, n);
                    if (fractional && in.at('.')) {
                        in.pos++;
                        int k = readDigits(in, d, 19);
                        int keep = Math.min(18, k);
                        out.fraction = decimal(d, 0, keep);
                        out.fractionDigits = keep;
                    }
                    return;
                }
                if (n == 14 && year == 0 && !hasTime) {
                    year = (int) decimal(d, 0, 4);
                    month = (int) decimal(d, 4, 2);
                    day = (int) decimal(d, 6, 2);
                    hour = (int) decimal(d, 8, 2);
                    minute = (int) decimal(d, 10, 2);
                    second = (int) decimal(d, 12, 2);
                    hasTime = true;
                } else if (n == 8 && year == 0) {
                    year = (int) decimal(d, 0, 4);
                    month = (int) decimal(d, 4, 2);
                    day = (int) decimal(d, 6, 2);
                } else if (n == 6) {
                    if (year == 0 && month == 0) {
                        year = (int) decimal(d, 0, 4);
                        month = (int) decimal(d, 4, 2);
                    } else if (!hasTime) {
                        hour = (int) decimal(d, 0, 2);
                        minute = (int) decimal(d, 2, 2);
                        second = (int) decimal(d, 4, 2);
                        hasTime = true;
                    } else {
                        throw bad("ambiguous 6 digits, it can be YYYYMM or hhmmss");
                    }
                } else if (n == 4 && year == 0) {
                    year = (int) decimal(d, 0, 4);
                    if (!in.eof()) {
                        int delim = in.buf[in.pos];
                        if ((delim >= 0 && delim < 0x20)
                                || delim == ','
                                || delim == ';'
                                || delim == '\''
                                || delim == '"') {
                            break;
                        }
                        if (month != 0) {
                            continue;
                        }
                        in.pos++;
                        n = readDigits(in, d, 19);
                        if (n == 2 || n == 1) {
                            month = (int) decimal(d, 0, n);
                        } else if (delim == ' ') {
                            continue;
                        } else {
                            throw bad("unexpected number of decimal digits after year: " + n);
                        }
                        if (day == 0 && in.check((char) delim)) {
                            n = readDigits(in, d, 19);
                            if (n == 2 || n == 1) {
                                day = (int) decimal(d, 0, n);
                            } else if (delim == ' ') {
                                continue;
                            } else {
                                throw bad(
                                        "unexpected number of decimal digits after year and"
                                                + " month: "
                                                + n);
                            }
                        }
                    }
                } else if (n == 2 || n == 1) {
                    int v = (int) decimal(d, 0, n);
                    if (in.check(':')) {
                        if (hasTime) {
                            throw bad("time component is duplicated");
                        }
                        hour = v;
                        hasTime = true;
                        n = readDigits(in, d, 19);
                        if (n == 2 || n == 1) {
                            minute = (int) decimal(d, 0, n);
                        } else {
                            throw bad("unexpected number of decimal digits after hour: " + n);
                        }
                        if (in.check(':')) {
                            n = readDigits(in, d, 19);
                            if (n == 2 || n == 1) {
                                second = (int) decimal(d, 0, n);
                            } else {
                                throw bad(
                                        "unexpected number of decimal digits after hour and"
                                                + " minute: "
                                                + n);
                            }
                        }
                    } else if (in.check(',')) {
                        if (month != 0 && day == 0) {
                            day = v;
                        }
                    } else if (in.check('/') || in.check('.') || in.check('-')) {
                        if (day != 0) {
                            throw bad("day of month is duplicated");
                        }
                        if (month != 0) {
                            throw bad("month is duplicated");
                        }
                        if (usStyle) {
                            month = v;
                            n = readDigits(in, d, 19);
                            if (n == 2 || n == 1) {
                                day = (int) decimal(d, 0, n);
                            } else {
                                throw bad("unexpected number of decimal digits after month: " + n);
                            }
                        } else {
                            day = v;
                            n = readDigits(in, d, 19);
                            if (n == 2 || n == 1) {
                                month = (int) decimal(d, 0, n);
                            } else if (n == 0) {
                                char[] alpha = out.alpha;
                                int na = readAlpha(in, alpha, 9);
                                if (na < 3) {
                                    throw bad(
                                            "unexpected number of alphabetical characters after"
                                                    + " day of month: "
                                                    + na);
                                }
                                month = month(alpha);
                                if (month == 0) {
                                    throw bad(
                                            "alphabetical characters after day of month don't"
                                                    + " look like month: "
                                                    + new String(alpha, 0, 3));
                                }
                                if (!in.eof() && Numbers.isAsciiLetter(in.buf[in.pos])) {
                                    throw bad("unexpected word");
                                }
                                if (na > 3
                                        && !FULL_NAMES.contains(
                                                new String(alpha, 0, na)
                                                        .toLowerCase(java.util.Locale.ROOT))) {
                                    throw bad("unexpected word");
                                }
                            } else {
                                throw bad(
                                        "unexpected number of decimal digits after day of month: "
                                                + n);
                            }
                        }
                        if (month > 12) {
                            int t = month;
                            month = day;
                            day = t;
                        }
                        if (in.check('/') || in.check('.') || in.check('-')) {
                            if (year != 0) {
                                throw bad("year component is duplicated");
                            }
                            n = readDigits(in, d, 19);
                            if (n == 4) {
                                year = (int) decimal(d, 0, 4);
                            } else if (n == 2) {
                                year = (int) decimal(d, 0, 2);
                                year += year >= 70 ? 1900 : 2000;
                            } else {
                                throw bad(
                                        "unexpected number of decimal digits after day of month"
                                                + " and month: "
                                                + n);
                            }
                        }
                    } else {
                        if (day != 0) {
                            hour = v;
                        } else {
                            day = v;
                        }
                    }
                } else if (n != 0) {
                    throw bad("unexpected number of decimal digits: " + n);
                }
            }
            if (n == 0) {
                if (in.eof()) {
                    break;
                }
                int c = in.buf[in.pos];
                if (c == ' ' || (c == 'T' && year != 0 && !hasTime)) {
                    in.pos++;
                } else if (c == 'Z') {
                    in.pos++;
                    hasOffset = true;
                } else if (c == '.') {
                    if (!hasTime) {
                        throw bad("unexpected point symbol");
                    }
                    if (hasFractional) {
                        throw bad("duplicate fractional part");
                    }
                    hasFractional = true;
                    in.pos++;
                    int k = readDigits(in, d, 19);
                    if (fractional) {
                        int keep = Math.min(18, k);
                        out.fraction = decimal(d, 0, keep);
                        out.fractionDigits = keep;
                    }
                } else if (c == '+' || c == '-') {
                    in.pos++;
                    n = readDigits(in, d, 19);
                    if (n == 6 && !hasTime && year != 0 && month != 0 && day != 0) {
                        hour = (int) decimal(d, 0, 2);
                        minute = (int) decimal(d, 2, 2);
                        second = (int) decimal(d, 4, 2);
                        hasTime = true;
                    } else {
                        hasOffset = true;
                        if (c == '-') {
                            offsetNegative = true; // as ClickHouse: a later '+' does not reset it
                        }
                        // ClickHouse's readDecimalNumber adds to the field: a second offset adds up
                        switch (n) {
                            case 4 -> {
                                offsetHour = (offsetHour + (int) decimal(d, 0, 2)) & 0xFF;
                                offsetMinute = (offsetMinute + (int) decimal(d, 2, 2)) & 0xFF;
                            }
                            case 3 -> {
                                offsetHour = (offsetHour + (int) decimal(d, 0, 1)) & 0xFF;
                                offsetMinute = (offsetMinute + (int) decimal(d, 1, 2)) & 0xFF;
                            }
                            case 2, 1 -> offsetHour = (offsetHour + (int) decimal(d, 0, n)) & 0xFF;
                            default ->
                                    throw bad(
                                            "unexpected number of decimal digits for time zone"
                                                    + " offset: "
                                                    + n);
                        }
                        if (n < 3 && in.check(':')) {
                            n = readDigits(in, d, 19);
                            if (n == 2 || n == 1) {
                                offsetMinute = (offsetMinute + (int) decimal(d, 0, n)) & 0xFF;
                            } else {
                                throw bad(
                                        "unexpected number of decimal digits for time zone offset"
                                                + " in minutes: "
                                                + n);
                            }
                        }
                    }
                } else {
                    char[] alpha = out.alpha;
                    int na = readAlpha(in, alpha, 3);
                    if (na == 0) {
                        break;
                    }
                    if (na == 1) {
                        throw bad("unexpected alphabetical character");
                    }
                    if (na == 2) {
                        char a0 = Character.toLowerCase(alpha[0]);
                        char a1 = Character.toLowerCase(alpha[1]);
                        if (a1 == 'm' && a0 == 'a') {
                            am = true;
                        } else if (a1 == 'm' && a0 == 'p') {
                            pm = true;
                        } else {
                            throw bad("unexpected word");
                        }
                    } else {
                        boolean weekday = false;
                        String w = new String(alpha, 0, 3).toLowerCase(java.util.Locale.ROOT);
                        int mm = month(alpha);
                        if (mm != 0) {
                            month = mm;
                        } else if (w.equals("utc") || w.equals("gmt")) {
                            hasOffset = true;
                        } else if (w.equals("msk")) {
                            hasOffset = true;
                            offsetHour = 3;
                        } else if (w.equals("msd")) {
                            hasOffset = true;
                            offsetHour = 4;
                        } else if (WEEKDAYS.contains(w)) {
                            weekday = true;
                        } else {
                            throw bad("unexpected word");
                        }
                        char[] rest = out.rest;
                        int nr = readAlpha(in, rest, 7);
                        if (!in.eof() && Numbers.isAsciiLetter(in.buf[in.pos])) {
                            throw bad("unexpected word");
                        }
                        if (nr > 0
                                && !FULL_NAMES.contains(
                                        (w + new String(rest, 0, nr))
                                                .toLowerCase(java.util.Locale.ROOT))) {
                            throw bad("unexpected word");
                        }
                        if (weekday) {
                            in.check(',');
                        }
                    }
                }
            }
        }
        if (commaBetween && (!hasTime || year == 0 || month == 0 || day == 0)) {
            throw bad("unexpected word after Date");
        }
        if (year == 0 && month == 0 && day == 0 && !hasTime) {
            throw bad("neither Date nor Time was parsed successfully");
        }
        if (day == 0) {
            day = 1;
        }
        if (month == 0) {
            month = 1;
        }
        if (year == 0) {
            LocalDate today = Instant.ofEpochMilli(clock.getAsLong()).atZone(local).toLocalDate();
            int cy = today.getYear();
            long candidate = makeDayNum(cy, month, day, 0);
            year = candidate <= today.toEpochDay() ? cy : cy - 1;
        }
        if (!validDate(year, month, day)) {
            throw bad("unexpected date: " + year + "-" + month + "-" + day);
        }
        if (am && hour == 12) {
            hour = 0;
        }
        if (pm && hour < 12) {
            hour += 12;
        }
        long res;
        if (hasOffset) {
            res = makeDateTime(ZoneOffset.UTC, year, month, day, hour, minute, second);
            long adj = offsetHour * 3600L + offsetMinute * 60L;
            res += offsetNegative ? adj : -adj;
        } else {
            res = makeDateTime(local, year, month, day, hour, minute, second);
        }
        out.seconds = res;
    }

    private static boolean validDate(int y, int m, int d) {
        boolean leap = (y % 400 == 0) || (y % 100 != 0 && y % 4 == 0);
        return switch (m) {
            case 1, 3, 5, 7, 8, 10, 12 -> d >= 1 && d <= 31;
            case 2 -> d >= 1 && d <= (leap ? 29 : 28);
            case 4, 6, 9, 11 -> d >= 1 && d <= 30;
            default -> false;
        };
    }
}
