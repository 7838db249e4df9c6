package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Type conversions ({@code toUInt8} ... {@code toInt64}, {@code toFloat32/64}, {@code toDate},
 * {@code toDate32}, {@code toDateTime}, {@code toUnixTimestamp}, {@code toString}), {@code
 * lower}/{@code upper}, {@code tuple}, and the conversion of DEFAULT values to their column's type.
 *
 * <p>Values whose conversion ClickHouse leaves to undefined C++ behaviour (floating-point values
 * out of the target's range, UInt64 values of 2^63 and more converted to dates) are rejected with
 * an evaluation error instead of guessed.
 */
final class ConversionFunctions {
    private ConversionFunctions() {}

    private static final java.util.regex.Pattern FLOAT_TEXT =
            java.util.regex.Pattern.compile(
                    "[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|[+-]?(inf|nan)");

    static void register() {
        for (TypeKind k :
                List.of(
                        TypeKind.UINT8,
                        TypeKind.UINT16,
                        TypeKind.UINT32,
                        TypeKind.UINT64,
                        TypeKind.INT8,
                        TypeKind.INT16,
                        TypeKind.INT32,
                        TypeKind.INT64)) {
            DataType target = integerTarget(k);
            String name = "to" + target.name();
            Functions.register(
                    name,
                    false,
                    (args, types, pos) -> {
                        one(name, args, pos);
                        return toInteger(name, types.get(0), target, pos);
                    });
        }
        Functions.register(
                "toFloat64",
                false,
                (args, types, pos) -> {
                    one("toFloat64", args, pos);
                    return toFloat("toFloat64", types.get(0), DataTypes.FLOAT64, pos);
                });
        Functions.register(
                "toFloat32",
                false,
                (args, types, pos) -> {
                    one("toFloat32", args, pos);
                    return toFloat("toFloat32", types.get(0), DataTypes.FLOAT32, pos);
                });
        Functions.register("toDate", false, (a, t, p) -> bindDate("toDate", a, t, p));
        Functions.register("toDate32", false, (a, t, p) -> bindDate("toDate32", a, t, p));
        Functions.register("toDateTime", false, (a, t, p) -> bindDate("toDateTime", a, t, p));
        Functions.register(
                "toUnixTimestamp", false, (a, t, p) -> bindDate("toUnixTimestamp", a, t, p));
        Functions.register("toString", false, ConversionFunctions::bindToString);
        Functions.register("lower", true, (a, t, p) -> bindCase(true, a, t, p), "lcase");
        Functions.register("upper", true, (a, t, p) -> bindCase(false, a, t, p), "ucase");
        Functions.register(
                new Functions.Def("tuple", ConversionFunctions::bindTuple, false, false, false));
    }

    private static void one(String fn, List<Expr> args, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
    }

    static DataType integerTarget(TypeKind k) {
        return switch (k) {
            case UINT8 -> DataTypes.UINT8;
            case UINT16 -> DataTypes.UINT16;
            case UINT32 -> DataTypes.UINT32;
            case UINT64 -> DataTypes.UINT64;
            case INT8 -> DataTypes.INT8;
            case INT16 -> DataTypes.INT16;
            case INT32 -> DataTypes.INT32;
            default -> DataTypes.INT64;
        };
    }

    // ---------------------------------------------------------------------------------------
    // toUInt8 ... toInt64

    static Functions.Bound toInteger(String fn, DataType from, DataType target, int pos) {
        TypeKind k = from.kind();
        int bits = ArithmeticFunctions.width(target) * 8;
        boolean targetSigned = ArithmeticFunctions.signed(target);
        if (ArithmeticFunctions.isInt(from)
                || k == TypeKind.DATE
                || k == TypeKind.DATE32
                || k == TypeKind.DATETIME
                || k == TypeKind.IPV4
                || k == TypeKind.ENUM8
                || k == TypeKind.ENUM16) {
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) ->
                            Vectors.fromLongs(Vectors.longs(cols[0], from, n), n, target));
        }
        if (ArithmeticFunctions.isFloat(from)) {
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) -> {
                        double[] d = Vectors.doubles(cols[0], from, n);
                        long[] out = new long[n];
                        for (int i = 0; i < n; i++) {
                            out[i] = floatToInteger(d[i], bits, targetSigned, fn);
                        }
                        return Vectors.fromLongs(out, n, target);
                    });
        }
        if (k == TypeKind.DATETIME64) {
            long scale = ((DateTime64Type) from).ticksPerSecond();
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) -> {
                        long[] v = Vectors.longs(cols[0], from, n);
                        for (int i = 0; i < n; i++) {
                            long w = v[i] / scale;
                            if (!fits(w, bits, targetSigned)) {
                                throw ExprException.evaluation(
                                        "Value "
                                                + w
                                                + " of DateTime64 is out of the range of "
                                                + target.name()
                                                + " ("
                                                + fn
                                                + ")");
                            }
                            v[i] = w;
                        }
                        return Vectors.fromLongs(v, n, target);
                    });
        }
        if (k == TypeKind.STRING || k == TypeKind.FIXED_STRING) {
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) -> {
                        long[] out = new long[n];
                        Strings s = Strings.of(cols[0]);
                        for (int i = 0; i < n; i++) {
                            out[i] = parseInteger(s, i, targetSigned, fn);
                        }
                        return Vectors.fromLongs(out, n, target);
                    });
        }
        throw Functions.illegalType(from, 0, fn, pos);
    }

    static boolean fits(long v, int bits, boolean signed) {
        if (bits == 64) {
            return signed || v >= 0;
        }
        if (signed) {
            long min = -(1L << (bits - 1));
            return v >= min && v < -min;
        }
        return v >= 0 && v < (1L << bits);
    }

    static long floatToInteger(double d, int bits, boolean signed, String fn) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw ExprException.evaluation(
                    "Unexpected inf or nan to integer conversion (" + fn + ")");
        }
        double t = d < 0 ? Math.ceil(d) : Math.floor(d);
        if (bits == 64 && !signed && t >= 9.223372036854775807E18 && t < 1.8446744073709552E19) {
            return (long) (t - 9.223372036854775807E18) + Long.MIN_VALUE;
        }
        double limit = bits == 64 ? 9.223372036854775807E18 : 2147483648.0;
        if (t >= limit || t < -limit) {
            throw ExprException.evaluation(
                    "Floating-point value "
                            + d
                            + " is out of the supported range of "
                            + fn
                            + " (ClickHouse leaves this conversion undefined)");
        }
        return (long) t;
    }

    /** Parses an integer as ClickHouse's {@code readIntText} does (wrapping on overflow). */
    static long parseInteger(Strings s, int row, boolean signed, String fn) {
        byte[] b = s.bytes;
        int start = s.start(row);
        int end = s.end(row);
        if (start == end) {
            throw ExprException.evaluation("Attempt to read after eof: empty string (" + fn + ")");
        }
        int p = start;
        boolean negative = false;
        if (b[p] == '-') {
            negative = true;
            p++;
        } else if (b[p] == '+') {
            p++;
        }
        if (negative && !signed) {
            throw ExprException.evaluation(
                    "Unsigned type must not contain '-' symbol: '"
                            + s.string(row)
                            + "' ("
                            + fn
                            + ")");
        }
        if (p == end) {
            throw ExprException.evaluation("Cannot parse '" + s.string(row) + "' (" + fn + ")");
        }
        long v = 0;
        for (; p < end; p++) {
            int c = b[p];
            if (c < '0' || c > '9') {
                throw ExprException.evaluation(
                        "Cannot parse '" + s.string(row) + "' as a number (" + fn + ")");
            }
            v = v * 10 + (c - '0');
        }
        return negative ? -v : v;
    }

    // ---------------------------------------------------------------------------------------
    // toFloat32, toFloat64

    static Functions.Bound toFloat(String fn, DataType from, DataType target, int pos) {
        TypeKind k = from.kind();
        if (ArithmeticFunctions.isNumber(from)
                || k == TypeKind.DATE
                || k == TypeKind.DATE32
                || k == TypeKind.DATETIME
                || k == TypeKind.ENUM8
                || k == TypeKind.ENUM16) {
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) ->
                            Vectors.fromDoubles(Vectors.doubles(cols[0], from, n), n, target));
        }
        if (k == TypeKind.STRING) {
            return new Functions.Bound(
                    target,
                    (cols, n, ctx) -> {
                        Strings s = Strings.of(cols[0]);
                        double[] out = new double[n];
                        for (int i = 0; i < n; i++) {
                            String v = s.string(i);
                            if (v.isEmpty() || !FLOAT_TEXT.matcher(v).matches()) {
                                throw ExprException.evaluation(
                                        "Cannot parse '" + v + "' as a number (" + fn + ")");
                            }
                            out[i] =
                                    v.endsWith("inf")
                                            ? (v.startsWith("-")
                                                    ? Double.NEGATIVE_INFINITY
                                                    : Double.POSITIVE_INFINITY)
                                            : v.endsWith("nan")
                                                    ? Double.NaN
                                                    : Double.parseDouble(v);
                        }
                        return Vectors.fromDoubles(out, n, target);
                    });
        }
        throw Functions.illegalType(from, 0, fn, pos);
    }

    // ---------------------------------------------------------------------------------------
    // toDate, toDate32, toDateTime, toUnixTimestamp

    private static Functions.Bound bindDate(
            String fn, List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty() || args.size() > 2) {
            throw Functions.argCount(fn, args.size(), "1 or 2", pos);
        }
        String tz = args.size() == 2 ? DateFunctions.zoneArg(args, 1, fn, pos) : null;
        DataType from = types.get(0);
        DataType result =
                switch (fn) {
                    case "toDate" -> DataTypes.DATE;
                    case "toDate32" -> DataTypes.DATE32;
                    case "toUnixTimestamp" -> DataTypes.UINT32;
                    default -> new DateTimeType(tz != null ? tz : DateFunctions.typeZone(from));
                };
        if (fn.equals("toDateTime") && tz == null && !DateFunctions.isTemporal(from)) {
            result = new DateTimeType(null);
        }
        DataType rt = result;
        DateFunctions.Kind kind = DateFunctions.kindOf(from);
        if (kind != null) {
            boolean floor = !(fn.equals("toDate") || fn.equals("toUnixTimestamp"));
            return new Functions.Bound(
                    rt,
                    (cols, n, ctx) -> {
                        DateLut lut = DateLut.of(DateFunctions.zone(tz, from, ctx));
                        long[] v = DateFunctions.decode(cols[0], from, n, floor);
                        for (int i = 0; i < n; i++) {
                            v[i] = fromTemporal(fn, kind, v[i], lut);
                        }
                        return Vectors.fromLongs(v, n, rt);
                    });
        }
        if (ArithmeticFunctions.isInt(from)) {
            boolean u64 = from.kind() == TypeKind.UINT64;
            boolean small = from.kind() == TypeKind.UINT8 || from.kind() == TypeKind.UINT16;
            return new Functions.Bound(
                    rt,
                    (cols, n, ctx) -> {
                        DateLut lut =
                                DateLut.of(
                                        tz != null
                                                ? java.time.ZoneId.of(tz)
                                                : ctx.serverTimeZone());
                        long[] v = Vectors.longs(cols[0], from, n);
                        for (int i = 0; i < n; i++) {
                            v[i] = fromInteger(fn, v[i], u64, small, lut);
                        }
                        return Vectors.fromLongs(v, n, rt);
                    });
        }
        if (from.kind() == TypeKind.STRING || from.kind() == TypeKind.FIXED_STRING) {
            return new Functions.Bound(
                    rt,
                    (cols, n, ctx) -> {
                        DateLut lut =
                                DateLut.of(
                                        tz != null
                                                ? java.time.ZoneId.of(tz)
                                                : ctx.serverTimeZone());
                        Strings s = Strings.of(cols[0]);
                        long[] v = new long[n];
                        for (int i = 0; i < n; i++) {
                            v[i] = fromString(fn, s.string(i), lut);
                        }
                        return Vectors.fromLongs(v, n, rt);
                    });
        }
        if (ArithmeticFunctions.isFloat(from) && !fn.equals("toUnixTimestamp")) {
            return new Functions.Bound(
                    rt,
                    (cols, n, ctx) -> {
                        DateLut lut =
                                DateLut.of(
                                        tz != null
                                                ? java.time.ZoneId.of(tz)
                                                : ctx.serverTimeZone());
                        double[] d = Vectors.doubles(cols[0], from, n);
                        long[] v = new long[n];
                        for (int i = 0; i < n; i++) {
                            v[i] = fromFloat(fn, d[i], lut);
                        }
                        return Vectors.fromLongs(v, n, rt);
                    });
        }
        if (ArithmeticFunctions.isFloat(from)) {
            throw ExprException.unsupported(
                    fn + " of a floating-point argument is not supported", pos);
        }
        throw Functions.illegalType(from, 0, fn, pos);
    }

    static long fromTemporal(String fn, DateFunctions.Kind kind, long v, DateLut lut) {
        switch (fn) {
            case "toDate":
                return switch (kind) {
                    case DATE -> v;
                    case DATE32 -> v & 0xFFFF;
                    case DATETIME -> Math.max(0, lut.findIndex(v) - DateLut.EPOCH);
                    default -> lut.dayNum(v) & 0xFFFF;
                };
            case "toDate32":
                return switch (kind) {
                    case DATE, DATE32 -> v;
                    case DATETIME -> lut.findIndex(v) - DateLut.EPOCH;
                    default -> lut.dayNum(v);
                };
            default:
                // toDateTime, toUnixTimestamp: seconds, wrapping into UInt32
                return switch (kind) {
                    case DATE -> lut.dateSaturated[(int) v + DateLut.EPOCH];
                    case DATE32 -> lut.dayStart(v);
                    case DATETIME -> v;
                    default -> {
                        if (fn.equals("toUnixTimestamp") && (v < 0 || v > 0xFFFFFFFFL)) {
                            throw ExprException.evaluation(
                                    "Value " + v + " is out of the range of UInt32 (" + fn + ")");
                        }
                        yield v;
                    }
                };
        }
    }

    /**
     * {@code toDate}, {@code toDate32}, {@code toDateTime} of a Float32/Float64 ({@code toDate(ms /
     * 1000)}): the value truncated toward zero, then as an integer, except that for {@code toDate}
     * only a value up to 65535 (not 65535.5) counts as a day number. NaN, infinities and values
     * beyond ±2^63 are refused: ClickHouse's results for them come from an undefined conversion.
     */
    static long fromFloat(String fn, double d, DateLut lut) {
        if (!(d > -9.223372036854775808E18 && d < 9.223372036854775808E18)) {
            throw ExprException.evaluation(
                    "The value "
                            + d
                            + " is out of the supported range of "
                            + fn
                            + " (ClickHouse leaves this conversion undefined)");
        }
        long v = (long) d;
        if (fn.equals("toDate") && d > 0xFFFF && v <= 0xFFFF) {
            // seconds, not days: 65535.x seconds is still 1970-01-01
            return Math.max(0, lut.findIndex(v) - DateLut.EPOCH);
        }
        return fromInteger(fn, v, false, false, lut);
    }

    static long fromInteger(String fn, long v, boolean u64, boolean small, DateLut lut) {
        if (u64 && v < 0 && !fn.equals("toUnixTimestamp")) {
            throw ExprException.evaluation(
                    "UInt64 value "
                            + Long.toUnsignedString(v)
                            + " is out of the supported range of "
                            + fn
                            + " (ClickHouse leaves this conversion undefined)");
        }
        switch (fn) {
            case "toDate":
                if (small || (v >= 0 && v <= 0xFFFF)) {
                    return v;
                }
                if (v < 0) {
                    return 0;
                }
                return Math.max(0, lut.findIndex(Math.min(v, 0xFFFFFFFFL)) - DateLut.EPOCH);
            case "toDate32":
                if (v < 0) {
                    return Math.max(v, -DateLut.EPOCH);
                }
                if (v < DateLut.SIZE - DateLut.EPOCH) {
                    return v;
                }
                return Math.min(lut.dayNum(v), DateLut.SIZE - DateLut.EPOCH - 1);
            case "toDateTime":
                return v < 0 ? 0 : Math.min(v, 0xFFFFFFFFL);
            default:
                return v;
        }
    }

    /** Parses 'YYYY-MM-DD[ hh:mm:ss[.fff]]' (or YYYYMMDD, 'T' separator, unix seconds). */
    static long fromString(String fn, String s, DateLut lut) {
        int[] f = parseDateTime(s, !fn.equals("toDate") && !fn.equals("toDate32"));
        if (f == null) {
            throw ExprException.evaluation("Cannot parse '" + s + "' as a date/time (" + fn + ")");
        }
        if (f.length == 1) {
            // a unix timestamp
            long t = Long.parseLong(s);
            return fn.equals("toUnixTimestamp") ? t & 0xFFFFFFFFL : Math.min(t, 0xFFFFFFFFL);
        }
        long day = DateLut.dayNumOf(f[0], f[1], f[2]);
        switch (fn) {
            case "toDate":
                return Math.max(0, Math.min(0xFFFF, day));
            case "toDate32":
                return Math.max(-DateLut.EPOCH, Math.min(DateLut.SIZE - DateLut.EPOCH - 1, day));
            default:
                {
                    if (f[1] < 1
                            || f[1] > 12
                            || f[2] < 1
                            || f[2] > DateLut.daysInMonth(f[0], f[1])) {
                        throw ExprException.evaluation(
                                "Cannot parse '" + s + "': invalid date (" + fn + ")");
                    }
                    int idx;
                    if (f[0] < 1900) {
                        idx = 0;
                    } else if (f[0] > 2299) {
                        idx = DateLut.SIZE - 1;
                    } else {
                        idx = (int) (day + DateLut.EPOCH);
                    }
                    long offset = f[3] * 3600L + f[4] * 60L + f[5];
                    if (offset >= lut.changeTime[idx]) {
                        offset -= lut.changeAmount[idx];
                    }
                    long t = lut.date[idx] + offset;
                    return t < 0 ? 0 : Math.min(t, 0xFFFFFFFFL);
                }
        }
    }

    /**
     * {y, m, d, hh, mm, ss}, or {t} for a unix timestamp (date-time only), or null. Month and day
     * may have one digit; a date-only value has a zero time.
     */
    static int[] parseDateTime(String s, boolean dateTime) {
        int n = s.length();
        boolean digits = n > 0 && s.chars().allMatch(Character::isDigit);
        if (digits && n == 8) {
            return new int[] {
                Integer.parseInt(s.substring(0, 4)),
                Integer.parseInt(s.substring(4, 6)),
                Integer.parseInt(s.substring(6, 8)),
                0,
                0,
                0
            };
        }
        if (digits) {
            return dateTime && n <= 18 ? new int[] {0} : null;
        }
        int p = 0;
        int[] out = new int[6];
        int[] pos = {0};
        if (n < 8 || !Character.isDigit(s.charAt(0))) {
            return null;
        }
        Integer y = num(s, pos, 4, 4);
        if (y == null || pos[0] >= n || Character.isDigit(s.charAt(pos[0]))) {
            return null;
        }
        pos[0]++;
        Integer m = num(s, pos, 1, 2);
        if (m == null || pos[0] >= n || Character.isDigit(s.charAt(pos[0]))) {
            return null;
        }
        pos[0]++;
        Integer d = num(s, pos, 1, 2);
        if (d == null) {
            return null;
        }
        out[0] = y;
        out[1] = m;
        out[2] = d;
        p = pos[0];
        if (p == n) {
            return out;
        }
        if (s.charAt(p) != ' ' && s.charAt(p) != 'T') {
            return null;
        }
        if (!dateTime) {
            return out;
        }
        pos[0] = p + 1;
        Integer hh = num(s, pos, 2, 2);
        if (hh == null || pos[0] >= n || s.charAt(pos[0]) != ':') {
            return null;
        }
        pos[0]++;
        Integer mm = num(s, pos, 2, 2);
        if (mm == null || pos[0] >= n || s.charAt(pos[0]) != ':') {
            return null;
        }
        pos[0]++;
        Integer ss = num(s, pos, 2, 2);
        if (ss == null) {
            return null;
        }
        p = pos[0];
        if (p < n && s.charAt(p) == '.') {
            p++;
            while (p < n && Character.isDigit(s.charAt(p))) {
                p++;
            }
        }
        if (p != n) {
            return null;
        }
        out[3] = hh;
        out[4] = mm;
        out[5] = ss;
        return out;
    }

    private static Integer num(String s, int[] pos, int min, int max) {
        int p = pos[0];
        int start = p;
        while (p < s.length() && p - start < max && Character.isDigit(s.charAt(p))) {
            p++;
        }
        if (p - start < min) {
            return null;
        }
        pos[0] = p;
        return Integer.parseInt(s.substring(start, p));
    }

    // ---------------------------------------------------------------------------------------
    // toString

    private static Functions.Bound bindToString(List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty() || args.size() > 2) {
            throw Functions.argCount("toString", args.size(), "1 or 2", pos);
        }
        DataType from = types.get(0);
        String tz = args.size() == 2 ? DateFunctions.zoneArg(args, 1, "toString", pos) : null;
        if (tz != null && from.kind() != TypeKind.DATETIME && from.kind() != TypeKind.DATETIME64) {
            throw ExprException.invalid(
                    "The time zone argument of toString is allowed only for DateTime", pos);
        }
        TypeKind k = from.kind();
        switch (k) {
            case STRING:
                return new Functions.Bound(DataTypes.STRING_TYPE, (cols, n, ctx) -> cols[0]);
            case FIXED_STRING:
            case ENUM8:
            case ENUM16:
            case BOOL:
            case DATE:
            case DATE32:
            case DATETIME:
            case DATETIME64:
            case UUID:
            case IPV4:
            case UINT8:
            case UINT16:
            case UINT32:
            case UINT64:
            case INT8:
            case INT16:
            case INT32:
            case INT64:
                return new Functions.Bound(
                        DataTypes.STRING_TYPE,
                        (cols, n, ctx) -> {
                            StringColumn out = new StringColumn(n);
                            DateLut lut =
                                    DateFunctions.isTemporal(from)
                                            ? DateLut.of(DateFunctions.zone(tz, from, ctx))
                                            : null;
                            long[] v =
                                    cols[0].physicalType()
                                                    == io.github.s3mergetree.engine.types
                                                            .PhysicalType.FIXED_BYTES
                                            ? null
                                            : Vectors.longs(cols[0], from, n);
                            for (int i = 0; i < n; i++) {
                                out.add(format(from, cols[0], v, i, lut));
                            }
                            return out;
                        });
            default:
                throw ExprException.unsupported(
                        "toString of " + from.name() + " is not supported", pos);
        }
    }

    static String format(DataType t, Column c, long[] v, int i, DateLut lut) {
        switch (t.kind()) {
            case FIXED_STRING:
                {
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    return new String(f.data(), i * f.width(), f.width(), StandardCharsets.UTF_8);
                }
            case ENUM8:
            case ENUM16:
                {
                    String name = ((EnumType) t).nameOf((int) v[i]);
                    if (name == null) {
                        throw ExprException.evaluation(
                                "Unexpected value " + v[i] + " in enum " + t.name());
                    }
                    return name;
                }
            case BOOL:
                return v[i] != 0 ? "true" : "false";
            case UINT64:
                return Long.toUnsignedString(v[i]);
            case DATE:
            case DATE32:
                return dateText(v[i]);
            case DATETIME:
                return dateTimeText(v[i], lut);
            case DATETIME64:
                {
                    DateTime64Type d = (DateTime64Type) t;
                    long scale = d.ticksPerSecond();
                    long whole = Math.floorDiv(v[i], scale);
                    long frac = Math.floorMod(v[i], scale);
                    String s = dateTimeText(whole, lut);
                    if (d.precision() == 0) {
                        return s;
                    }
                    String f = Long.toString(frac);
                    return s + "." + "0".repeat(d.precision() - f.length()) + f;
                }
            case UUID:
                {
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    byte[] b = f.data();
                    int o = i * 16;
                    long hi = 0;
                    long lo = 0;
                    for (int j = 7; j >= 0; j--) {
                        hi = (hi << 8) | (b[o + j] & 0xFF);
                        lo = (lo << 8) | (b[o + 8 + j] & 0xFF);
                    }
                    return new java.util.UUID(hi, lo).toString();
                }
            case IPV4:
                return ((v[i] >>> 24) & 0xFF)
                        + "."
                        + ((v[i] >>> 16) & 0xFF)
                        + "."
                        + ((v[i] >>> 8) & 0xFF)
                        + "."
                        + (v[i] & 0xFF);
            default:
                return Long.toString(v[i]);
        }
    }

    static String dateText(long day) {
        return String.format(
                "%04d-%02d-%02d", DateLut.year(day), DateLut.month(day), DateLut.dayOfMonth(day));
    }

    static String dateTimeText(long t, DateLut lut) {
        long day = lut.dayNum(t);
        long sec = lut.secondsOfDay(t);
        long h = sec < 0 ? 0 : Math.min(23, sec / 3600);
        long m = sec < 0 ? 0 : sec / 60 % 60;
        long s = sec < 0 ? 0 : sec % 60;
        return dateText(day) + String.format(" %02d:%02d:%02d", h, m, s);
    }

    // ---------------------------------------------------------------------------------------
    // lower, upper

    private static Functions.Bound bindCase(
            boolean lower, List<Expr> args, List<DataType> types, int pos) {
        String fn = lower ? "lower" : "upper";
        one(fn, args, pos);
        DataType t = types.get(0);
        if (t.kind() != TypeKind.STRING && t.kind() != TypeKind.FIXED_STRING) {
            throw Functions.illegalType(t, 0, fn, pos);
        }
        return new Functions.Bound(
                t,
                (cols, n, ctx) -> {
                    Column c = cols[0];
                    if (c instanceof StringColumn s) {
                        StringColumn out = new StringColumn(n, Math.max(16, s.totalBytes()));
                        byte[] src = s.bytes();
                        for (int i = 0; i < n; i++) {
                            int st = s.start(i);
                            int len = s.end(i) - st;
                            byte[] buf = out.reserveBytes(len);
                            int base = out.totalBytes();
                            for (int j = 0; j < len; j++) {
                                buf[base + j] = changeCase(src[st + j], lower);
                            }
                            out.commitRow(len);
                        }
                        return out;
                    }
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    FixedBytesColumn out = new FixedBytesColumn(f.width(), n);
                    byte[] tmp = new byte[f.width()];
                    for (int i = 0; i < n; i++) {
                        for (int j = 0; j < tmp.length; j++) {
                            tmp[j] = changeCase(f.data()[i * tmp.length + j], lower);
                        }
                        out.add(tmp, 0);
                    }
                    return out;
                });
    }

    static byte changeCase(byte b, boolean lower) {
        if (lower && b >= 'A' && b <= 'Z') {
            return (byte) (b + 32);
        }
        if (!lower && b >= 'a' && b <= 'z') {
            return (byte) (b - 32);
        }
        return b;
    }

    // ---------------------------------------------------------------------------------------
    // tuple

    private static Functions.Bound bindTuple(List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty()) {
            throw ExprException.unsupported(
                    "An empty tuple() is only supported as a whole key (no key)", pos);
        }
        List<DataType> elements = new java.util.ArrayList<>();
        for (Expr a : args) {
            elements.add(a.resultType());
        }
        return new Functions.Bound(
                new TupleType(null, elements), (cols, n, ctx) -> new TupleColumn(cols.clone()));
    }

    // ---------------------------------------------------------------------------------------
    // implicit conversion of DEFAULT values

    /**
     * The expression converted to {@code target} as ClickHouse converts a DEFAULT value to its
     * column type; the result prints as {@code e} itself.
     *
     * @throws ExprException (unsupported) if this engine cannot perform the conversion
     */
    static Expr convert(Expr e, DataType target, int pos) {
        if (e.resultType().equals(target)) {
            return e;
        }
        return cast(e, target, pos, false);
    }

    /** {@code CAST(e, 'target')}, or the implicit conversion of a DEFAULT value. */
    static Expr cast(Expr e, DataType target, int pos, boolean explicit) {
        if (e instanceof Literal l && l.kind() == Literal.Kind.NULL) {
            return Literal.ofNull(target);
        }
        DataType from = e.resultType();
        // T -> LowCardinality(T), T -> Nullable(T): convert to the inner type; same in memory
        DataType inner = target;
        boolean lc = false;
        if (inner instanceof LowCardinalityType l) {
            inner = l.nested();
            lc = true;
        }
        boolean nullable = false;
        if (inner instanceof NullableType nt) {
            inner = nt.nested();
            nullable = true;
        }
        DataType fromInner = Vectors.stripLowCardinality(from);
        boolean fromNullable = fromInner instanceof NullableType;
        if (fromNullable) {
            fromInner = ((NullableType) fromInner).nested();
        }
        Functions.Bound b = converter(fromInner, inner, pos);
        FunctionCall.Kernel k = b.kernel();
        boolean targetNullable = nullable;
        DataType targetName = target;
        FunctionCall.Kernel kernel =
                (cols, n, ctx) -> {
                    Column c = cols[0];
                    ByteColumn nullMap = null;
                    if (fromNullable) {
                        io.github.s3mergetree.engine.column.NullableColumn nc =
                                (io.github.s3mergetree.engine.column.NullableColumn) c;
                        nullMap = nc.nullMap();
                        c = nc.nested();
                        if (!targetNullable) {
                            byte[] m = nullMap.data();
                            for (int i = 0; i < n; i++) {
                                if (m[i] != 0) {
                                    throw ExprException.evaluation(
                                            "Cannot convert NULL value to non-Nullable type "
                                                    + targetName.name());
                                }
                            }
                        }
                    }
                    Column v = k.apply(new Column[] {c}, n, ctx);
                    if (!targetNullable) {
                        return v;
                    }
                    ByteColumn map = new ByteColumn(n);
                    byte[] d = map.reserve(n);
                    if (nullMap != null) {
                        System.arraycopy(nullMap.data(), 0, d, 0, n);
                    }
                    map.setSize(n);
                    return new io.github.s3mergetree.engine.column.NullableColumn(map, v);
                };
        if (explicit) {
            return new FunctionCall(
                    "CAST",
                    null,
                    FunctionCall.Form.CALL,
                    List.of(e, Literal.ofString(target.name())),
                    target,
                    kernel,
                    new boolean[2],
                    false);
        }
        return new FunctionCall(
                "_CAST",
                null,
                FunctionCall.Form.IMPLICIT,
                List.of(e),
                target,
                kernel,
                new boolean[1],
                false);
    }

    /** A kernel converting values of {@code from} to {@code to} (both without wrappers). */
    static Functions.Bound converter(DataType from, DataType to, int pos) {
        if (from.equals(to)
                || ComparableValues.stripLowCardinalityDeep(from)
                        .equals(ComparableValues.stripLowCardinalityDeep(to))) {
            // LowCardinality inside an Array / Map / Tuple (Array(String) to
            // Array(LowCardinality(String))) changes nothing in memory
            return new Functions.Bound(to, (cols, n, ctx) -> cols[0]);
        }
        TypeKind k = to.kind();
        switch (k) {
            case UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64:
                return toInteger("CAST", from, to, pos);
            case BOOL:
                if (ArithmeticFunctions.isInt(from)) {
                    return new Functions.Bound(
                            to,
                            (cols, n, ctx) -> {
                                long[] v = Vectors.longs(cols[0], from, n);
                                for (int i = 0; i < n; i++) {
                                    v[i] = v[i] != 0 ? 1 : 0;
                                }
                                return Vectors.fromLongs(v, n, to);
                            });
                }
                break;
            case FLOAT32, FLOAT64:
                return toFloat("CAST", from, to, pos);
            case DATE:
                return bindDate("toDate", List.of(dummy(from)), List.of(from), pos);
            case DATE32:
                return bindDate("toDate32", List.of(dummy(from)), List.of(from), pos);
            case DATETIME:
                {
                    String tz = DateFunctions.typeZone(to);
                    List<Expr> a =
                            tz == null
                                    ? List.of(dummy(from))
                                    : List.of(dummy(from), Literal.ofString(tz));
                    List<DataType> t =
                            tz == null ? List.of(from) : List.of(from, DataTypes.STRING_TYPE);
                    Functions.Bound b = bindDate("toDateTime", a, t, pos);
                    return new Functions.Bound(to, b.kernel());
                }
            case STRING:
                if (from.kind() == TypeKind.FIXED_STRING || from.kind() == TypeKind.STRING) {
                    break;
                }
                return bindToString(List.of(dummy(from)), List.of(from), pos);
            case FIXED_STRING:
                if (from.kind() == TypeKind.STRING) {
                    int w = ((FixedStringType) to).length();
                    return new Functions.Bound(
                            to,
                            (cols, n, ctx) -> {
                                StringColumn s = (StringColumn) cols[0];
                                FixedBytesColumn out = new FixedBytesColumn(w, n);
                                for (int i = 0; i < n; i++) {
                                    int len = s.length(i);
                                    if (len > w) {
                                        throw ExprException.evaluation(
                                                "String '"
                                                        + s.getString(i)
                                                        + "' is too long for "
                                                        + to.name());
                                    }
                                    out.addPadded(s.bytes(), s.start(i), len);
                                }
                                return out;
                            });
                }
                break;
            case ENUM8, ENUM16:
                {
                    EnumType et = (EnumType) to;
                    if (from.kind() == TypeKind.STRING) {
                        return new Functions.Bound(
                                to,
                                (cols, n, ctx) -> {
                                    Strings s = Strings.of(cols[0]);
                                    long[] v = new long[n];
                                    for (int i = 0; i < n; i++) {
                                        Integer x = et.valueOf(s.string(i));
                                        if (x == null) {
                                            throw ExprException.evaluation(
                                                    "Unknown element '"
                                                            + s.string(i)
                                                            + "' for enum "
                                                            + to.name());
                                        }
                                        v[i] = x;
                                    }
                                    return Vectors.fromLongs(v, n, to);
                                });
                    }
                    if (ArithmeticFunctions.isInt(from)) {
                        return new Functions.Bound(
                                to,
                                (cols, n, ctx) -> {
                                    long[] v = Vectors.longs(cols[0], from, n);
                                    for (int i = 0; i < n; i++) {
                                        if (v[i] < Integer.MIN_VALUE
                                                || v[i] > Integer.MAX_VALUE
                                                || et.nameOf((int) v[i]) == null) {
                                            throw ExprException.evaluation(
                                                    "Unexpected value "
                                                            + v[i]
                                                            + " for enum "
                                                            + to.name());
                                        }
                                    }
                                    return Vectors.fromLongs(v, n, to);
                                });
                    }
                    break;
                }
            default:
                break;
        }
        throw ExprException.unsupported(
                "Conversion of " + from.name() + " to " + to.name() + " is not supported", pos);
    }

    private static Expr dummy(DataType t) {
        return new ColumnRef("_", t);
    }

    /** Uniform access to the rows of a String or FixedString column. */
    static final class Strings {
        final byte[] bytes;
        final StringColumn s;
        final int width;

        private Strings(byte[] bytes, StringColumn s, int width) {
            this.bytes = bytes;
            this.s = s;
            this.width = width;
        }

        static Strings of(Column c) {
            if (c instanceof StringColumn sc) {
                return new Strings(sc.bytes(), sc, 0);
            }
            FixedBytesColumn f = (FixedBytesColumn) c;
            return new Strings(f.data(), null, f.width());
        }

        int start(int row) {
            return s != null ? s.start(row) : row * width;
        }

        int end(int row) {
            if (s != null) {
                return s.end(row);
            }
            int e = (row + 1) * width;
            int st = row * width;
            while (e > st && bytes[e - 1] == 0) {
                e--;
            }
            return e;
        }

        String string(int row) {
            return new String(bytes, start(row), end(row) - start(row), StandardCharsets.UTF_8);
        }
    }
}
