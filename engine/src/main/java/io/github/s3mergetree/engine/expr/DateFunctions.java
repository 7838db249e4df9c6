package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.ZoneId;
import java.util.List;

/**
 * ClickHouse's date and time functions over Date, Date32, DateTime and DateTime64 arguments, with
 * ClickHouse's exact result types and its saturation / wrap-around behaviour at the edges of the
 * result types.
 */
final class DateFunctions {
    private DateFunctions() {}

    /** The temporal argument kinds. */
    enum Kind {
        DATE,
        DATE32,
        DATETIME,
        DATETIME64
    }

    static Kind kindOf(DataType t) {
        return switch (t.kind()) {
            case DATE -> Kind.DATE;
            case DATE32 -> Kind.DATE32;
            case DATETIME -> Kind.DATETIME;
            case DATETIME64 -> Kind.DATETIME64;
            default -> null;
        };
    }

    /** The time zone named by a DateTime/DateTime64 type, or null. */
    static String typeZone(DataType t) {
        if (t instanceof DateTimeType dt) {
            return dt.timeZone().orElse(null);
        }
        if (t instanceof DateTime64Type dt) {
            return dt.timeZone().orElse(null);
        }
        return null;
    }

    static ZoneId zone(String explicit, DataType argType, EvaluationContext ctx) {
        String z = explicit != null ? explicit : typeZone(argType);
        return z != null ? ZoneId.of(z) : ctx.serverTimeZone();
    }

    static long scaleOf(DataType t) {
        return t instanceof DateTime64Type d ? d.ticksPerSecond() : 1;
    }

    /**
     * The argument values: day numbers for Date/Date32, seconds for DateTime, whole seconds for
     * DateTime64 (rounded towards minus infinity if {@code floor}, else towards zero).
     */
    static long[] decode(Column c, DataType t, int n, boolean floor) {
        long[] v = Vectors.longs(c, t, n);
        if (t instanceof DateTime64Type d64) {
            long scale = d64.ticksPerSecond();
            if (scale != 1) {
                for (int i = 0; i < n; i++) {
                    v[i] = floor ? Math.floorDiv(v[i], scale) : v[i] / scale;
                }
            }
        }
        return v;
    }

    /**
     * Signed local day numbers of decoded values, written over {@code v} (a {@link #decode}d array,
     * which the caller owns): one array per evaluation instead of one per step.
     */
    static long[] dayNumbers(long[] v, int n, Kind kind, DateLut lut) {
        switch (kind) {
            case DATE, DATE32:
                return v;
            case DATETIME:
                for (int i = 0; i < n; i++) {
                    v[i] = lut.findIndex(v[i]) - DateLut.EPOCH;
                }
                return v;
            default:
                for (int i = 0; i < n; i++) {
                    v[i] = lut.dayNum(v[i]);
                }
                return v;
        }
    }

    static void register() {
        calendar("toYear", DataTypes.UINT16, "YEAR");
        calendar("toMonth", DataTypes.UINT8, "MONTH");
        calendar("toDayOfMonth", DataTypes.UINT8, "DAY", "DAYOFMONTH");
        calendar("toYYYYMM", DataTypes.UINT32);
        calendar("toYYYYMMDD", DataTypes.UINT32);
        startOf("toMonday");
        startOf("toStartOfMonth");
        startOf("toStartOfQuarter");
        startOf("toStartOfYear");
        Functions.register("toStartOfWeek", false, DateFunctions::bindStartOfWeek);
        Functions.register("toStartOfDay", false, DateFunctions::bindStartOfDay);
        timeRound("toStartOfHour", 0);
        timeRound("toStartOfMinute", 1);
        timeRound("toStartOfFifteenMinutes", 15);
        Functions.register("toHour", false, DateFunctions::bindHour, "HOUR");
        Functions.register("now", false, DateFunctions::bindNow);
        Functions.register("today", false, DateFunctions::bindToday);
    }

