package io.github.s3mergetree.engine.expr;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A per-time-zone lookup table of day starts, a port of ClickHouse's {@code DateLUTImpl}: for every
 * local day from 1900-01-01 to 2299-12-31 the UTC second at which the day starts (chosen as
 * ClickHouse chooses it when midnight is skipped or repeated) and the one UTC offset change inside
 * the day, if any.
 *
 * <p>Why a port rather than {@code java.time}: ClickHouse's time functions are defined by this
 * table, including its corner cases (saturation at 1970-01-01 for unsigned types, one offset change
 * per day, days that start at 01:00), and the table also makes the per-row work a few array
 * look-ups instead of {@code ZonedDateTime} allocations. Values outside the table's range are
 * computed exactly with {@code java.time}, as ClickHouse does with cctz. Civil calendar fields of a
 * day number are time-zone independent and come from shared static tables.
 */
final class DateLut {
    /** Days in the table: 400 Gregorian years from 1900-01-01. */
    static final int SIZE = 146097;

    /** LUT index of 1970-01-01. */
    static final int EPOCH = 25567;

    static final long IN_RANGE_MIN = -2208988800L + 2 * 86400;
    static final long IN_RANGE_MAX = 10413792000L - 2 * 86400;

    /** Day numbers (days since 1970-01-01) of 0000-01-01 and 9999-12-31. */
    static final long MIN_REPR_DAY = -719528;

    static final long MAX_REPR_DAY = 2932896;

    static final long MIN_REPR_TIME = -62167219200L;
    static final long MAX_REPR_TIME = 253402300799L;

    static final short[] YEAR = new short[SIZE];
    static final byte[] MONTH = new byte[SIZE];
    static final byte[] DOM = new byte[SIZE];
    static final byte[] DIM = new byte[SIZE];

    static {
        int y = 1900;
        int m = 1;
        int d = 1;
        for (int i = 0; i < SIZE; i++) {
            YEAR[i] = (short) y;
            MONTH[i] = (byte) m;
            DOM[i] = (byte) d;
            int dim = daysInMonth(y, m);
            DIM[i] = (byte) dim;
            if (++d > dim) {
                d = 1;
                if (++m > 12) {
                    m = 1;
                    y++;
                }
            }
        }
    }

    private static final ConcurrentHashMap<ZoneId, DateLut> CACHE = new ConcurrentHashMap<>();

    final ZoneId zone;
    private final ZoneRules rules;
    private final boolean fixed;
    private final int fixedOffset;

    /** Start of each day (UTC seconds); index {@code SIZE} repeats the last day. */
    final long[] date;

    /**
     * Like {@link #date}, but days starting before the epoch saturated to the first that does not.
     */
    final long[] dateSaturated;

    /** Seconds after the day start at which the offset changes (0 when it does not). */
    final int[] changeTime;

    /** The change of the UTC offset in seconds (0 when none). */
    final int[] changeAmount;

    final boolean wholeHours;
    final boolean wholeMinutes;

    static DateLut of(ZoneId zone) {
        return CACHE.computeIfAbsent(zone.normalized(), DateLut::new);
    }

    private DateLut(ZoneId zone) {
        this.zone = zone;
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffset = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : 0;
        date = new long[SIZE + 1];
        dateSaturated = new long[SIZE + 1];
        changeTime = new int[SIZE + 1];
        changeAmount = new int[SIZE + 1];
        boolean hours = true;
        boolean minutes = true;
        if (fixed) {
            for (int i = 0; i < SIZE; i++) {
                date[i] = (long) (i - EPOCH) * 86400 - fixedOffset;
            }
        } else {
            LocalDate day = LocalDate.of(1900, 1, 1);
            LocalDate nextTransitionDate = day;
            long start = 0;
            for (int i = 0; i < SIZE; i++) {
                if (!day.isBefore(nextTransitionDate)) {
                    start = lookup(day);
                    ZoneOffsetTransition t = rules.nextTransition(Instant.ofEpochSecond(start - 1));
                    if (t != null) {
                        LocalDateTime from = t.getDateTimeBefore();
                        LocalDateTime to = t.getDateTimeAfter();
                        if (from.toLocalDate().equals(day) || to.toLocalDate().equals(day)) {
                            long fromSeconds =
                                    from.toEpochSecond(ZoneOffset.UTC)
                                            - day.atStartOfDay().toEpochSecond(ZoneOffset.UTC);
                            int at = (int) (fromSeconds / 900);
                            int amount =
                                    (int)
                                            ((to.toEpochSecond(ZoneOffset.UTC)
                                                            - from.toEpochSecond(ZoneOffset.UTC))
                                                    / 900);
                            amount = Math.max(-96, Math.min(96, amount));
                            int atByte = at & 0xFF; // stored as UInt8 in ClickHouse
                            if (atByte + amount < 0) {
                                atByte = -amount;
                            }
                            changeTime[i] = atByte * 900;
                            changeAmount[i] = amount * 900;
                        }
                        LocalDate a = from.toLocalDate();
                        LocalDate b = to.toLocalDate();
                        nextTransitionDate = a.isBefore(b) ? a : b;
                    } else {
                        nextTransitionDate = LocalDate.MAX;
                    }
                }
                date[i] = start;
                start += 86400;
                day = day.plusDays(1);
            }
        }
        date[SIZE] = date[SIZE - 1];
        for (int i = 0; i < SIZE; i++) {
            long s = date[i];
            if (s > 0 && s % 3600 != 0) {
                hours = false;
            }
            if (s > 0 && s % 60 != 0) {
                minutes = false;
            }
        }
        wholeHours = hours;
        wholeMinutes = minutes;
        int day = SIZE - 1;
        for (; day >= 0; day--) {
            if (date[day] >= 0) {
                dateSaturated[day] = date[day];
            } else {
                break;
            }
        }
        for (; day >= 0; day--) {
            dateSaturated[day] = dateSaturated[day + 1];
        }
        dateSaturated[SIZE] = dateSaturated[SIZE - 1];
    }

