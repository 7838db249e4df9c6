package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The comparison functions {@code equals} ({@code =}, {@code ==}), {@code notEquals} ({@code !=},
 * {@code <>}), {@code less}, {@code greater}, {@code lessOrEquals}, {@code greaterOrEquals} and the
 * set membership {@code in} / {@code notIn} over a list of constants, with ClickHouse's type rules.
 *
 * <p>Numbers of any kind compare by exact value (a signed with an unsigned integer, an integer with
 * a float; NaN is unordered: only {@code !=} holds). Date, Date32, DateTime and DateTime64 compare
 * with each other as points in time (a Date is the start of its day in the time zone of the
 * DateTime it is compared with). String and FixedString compare byte-wise; a FixedString compares
 * as if zero-padded. A String constant compared with a number, a date or an Enum is first parsed as
 * that type ("Cannot convert string ... to type ..." if it cannot be). Other pairs (a Date with a
 * number, a String column with a number) are refused as ClickHouse refuses them. The result is
 * UInt8 (Nullable and LowCardinality by the default rules).
 */
final class ComparisonFunctions {
    private ComparisonFunctions() {}

    /** The result of comparing a NaN with anything. */
    private static final int UNORDERED = 2;

    /** A comparison operator: its function name, its SQL operator and which outcomes hold. */
    enum Op {
        EQUALS("equals", "="),
        NOT_EQUALS("notEquals", "!="),
        LESS("less", "<"),
        GREATER("greater", ">"),
        LESS_OR_EQUALS("lessOrEquals", "<="),
        GREATER_OR_EQUALS("greaterOrEquals", ">=");

        final String function;
        final String operator;

        Op(String function, String operator) {
            this.function = function;
            this.operator = operator;
        }

        boolean holds(int c) {
            return switch (this) {
                case EQUALS -> c == 0;
                case NOT_EQUALS -> c != 0;
                case LESS -> c == -1;
                case GREATER -> c == 1;
                case LESS_OR_EQUALS -> c == -1 || c == 0;
                case GREATER_OR_EQUALS -> c == 1 || c == 0;
            };
        }
    }

    static void register() {
        for (Op op : Op.values()) {
            Functions.register(op.function, false, (a, t, p) -> bind(op, a, t, p));
        }
        Functions.register("in", false, (a, t, p) -> bindIn(false, a, t, p));
        Functions.register("notIn", false, (a, t, p) -> bindIn(true, a, t, p));
    }

    /** Compares row by row: -1, 0, 1 or {@link #UNORDERED}. */
    @FunctionalInterface
    interface Comparer {
        int[] compare(Column a, Column b, int n, EvaluationContext ctx);
    }