    // ---------------------------------------------------------------------------------------
    // helpers for binders

    /** Checks (date[, 'tz']) and returns the explicit time zone or null. */
    static String dateAndZone(
            String fn, List<Expr> args, List<DataType> types, int pos, boolean allowDate) {
        if (args.isEmpty() || args.size() > 2) {
            throw Functions.argCount(fn, args.size(), "1 or 2", pos);
        }
        Kind k = kindOf(types.get(0));
        if (k == null || (!allowDate && (k == Kind.DATE || k == Kind.DATE32))) {
            throw Functions.illegalType(types.get(0), 0, fn, pos);
        }
        return args.size() == 2 ? zoneArg(args, 1, fn, pos) : null;
    }

    static String zoneArg(List<Expr> args, int i, String fn, int pos) {
        String tz = Functions.constString(args, i, fn, "time zone", pos);
        try {
            ZoneId.of(tz);
        } catch (RuntimeException e) {
            throw ExprException.invalid("Cannot load time zone " + tz, pos);
        }
        return tz;
    }

    /** The DateTime result type of rounding functions: explicit zone, else the argument's. */
    static DataType dateTimeResult(String explicit, DataType arg) {
        String z = explicit != null ? explicit : typeZone(arg);
        return new DateTimeType(z);
    }

    // ---------------------------------------------------------------------------------------
    // toYear, toMonth, toDayOfMonth, toYYYYMM, toYYYYMMDD

    private static void calendar(String name, DataType result, String... aliases) {
        Functions.register(
                name,
                false,
                (args, types, pos) -> {
                    String tz = dateAndZone(name, args, types, pos, true);
                    DataType t = types.get(0);
                    Kind k = kindOf(t);
                    return new Functions.Bound(
                            result,
                            (cols, n, ctx) -> {
                                DateLut lut = DateLut.of(zone(tz, t, ctx));
                                long[] d = dayNumbers(decode(cols[0], t, n, true), n, k, lut);
                                calendarLoop(name, d, d, n); // in place: out[i] reads d[i] only
                                return Vectors.fromLongs(d, n, result);
                            });
                },
                aliases);
    }