    /** The UTC second at which local day {@code day} starts, chosen as ClickHouse does. */
    long lookup(LocalDate day) {
        if (fixed) {
            return day.toEpochDay() * 86400 - fixedOffset;
        }
        LocalDateTime midnight = day.atStartOfDay();
        ZoneOffsetTransition t = rules.getTransition(midnight);
        if (t == null) {
            return midnight.toEpochSecond(rules.getOffset(midnight));
        }
        long pre = midnight.toEpochSecond(t.getOffsetBefore());
        long post = midnight.toEpochSecond(t.getOffsetAfter());
        return t.toEpochSecond() < post ? post : pre;
    }

    static boolean outOfRange(long t) {
        return t < IN_RANGE_MIN || t >= IN_RANGE_MAX;
    }

    /** ClickHouse's {@code findIndex}: the LUT index of the day containing {@code t} (clamped). */
    int findIndex(long t) {
        long guess = t / 86400 + EPOCH;
        if (t < 0) {
            guess--;
        }
        if (guess < 0) {
            return 0;
        }
        if (guess >= SIZE) {
            return SIZE - 1;
        }
        int g = (int) guess;
        if (t >= date[g]) {
            if (g + 1 >= SIZE || t < date[g + 1]) {
                return g;
            }
            return g + 1;
        }
        return g > 0 ? g - 1 : 0;
    }

    /** The local day number (days since 1970-01-01) of an out-of-table second, exactly. */
    long outOfRangeDayNum(long t) {
        long c = Math.max(MIN_REPR_TIME - 2 * 86400, Math.min(MAX_REPR_TIME + 2 * 86400, t));
        int off = fixed ? fixedOffset : rules.getOffset(Instant.ofEpochSecond(c)).getTotalSeconds();
        long d = Math.floorDiv(c + off, 86400L);
        return Math.max(MIN_REPR_DAY, Math.min(MAX_REPR_DAY, d));
    }

    /** The signed local day number of second {@code t} (ClickHouse's {@code toDayNum(Int64)}). */
    long dayNum(long t) {
        if (outOfRange(t)) {
            return outOfRangeDayNum(t);
        }
        return findIndex(t) - EPOCH;
    }

    /** The start (UTC second) of day number {@code d}, for signed day numbers (Date32). */
    long dayStart(long d) {
        long idx = d + EPOCH;
        if (idx < 0 || idx >= SIZE) {
            long c = Math.max(MIN_REPR_DAY, Math.min(MAX_REPR_DAY, d));
            return lookup(LocalDate.ofEpochDay(c));
        }
        return date[(int) idx];
    }

    /** Local seconds since the start of the day of {@code t}, offset changes applied. */
    long secondsOfDay(long t) {
        if (outOfRange(t)) {
            long c = Math.max(MIN_REPR_TIME, Math.min(MAX_REPR_TIME, t));
            int off =
                    fixed
                            ? fixedOffset
                            : rules.getOffset(Instant.ofEpochSecond(c)).getTotalSeconds();
            return Math.floorMod(c + off, 86400L);
        }
        int idx = findIndex(t);
        long time = t - date[idx];
        if (time >= changeTime[idx]) {
            time += changeAmount[idx];
        }
        return time;
    }

    /** ClickHouse's {@code toHour}. */
    int hour(long t) {
        if (outOfRange(t)) {
            return (int) (secondsOfDay(t) / 3600);
        }
        long res = secondsOfDay(t) / 3600;
        return res <= 23 ? (int) res : 23;
    }