    private static Functions.Bound bind(Op op, List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 2) {
            throw Functions.argCount(op.function, args.size(), "2", pos);
        }
        Comparer c = comparer(op.function, args, types, pos);
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    int[] r = c.compare(cols[0], cols[1], n, ctx);
                    ByteColumn out = new ByteColumn(n);
                    byte[] d = out.reserve(n);
                    for (int i = 0; i < n; i++) {
                        d[i] = op.holds(r[i]) ? (byte) 1 : 0;
                    }
                    out.setSize(n);
                    return out;
                });
    }

    /**
     * {@code x IN (c1, c2, ...)}: the elements after the first argument are constants (NULL ones
     * already left out: they match nothing); elements that cannot be compared with {@code x} or
     * that a String cannot be parsed into {@code x}'s type match nothing, as ClickHouse drops the
     * set elements it cannot convert to {@code x}'s type.
     */
    private static Functions.Bound bindIn(
            boolean negate, List<Expr> args, List<DataType> types, int pos) {
        String fn = negate ? "notIn" : "in";
        if (args.isEmpty()) {
            throw Functions.argCount(fn, 0, "2", pos);
        }
        List<Comparer> comparers = new ArrayList<>();
        boolean floatSet = ArithmeticFunctions.isFloat(types.get(0));
        List<Integer> elements = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            if (!args.get(i).isConstant()) {
                throw ExprException.unsupported(
                        "The right side of "
                                + (negate ? "NOT IN" : "IN")
                                + " must be a list of constants, got "
                                + args.get(i).toSql(),
                        pos);
            }
            try {
                if (floatSet) {
                    comparers.add(floatMember(types.get(0), args.get(i), types.get(i), pos));
                    elements.add(i);
                    continue;
                }
                comparers.add(
                        comparer(
                                fn,
                                List.of(args.get(0), args.get(i)),
                                List.of(types.get(0), types.get(i)),
                                pos));
                elements.add(i);
            } catch (ExprException e) {
                if (domain(types.get(0)) == Domain.TIME && args.get(i) instanceof Literal) {
                    throw e; // a string that is not a date: refused, as ClickHouse does
                }
                // an element of another type or one that does not convert: not in the set
            }
        }
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    boolean[] found = new boolean[n];
                    for (int k = 0; k < comparers.size(); k++) {
                        int[] r = comparers.get(k).compare(cols[0], cols[elements.get(k)], n, ctx);
                        for (int i = 0; i < n; i++) {
                            found[i] |= r[i] == 0;
                        }
                    }
                    ByteColumn out = new ByteColumn(n);
                    byte[] d = out.reserve(n);
                    for (int i = 0; i < n; i++) {
                        d[i] = found[i] != negate ? (byte) 1 : 0;
                    }
                    out.setSize(n);
                    return out;
                });
    }

    /**
     * Membership of a float in a set as ClickHouse's hash set decides it: the element converted to
     * the float type, then the same bits ({@code -0.0} is not {@code 0.0}) or both NaN.
     */
    private static Comparer floatMember(DataType left, Expr element, DataType type, int pos) {
        if (!ArithmeticFunctions.isNumber(type)) {
            throw ExprException.invalid("not a number: " + element.toSql(), pos);
        }
        boolean f32 = left.kind() == TypeKind.FLOAT32;
        return (x, y, n, ctx) -> {
            double[] p = Vectors.doubles(x, left, n);
            double[] q = Vectors.doubles(y, type, n);
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                double e = f32 ? (float) q[i] : q[i];
                boolean same =
                        Double.isNaN(p[i])
                                ? Double.isNaN(e)
                                : Double.doubleToRawLongBits(p[i]) == Double.doubleToRawLongBits(e);
                out[i] = same ? 0 : 1;
            }
            return out;
        };
    }

    /** How a comparable value is represented. */
    private enum Domain {
        NUMBER,
        TIME,
        STRING
    }

    private static Domain domain(DataType t) {
        if (ArithmeticFunctions.isNumber(t)
                || t.kind() == TypeKind.ENUM8
                || t.kind() == TypeKind.ENUM16) {
            return Domain.NUMBER;
        }
        if (DateFunctions.isTemporal(t)) {
            return Domain.TIME;
        }
        if (t.kind() == TypeKind.STRING || t.kind() == TypeKind.FIXED_STRING) {
            return Domain.STRING;
        }
        return null;
    }

    /** The comparer of two values of the (unwrapped) types, or ClickHouse's refusal. */
    static Comparer comparer(String fn, List<Expr> args, List<DataType> types, int pos) {
        DataType a = types.get(0);
        DataType b = types.get(1);
        Domain da = domain(a);
        Domain db = domain(b);
        if (da == null || db == null) {
            throw ExprException.unsupported(
                    "Comparison of "
                            + a.name()
                            + " with "
                            + b.name()
                            + " (function "
                            + fn
                            + ") is not supported by this engine",
                    pos);
        }
        if (da != db) {
            // a String constant is parsed as the other side's type
            if (db == Domain.STRING && args.get(1) instanceof Literal l) {
                Constant k = parseConstant(l.stringValue(), a, pos);
                Comparer c =
                        comparer(fn, List.of(args.get(0), args.get(0)), List.of(a, k.type()), pos);
                return (x, y, n, ctx) -> c.compare(x, k.repeat(n, ctx), n, ctx);
            }
            if (da == Domain.STRING && args.get(0) instanceof Literal l) {
                Constant k = parseConstant(l.stringValue(), b, pos);
                Comparer c =
                        comparer(fn, List.of(args.get(1), args.get(1)), List.of(k.type(), b), pos);
                return (x, y, n, ctx) -> c.compare(k.repeat(n, ctx), y, n, ctx);
            }
            if (da == Domain.STRING || db == Domain.STRING) {
                throw ExprException.invalid(
                        "There is no supertype for types "
                                + a.name()
                                + ", "
                                + b.name()
                                + " because some of them are String/FixedString/Enum and some of"
                                + " them are not (function "
                                + fn
                                + ")",
                        pos);
            }
            throw illegalTypes(fn, a, b, pos);
        }
        return switch (da) {
            case NUMBER -> numberComparer(fn, a, b, pos);
            case TIME -> timeComparer(a, b);
            case STRING -> stringComparer(a, b);
        };
    }

    private static ExprException illegalTypes(String fn, DataType a, DataType b, int pos) {
        return ExprException.invalid(
                "Illegal types of arguments (`"
                        + a.name()
                        + "`, `"
                        + b.name()
                        + "`) of function `"
                        + fn
                        + "`",
                pos);
    }

    private static boolean isEnum(DataType t) {
        return t.kind() == TypeKind.ENUM8 || t.kind() == TypeKind.ENUM16;
    }

    // ---------------------------------------------------------------------------------------
    // numbers

    private static Comparer numberComparer(String fn, DataType a, DataType b, int pos) {
        if (isEnum(a) && isEnum(b) && !a.equals(b)) {
            throw illegalTypes(fn, a, b, pos);
        }
        boolean fa = ArithmeticFunctions.isFloat(a);
        boolean fb = ArithmeticFunctions.isFloat(b);
        boolean ua = a.kind() == TypeKind.UINT64;
        boolean ub = b.kind() == TypeKind.UINT64;
        return (x, y, n, ctx) -> {
            int[] out = new int[n];
            if (fa && fb) {
                double[] p = Vectors.doubles(x, a, n);
                double[] q = Vectors.doubles(y, b, n);
                for (int i = 0; i < n; i++) {
                    out[i] = compareDoubles(p[i], q[i]);
                }
            } else if (fa) {
                double[] p = Vectors.doubles(x, a, n);
                long[] q = Vectors.longs(y, b, n);
                for (int i = 0; i < n; i++) {
                    int c = compareLongDouble(q[i], ub, p[i]);
                    out[i] = c == UNORDERED ? c : -c;
                }
            } else if (fb) {
                long[] p = Vectors.longs(x, a, n);
                double[] q = Vectors.doubles(y, b, n);
                for (int i = 0; i < n; i++) {
                    out[i] = compareLongDouble(p[i], ua, q[i]);
                }
            } else {
                long[] p = Vectors.longs(x, a, n);
                long[] q = Vectors.longs(y, b, n);
                for (int i = 0; i < n; i++) {
                    out[i] = compareLongs(p[i], ua, q[i], ub);
                }
            }
            return out;
        };
    }

    static int compareDoubles(double p, double q) {
        if (Double.isNaN(p) || Double.isNaN(q)) {
            return UNORDERED;
        }
        return p < q ? -1 : p > q ? 1 : 0;
    }

    /** Exact comparison of two integers, each signed or (if the flag says so) UInt64. */
    static int compareLongs(long p, boolean pu, long q, boolean qu) {
        if (pu && qu) {
            return Integer.signum(Long.compareUnsigned(p, q));
        }
        if (pu && p < 0) {
            return 1;
        }
        if (qu && q < 0) {
            return -1;
        }
        return Integer.signum(Long.compare(p, q));
    }

    private static final double TWO_63 = 9.223372036854775808E18;
    private static final double TWO_64 = 1.8446744073709551616E19;

    /** Exact comparison of an integer (signed, or UInt64 if {@code unsigned}) with a double. */
    static int compareLongDouble(long l, boolean unsigned, double d) {
        if (Double.isNaN(d)) {
            return UNORDERED;
        }
        if (unsigned && l < 0) {
            // l is in [2^63, 2^64)
            if (d < TWO_63) {
                return 1;
            }
            if (d >= TWO_64) {
                return -1;
            }
            long bits = (long) (d - TWO_63) + Long.MIN_VALUE;
            return Integer.signum(Long.compareUnsigned(l, bits));
        }
        if (d >= TWO_63) {
            return -1;
        }
        if (d < -TWO_63) {
            return 1;
        }
        long t = (long) d;
        if (l != t) {
            return l < t ? -1 : 1;
        }
        double frac = d - t;
        return frac > 0 ? -1 : frac < 0 ? 1 : 0;
    }

    // ---------------------------------------------------------------------------------------
    // dates and times

    /**
     * Date/Date32 alone compare as day numbers; with a DateTime or DateTime64 both sides become
     * seconds (ticks of the finer DateTime64 precision) as ClickHouse converts them to their common
     * type: a Date as {@code CAST} to the other side's DateTime type does (midnight in that type's
     * time zone, saturated), a Date32 at midnight in the server's time zone against a DateTime and
     * in the DateTime64's zone against a DateTime64.
     */
    private static Comparer timeComparer(DataType a, DataType b) {
        boolean days = isDay(a) && isDay(b);
        long scale = Math.max(DateFunctions.scaleOf(a), DateFunctions.scaleOf(b));
        return (x, y, n, ctx) -> {
            long[] p = Vectors.longs(x, a, n);
            long[] q = Vectors.longs(y, b, n);
            if (!days) {
                toTicks(p, n, a, b, scale, ctx);
                toTicks(q, n, b, a, scale, ctx);
            }
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                out[i] = Long.compare(p[i], q[i]);
            }
            return out;
        };
    }

    private static boolean isDay(DataType t) {
        return t.kind() == TypeKind.DATE || t.kind() == TypeKind.DATE32;
    }

    /** Values of {@code t} (compared with a value of {@code other}) as ticks of {@code scale}. */
    private static void toTicks(
            long[] v, int n, DataType t, DataType other, long scale, EvaluationContext ctx) {
        if (t.kind() == TypeKind.DATE) {
            DateLut lut = DateLut.of(DateFunctions.zone(null, other, ctx));
            for (int i = 0; i < n; i++) {
                v[i] =
                        ConversionFunctions.fromTemporal(
                                        "toDateTime", DateFunctions.Kind.DATE, v[i], lut)
                                * scale;
            }
            return;
        }
        if (t.kind() == TypeKind.DATE32) {
            DateLut lut =
                    DateLut.of(
                            other.kind() == TypeKind.DATETIME64
                                    ? DateFunctions.zone(null, other, ctx)
                                    : ctx.serverTimeZone());
            for (int i = 0; i < n; i++) {
                v[i] = lut.dayStart(v[i]) * scale;
            }
            return;
        }
        long factor = scale / DateFunctions.scaleOf(t);
        if (factor != 1) {
            for (int i = 0; i < n; i++) {
                v[i] *= factor;
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // strings

    /**
     * Byte-wise comparison; when a FixedString takes part the shorter value is compared as if
     * padded with zero bytes (so {@code 'a'} equals FixedString {@code 'a\0'}).
     */
    private static Comparer stringComparer(DataType a, DataType b) {
        boolean padded = a.kind() == TypeKind.FIXED_STRING || b.kind() == TypeKind.FIXED_STRING;
        return (x, y, n, ctx) -> {
            int[] out = new int[n];
            for (int i = 0; i < n; i++) {
                out[i] =
                        compareBytes(
                                bytes(x),
                                start(x, i),
                                end(x, i),
                                bytes(y),
                                start(y, i),
                                end(y, i),
                                padded);
            }
            return out;
        };
    }

    private static byte[] bytes(Column c) {
        return c instanceof StringColumn s ? s.bytes() : ((FixedBytesColumn) c).data();
    }

    private static int start(Column c, int i) {
        return c instanceof StringColumn s ? s.start(i) : i * ((FixedBytesColumn) c).width();
    }

    private static int end(Column c, int i) {
        return c instanceof StringColumn s ? s.end(i) : (i + 1) * ((FixedBytesColumn) c).width();
    }

    static int compareBytes(
            byte[] p, int ps, int pe, byte[] q, int qs, int qe, boolean zeroPadded) {
        int lp = pe - ps;
        int lq = qe - qs;
        int m = Math.min(lp, lq);
        for (int k = 0; k < m; k++) {
            int c = Integer.compare(p[ps + k] & 0xFF, q[qs + k] & 0xFF);
            if (c != 0) {
                return c;
            }
        }
        if (!zeroPadded) {
            return Integer.signum(Integer.compare(lp, lq));
        }
        for (int k = ps + m; k < pe; k++) {
            if (p[k] != 0) {
                return 1;
            }
        }
        for (int k = qs + m; k < qe; k++) {
            if (q[k] != 0) {
                return -1;
            }
        }
        return 0;
    }

    // ---------------------------------------------------------------------------------------
    // String constants compared with other types

    /** A constant of {@code type} (one row in {@code one}). */
    private record Constant(Column one, DataType type, FunctionCall.Kernel parse) {
        Constant(Column one, DataType type) {
            this(one, type, null);
        }

        /** A column of {@code n} copies of the value. */
        Column repeat(int n, EvaluationContext ctx) {
            if (parse != null) {
                // a date's value depends on the server time zone: parsed per evaluation
                return new Constant(parse.apply(new Column[] {one}, 1, ctx), type).repeat(n, ctx);
            }
            if (ArithmeticFunctions.isFloat(type)) {
                double[] d = new double[n];
                java.util.Arrays.fill(d, Vectors.doubles(one, type, 1)[0]);
                return Vectors.fromDoubles(d, n, type);
            }
            long[] l = new long[n];
            java.util.Arrays.fill(l, Vectors.longs(one, type, 1)[0]);
            return Vectors.fromLongs(l, n, type);
        }
    }

    /**
     * {@code s} parsed as a value comparable with type {@code t}: an integer keeps its exact value
     * (as Int64 or UInt64, so {@code '300'} differs from every UInt8), a float is parsed in {@code
     * t}'s precision, a date or Enum as {@code CAST(s AS t)}.
     */
    private static Constant parseConstant(String s, DataType t, int pos) {
        ExprException refusal =
                ExprException.invalid(
                        "Cannot convert string " + SqlLexer.quoteString(s) + " to type " + t.name(),
                        pos);
        if (isEnum(t)) {
            Integer v = ((EnumType) t).valueOf(s);
            if (v == null) {
                throw refusal;
            }
            return new Constant(Vectors.fromLongs(new long[] {v}, 1, t), t);
        }
        if (ArithmeticFunctions.isFloat(t)) {
            try {
                double d = Double.parseDouble(s);
                if (s.isEmpty() || Character.isWhitespace(s.charAt(0))) {
                    throw refusal;
                }
                return new Constant(Vectors.fromDoubles(new double[] {d}, 1, t), t);
            } catch (NumberFormatException e) {
                throw refusal;
            }
        }
        if (ArithmeticFunctions.isInt(t)) {
            boolean signed = ArithmeticFunctions.signed(t);
            if (!s.matches(signed ? "[-+]?[0-9]+" : "\\+?[0-9]+")) {
                throw refusal;
            }
            BigInteger v = new BigInteger(s.startsWith("+") ? s.substring(1) : s);
            if (signed ? v.bitLength() > 63 : v.bitLength() > 64) {
                throw refusal;
            }
            DataType wide = v.bitLength() == 64 ? DataTypes.UINT64 : DataTypes.INT64;
            return new Constant(Vectors.fromLongs(new long[] {v.longValue()}, 1, wide), wide);
        }
        if (t instanceof DateTime64Type) {
            throw ExprException.unsupported(
                    "Comparing a DateTime64 with the string "
                            + SqlLexer.quoteString(s)
                            + " is not supported by this engine",
                    pos);
        }
        if (isDay(t) && !s.matches("\\s*[0-9]{4}-?[0-9]{1,2}-?[0-9]{1,2}\\s*")) {
            throw refusal;
        }
        // Date, Date32, DateTime: as CAST(s AS t)
        Functions.Bound conv = ConversionFunctions.converter(DataTypes.STRING_TYPE, t, pos);
        StringColumn in = new StringColumn(1);
        in.add(s);
        try {
            conv.kernel().apply(new Column[] {in}, 1, EvaluationContext.utc());
        } catch (ExprException e) {
            throw refusal;
        }
        return new Constant(in, t, conv.kernel());
    }
}
