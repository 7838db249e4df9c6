package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.TypeKind;

/**
 * {@code toIntervalSecond} … {@code toIntervalYear} (what {@code INTERVAL n UNIT} parses to) and
 * date arithmetic with intervals, as ClickHouse's {@code addSeconds} … {@code addYears} compute it:
 * seconds, minutes and hours are added to the instant; days and weeks to the local date keeping the
 * local time of day; months, quarters and years to the local month, the day clamped to the month's
 * last (all in the value's time zone, the server's when its type names none). {@code Date} plus
 * days or months stays a {@code Date}; {@code Date} plus seconds, minutes or hours becomes a {@code
 * DateTime} (the day's start in the server time zone plus the interval).
 */
final class IntervalFunctions {
    private IntervalFunctions() {}

    static void register() {
        for (IntervalType.Unit u : IntervalType.Unit.values()) {
            String name = "toInterval" + u.title();
            IntervalType type = new IntervalType(u);
            Functions.register(
                    name,
                    false,
                    (args, types, pos) -> {
                        if (args.size() != 1) {
                            throw Functions.argCount(name, args.size(), "1", pos);
                        }
                        DataType a = types.get(0);
                        if (!ArithmeticFunctions.isInt(a)) {
                            throw Functions.illegalType(a, 0, name, pos);
                        }
                        return new Functions.Bound(
                                type,
                                (cols, n, ctx) ->
                                        Vectors.fromLongs(Vectors.longs(cols[0], a, n), n, type));
                    });
        }
    }

    /** Whether {@code plus} / {@code minus} of these types is date-interval arithmetic. */
    static boolean applies(DataType a, DataType b) {
        return a instanceof IntervalType || b instanceof IntervalType;
    }

    /** {@code date ± interval} or {@code interval + date}. */
    static Functions.Bound bind(String fn, DataType a, DataType b, int pos) {
        boolean minus = fn.equals("minus");
        int timeArg;
        IntervalType interval;
        DataType time;
        if (b instanceof IntervalType ib && !(a instanceof IntervalType)) {
            timeArg = 0;
            time = a;
            interval = ib;
        } else if (a instanceof IntervalType ia && !(b instanceof IntervalType) && !minus) {
            timeArg = 1;
            time = b;
            interval = ia;
        } else {
            throw ExprException.invalid(
                    "Illegal types "
                            + a.name()
                            + " and "
                            + b.name()
                            + " of arguments of function "
                            + fn,
                    pos);
        }
        int intervalArg = 1 - timeArg;
        IntervalType.Unit unit = interval.unit();
        long sign = minus ? -1 : 1;
        TypeKind k = time.kind();
        if (k == TypeKind.DATETIME) {
            return new Functions.Bound(
                    time,
                    (cols, n, ctx) -> {
                        DateLut lut = DateLut.of(DateFunctions.zone(null, time, ctx));
                        long[] t = Vectors.longs(cols[timeArg], time, n);
                        long[] d = Vectors.longs(cols[intervalArg], interval, n);
                        for (int i = 0; i < n; i++) {
                            t[i] = addToTime(lut, t[i], sign * d[i], unit);
                        }
                        return Vectors.fromLongs(t, n, time);
                    });
        }
        if (k == TypeKind.DATE || k == TypeKind.DATE32) {
            if (unit.seconds() > 0 && unit.days() == 0) {
                if (k == TypeKind.DATE32) {
                    throw ExprException.unsupported(
                            "Date32 plus " + interval.name() + " is not supported", pos);
                }
                DataType result = new DateTimeType(null);
                return new Functions.Bound(
                        result,
                        (cols, n, ctx) -> {
                            DateLut lut = DateLut.of(ctx.serverTimeZone());
                            long[] t = Vectors.longs(cols[timeArg], time, n);
                            long[] d = Vectors.longs(cols[intervalArg], interval, n);
                            for (int i = 0; i < n; i++) {
                                t[i] = lut.dayStart(t[i]) + sign * d[i] * unit.seconds();
                            }
                            return Vectors.fromLongs(t, n, result);
                        });
            }
            return new Functions.Bound(
                    time,
                    (cols, n, ctx) -> {
                        long[] t = Vectors.longs(cols[timeArg], time, n);
                        long[] d = Vectors.longs(cols[intervalArg], interval, n);
                        for (int i = 0; i < n; i++) {
                            long delta = sign * d[i];
                            t[i] =
                                    unit.days() > 0
                                            ? t[i] + delta * unit.days()
                                            : monthsSaturated(
                                                    k,
                                                    DateLut.addMonthsToDay(
                                                            t[i], delta * unit.months()));
                        }
                        return Vectors.fromLongs(t, n, time);
                    });
        }
        if (k == TypeKind.DATETIME64) {
            throw ExprException.unsupported(
                    "Arithmetic on DateTime64 values is not supported (function " + fn + ")", pos);
        }
        throw ExprException.invalid(
                "Illegal types "
                        + a.name()
                        + " and "
                        + b.name()
                        + " of arguments of function "
                        + fn,
                pos);
    }

    /** A Date's month arithmetic saturates at the epoch, as ClickHouse's does. */
    private static long monthsSaturated(TypeKind k, long day) {
        return k == TypeKind.DATE ? Math.max(0, day) : day;
    }

    private static long addToTime(DateLut lut, long t, long delta, IntervalType.Unit unit) {
        if (unit.days() > 0) {
            return lut.addDays(t, delta * unit.days());
        }
        if (unit.months() > 0) {
            // ClickHouse's addMonths saturates at the epoch (days and seconds wrap around)
            return Math.max(0, lut.addMonths(t, delta * unit.months()));
        }
        return t + delta * unit.seconds();
    }
}