    /**
     * ClickHouse's {@code roundDown(t, divisor)} for signed (Int64) seconds; used by toStartOfHour.
     */
    long roundDownSigned(long x, long divisor) {
        if (outOfRange(x)) {
            long d = dayStart(outOfRangeDayNum(x));
            return d + (x - d) / divisor * divisor;
        }
        if (wholeHours) {
            return Math.floorDiv(x, divisor) * divisor;
        }
        long d = date[findIndex(x)];
        return d + (x - d) / divisor * divisor;
    }

    /** ClickHouse's {@code roundDown(t, divisor)} for unsigned (DateTime) seconds. */
    long roundDownUnsigned(long x, long divisor) {
        if (wholeHours) {
            return x / divisor * divisor;
        }
        long d = date[findIndex(x)];
        long res = d + (x - d) / divisor * divisor;
        return res < 0 ? 0 : res;
    }

    /** ClickHouse's {@code toStartOfMinuteInterval} for signed seconds. */
    long startOfMinutesSigned(long x, long minutes) {
        long divisor = 60 * minutes;
        if (outOfRange(x)) {
            long d = dayStart(outOfRangeDayNum(x));
            return d + (x - d) / divisor * divisor;
        }
        if (wholeMinutes) {
            return Math.floorDiv(x, divisor) * divisor;
        }
        long d = date[findIndex(x)];
        return d + (x - d) / divisor * divisor;
    }

    /** ClickHouse's {@code toStartOfMinuteInterval} for unsigned (DateTime) seconds. */
    long startOfMinutesUnsigned(long x, long minutes) {
        long divisor = 60 * minutes;
        if (wholeMinutes) {
            return x / divisor * divisor;
        }
        long d = date[findIndex(x)];
        long res = d + (x - d) / divisor * divisor;
        return res < 0 ? 0 : res;
    }

    // ---------------------------------------------------------------------------------------
    // Time-zone independent calendar of day numbers (days since 1970-01-01)

    static int daysInMonth(int y, int m) {
        return switch (m) {
            case 2 -> (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    private static long clampDay(long d) {
        return Math.max(MIN_REPR_DAY, Math.min(MAX_REPR_DAY, d));
    }

    static int year(long d) {
        long idx = d + EPOCH;
        if (idx >= 0 && idx < SIZE) {
            return YEAR[(int) idx];
        }
        return LocalDate.ofEpochDay(clampDay(d)).getYear();
    }

    static int month(long d) {
        long idx = d + EPOCH;
        if (idx >= 0 && idx < SIZE) {
            return MONTH[(int) idx];
        }
        return LocalDate.ofEpochDay(clampDay(d)).getMonthValue();
    }

    static int dayOfMonth(long d) {
        long idx = d + EPOCH;
        if (idx >= 0 && idx < SIZE) {
            return DOM[(int) idx];
        }
        return LocalDate.ofEpochDay(clampDay(d)).getDayOfMonth();
    }

    /** 1 = Monday ... 7 = Sunday. */
    static int dayOfWeek(long d) {
        return (int) Math.floorMod(d + 3, 7L) + 1;
    }

    /** The day number of a civil date (proleptic Gregorian). */
    static long dayNumOf(int year, int month, int day) {
        // Howard Hinnant's days_from_civil
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yoe = y - era * 400;
        long mp = (month + 9) % 12;
        long doy = (153 * mp + 2) / 5 + day - 1;
        long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097 + doe - 719468;
    }

    // ---------------------------------------------------------------------------------------
    // addDays / addMonths (ClickHouse's DateLUTImpl::addDays, addMonths)

    /** {@code t} plus {@code delta} local days, keeping the local time of day. */
    long addDays(long t, long delta) {
        return atLocalTime(dayNum(t) + delta, secondsOfDay(t));
    }

    /** {@code t} plus {@code delta} months, the day of month clamped, the local time kept. */
    long addMonths(long t, long delta) {
        return atLocalTime(addMonthsToDay(dayNum(t), delta), secondsOfDay(t));
    }

    /** The instant of local time {@code time} (seconds after midnight) on day {@code day}. */
    private long atLocalTime(long day, long time) {
        long idx = day + EPOCH;
        if (idx >= 0 && idx < SIZE) {
            int i = (int) idx;
            if (changeAmount[i] != 0 && time >= changeTime[i]) {
                time -= changeAmount[i];
            }
            return date[i] + time;
        }
        return dayStart(day) + time;
    }

    /** Day number {@code d} plus {@code delta} months, the day of month clamped. */
    static long addMonthsToDay(long d, long delta) {
        int y = year(d);
        int m = month(d);
        int dom = dayOfMonth(d);
        long months = (long) y * 12 + (m - 1) + delta;
        int ny = (int) Math.floorDiv(months, 12L);
        int nm = (int) Math.floorMod(months, 12L) + 1;
        return dayNumOf(ny, nm, Math.min(dom, daysInMonth(ny, nm)));
    }
}