    private static void calendarLoop(String name, long[] d, long[] out, int n) {
        switch (name) {
            case "toYear" -> {
                for (int i = 0; i < n; i++) {
                    long idx = d[i] + DateLut.EPOCH;
                    out[i] =
                            idx >= 0 && idx < DateLut.SIZE
                                    ? DateLut.YEAR[(int) idx]
                                    : DateLut.year(d[i]);
                }
            }
            case "toMonth" -> {
                for (int i = 0; i < n; i++) {
                    long idx = d[i] + DateLut.EPOCH;
                    out[i] =
                            idx >= 0 && idx < DateLut.SIZE
                                    ? DateLut.MONTH[(int) idx]
                                    : DateLut.month(d[i]);
                }
            }
            case "toDayOfMonth" -> {
                for (int i = 0; i < n; i++) {
                    long idx = d[i] + DateLut.EPOCH;
                    out[i] =
                            idx >= 0 && idx < DateLut.SIZE
                                    ? DateLut.DOM[(int) idx]
                                    : DateLut.dayOfMonth(d[i]);
                }
            }
            case "toYYYYMM" -> {
                for (int i = 0; i < n; i++) {
                    long idx = d[i] + DateLut.EPOCH;
                    if (idx >= 0 && idx < DateLut.SIZE) {
                        out[i] = DateLut.YEAR[(int) idx] * 100L + DateLut.MONTH[(int) idx];
                    } else {
                        out[i] = DateLut.year(d[i]) * 100L + DateLut.month(d[i]);
                    }
                }
            }
            default -> {
                for (int i = 0; i < n; i++) {
                    long idx = d[i] + DateLut.EPOCH;
                    if (idx >= 0 && idx < DateLut.SIZE) {
                        int j = (int) idx;
                        out[i] =
                                DateLut.YEAR[j] * 10000L + DateLut.MONTH[j] * 100L + DateLut.DOM[j];
                    } else {
                        out[i] =
                                DateLut.year(d[i]) * 10000L
                                        + DateLut.month(d[i]) * 100L
                                        + DateLut.dayOfMonth(d[i]);
                    }
                }
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // toMonday, toStartOfMonth, toStartOfQuarter, toStartOfYear, toStartOfWeek -> Date

    private static void startOf(String name) {
        Functions.register(
                name,
                false,
                (args, types, pos) -> {
                    String tz = dateAndZone(name, args, types, pos, true);
                    return startOfBound(name, tz, types.get(0), 1);
                });
    }

    private static Functions.Bound startOfBound(String name, String tz, DataType t, int mode) {
        Kind k = kindOf(t);
        return new Functions.Bound(
                DataTypes.DATE,
                (cols, n, ctx) -> {
                    DateLut lut = DateLut.of(zone(tz, t, ctx));
                    long[] d = dayNumbers(decode(cols[0], t, n, true), n, k, lut);
                    for (int i = 0; i < n; i++) { // in place
                        long r = startDay(name, d[i], mode);
                        d[i] = r < 0 ? 0 : (r > 0xFFFF ? 0xFFFF : r);
                    }
                    return Vectors.fromLongs(d, n, DataTypes.DATE);
                });
    }

    static long startDay(String name, long d, int mode) {
        switch (name) {
            case "toMonday":
                return d - (DateLut.dayOfWeek(d) - 1);
            case "toStartOfMonth":
                return d - (DateLut.dayOfMonth(d) - 1);
            case "toStartOfQuarter":
                {
                    int m = DateLut.month(d);
                    return DateLut.dayNumOf(DateLut.year(d), (m - 1) / 3 * 3 + 1, 1);
                }
            case "toStartOfYear":
                return DateLut.dayNumOf(DateLut.year(d), 1, 1);
            default:
                {
                    // toStartOfWeek
                    int dow = DateLut.dayOfWeek(d);
                    if ((mode & 1) != 0) {
                        return d - (dow - 1);
                    }
                    return dow != 7 ? d - dow : d;
                }
        }
    }

    private static Functions.Bound bindStartOfWeek(List<Expr> args, List<DataType> types, int pos) {
        String fn = "toStartOfWeek";
        if (args.isEmpty() || args.size() > 3) {
            throw Functions.argCount(fn, args.size(), "1 to 3", pos);
        }
        if (kindOf(types.get(0)) == null) {
            throw Functions.illegalType(types.get(0), 0, fn, pos);
        }
        int mode = 0;
        if (args.size() >= 2) {
            mode = (int) Functions.constInteger(args, 1, fn, "week mode", pos);
        }
        String tz = args.size() == 3 ? zoneArg(args, 2, fn, pos) : null;
        return startOfBound(fn, tz, types.get(0), mode);
    }

    // ---------------------------------------------------------------------------------------
    // toStartOfDay -> DateTime

    private static Functions.Bound bindStartOfDay(List<Expr> args, List<DataType> types, int pos) {
        String tz = dateAndZone("toStartOfDay", args, types, pos, true);
        DataType t = types.get(0);
        Kind k = kindOf(t);
        DataType result = dateTimeResult(tz, t);
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    DateLut lut = DateLut.of(zone(tz, t, ctx));
                    long[] v = decode(cols[0], t, n, false);
                    long[] out = new long[n];
                    switch (k) {
                        case DATE -> {
                            for (int i = 0; i < n; i++) {
                                out[i] = lut.dateSaturated[(int) v[i] + DateLut.EPOCH];
                            }
                        }
                        case DATE32 -> {
                            for (int i = 0; i < n; i++) {
                                long s = lut.dayStart(v[i]);
                                out[i] = s < 0 ? 0 : Math.min(s, 0xFFFFFFFFL);
                            }
                        }
                        case DATETIME -> {
                            for (int i = 0; i < n; i++) {
                                out[i] = lut.dateSaturated[lut.findIndex(v[i])];
                            }
                        }
                        default -> {
                            for (int i = 0; i < n; i++) {
                                out[i] = lut.dayStart(lut.dayNum(v[i]));
                            }
                        }
                    }
                    return Vectors.fromLongs(out, n, result);
                });
    }

    // ---------------------------------------------------------------------------------------
    // toStartOfHour / toStartOfMinute / toStartOfFifteenMinutes -> DateTime

    private static void timeRound(String name, int minutes) {
        Functions.register(
                name,
                false,
                (args, types, pos) -> {
                    String tz = dateAndZone(name, args, types, pos, false);
                    DataType t = types.get(0);
                    Kind k = kindOf(t);
                    DataType result = dateTimeResult(tz, t);
                    return new Functions.Bound(
                            result,
                            (cols, n, ctx) -> {
                                DateLut lut = DateLut.of(zone(tz, t, ctx));
                                long[] v = decode(cols[0], t, n, false);
                                long[] out = new long[n];
                                boolean unsigned = k == Kind.DATETIME;
                                for (int i = 0; i < n; i++) {
                                    if (minutes == 0) {
                                        out[i] =
                                                unsigned
                                                        ? lut.roundDownUnsigned(v[i], 3600)
                                                        : lut.roundDownSigned(v[i], 3600);
                                    } else {
                                        out[i] =
                                                unsigned
                                                        ? lut.startOfMinutesUnsigned(v[i], minutes)
                                                        : lut.startOfMinutesSigned(v[i], minutes);
                                    }
                                }
                                return Vectors.fromLongs(out, n, result);
                            });
                });
    }

    // ---------------------------------------------------------------------------------------
    // toHour

    private static Functions.Bound bindHour(List<Expr> args, List<DataType> types, int pos) {
        String tz = dateAndZone("toHour", args, types, pos, false);
        DataType t = types.get(0);
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    DateLut lut = DateLut.of(zone(tz, t, ctx));
                    long[] v = decode(cols[0], t, n, true);
                    long[] out = new long[n];
                    for (int i = 0; i < n; i++) {
                        out[i] = lut.hour(v[i]);
                    }
                    return Vectors.fromLongs(out, n, DataTypes.UINT8);
                });
    }

    // ---------------------------------------------------------------------------------------
    // now(), today()

    private static Functions.Bound bindNow(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() > 1) {
            throw Functions.argCount("now", args.size(), "0 or 1", pos);
        }
        String tz = args.size() == 1 ? zoneArg(args, 0, "now", pos) : null;
        DataType result = new DateTimeType(tz);
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    long[] out = new long[n];
                    java.util.Arrays.fill(out, ctx.clock().instant().getEpochSecond());
                    return Vectors.fromLongs(out, n, result);
                });
    }

    private static Functions.Bound bindToday(List<Expr> args, List<DataType> types, int pos) {
        if (!args.isEmpty()) {
            throw Functions.argCount("today", args.size(), "0", pos);
        }
        return new Functions.Bound(
                DataTypes.DATE,
                (cols, n, ctx) -> {
                    DateLut lut = DateLut.of(ctx.serverTimeZone());
                    long d = lut.dayNum(ctx.clock().instant().getEpochSecond());
                    long[] out = new long[n];
                    java.util.Arrays.fill(out, d);
                    return Vectors.fromLongs(out, n, DataTypes.DATE);
                });
    }

    /** Whether {@code t} is Date/Date32/DateTime/DateTime64. */
    static boolean isTemporal(DataType t) {
        TypeKind k = t.kind();
        return k == TypeKind.DATE
                || k == TypeKind.DATE32
                || k == TypeKind.DATETIME
                || k == TypeKind.DATETIME64;
    }
}
