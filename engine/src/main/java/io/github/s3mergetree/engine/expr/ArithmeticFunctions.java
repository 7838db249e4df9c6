package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;

/**
 * {@code plus}, {@code minus}, {@code multiply}, {@code divide}, {@code intDiv}, {@code modulo}
 * (and {@code moduloLegacy}, which ClickHouse uses for {@code %} in partition keys), {@code
 * negate}: ClickHouse's result-type rules ({@code NumberTraits}) and its wrap-around integer
 * arithmetic, including the errors on division by zero.
 */
final class ArithmeticFunctions {
    private ArithmeticFunctions() {}

    static void register() {
        Functions.register("plus", false, (a, t, p) -> bindAdditive("plus", a, t, p));
        Functions.register("minus", false, (a, t, p) -> bindAdditive("minus", a, t, p));
        Functions.register("multiply", false, (a, t, p) -> bindAdditive("multiply", a, t, p));
        Functions.register("divide", false, ArithmeticFunctions::bindDivide);
        Functions.register("intDiv", false, ArithmeticFunctions::bindIntDiv);
        Functions.register("modulo", false, (a, t, p) -> bindModulo("modulo", a, t, p), "mod");
        Functions.register("moduloLegacy", false, (a, t, p) -> bindModulo("moduloLegacy", a, t, p));
        Functions.register("negate", false, ArithmeticFunctions::bindNegate);
    }

    /** Byte width of an integer or float type, 0 if not numeric. */
    static int width(DataType t) {
        return switch (t.kind()) {
            case UINT8, INT8, BOOL -> 1;
            case UINT16, INT16 -> 2;
            case UINT32, INT32, FLOAT32 -> 4;
            case UINT64, INT64, FLOAT64 -> 8;
            default -> 0;
        };
    }

    static boolean isInt(DataType t) {
        return switch (t.kind()) {
            case UINT8, INT8, BOOL, UINT16, INT16, UINT32, INT32, UINT64, INT64 -> true;
            default -> false;
        };
    }

    static boolean isFloat(DataType t) {
        return t.kind() == TypeKind.FLOAT32 || t.kind() == TypeKind.FLOAT64;
    }

    static boolean isNumber(DataType t) {
        return isInt(t) || isFloat(t);
    }

    static boolean signed(DataType t) {
        return switch (t.kind()) {
            case INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 -> true;
            default -> false;
        };
    }

    static int nextSize(int w) {
        return Math.min(8, w * 2);
    }

    private static void checkTwo(String fn, List<Expr> args, int pos) {
        if (args.size() != 2) {
            throw Functions.argCount(fn, args.size(), "2", pos);
        }
    }

    private static ExprException illegalPair(String fn, DataType a, DataType b, int pos) {
        return ExprException.invalid(
                "Illegal types "
                        + a.name()
                        + " and "
                        + b.name()
                        + " of arguments of function "
                        + fn,
                pos);
    }

    // ---------------------------------------------------------------------------------------
    // plus, minus, multiply

    private static Functions.Bound bindAdditive(
            String fn, List<Expr> args, List<DataType> types, int pos) {
        checkTwo(fn, args, pos);
        DataType a = types.get(0);
        DataType b = types.get(1);
        if (!fn.equals("multiply") && IntervalFunctions.applies(a, b)) {
            return IntervalFunctions.bind(fn, a, b, pos);
        }
        if (isNumber(a) && isNumber(b)) {
            DataType result;
            if (isFloat(a) || isFloat(b)) {
                result = DataTypes.FLOAT64;
            } else {
                boolean s = fn.equals("minus") || signed(a) || signed(b);
                result = Vectors.integerType(nextSize(Math.max(width(a), width(b))), s);
            }
            return new Functions.Bound(result, numericKernel(fn, a, b, result));
        }
        // date arithmetic: Date/Date32/DateTime plus or minus an integer
        boolean aTime = isDateLike(a);
        boolean bTime = isDateLike(b);
        if (!fn.equals("multiply")) {
            if (aTime && isInt(b)) {
                return dateShift(fn, a, 0, b, 1);
            }
            if (fn.equals("plus") && bTime && isInt(a)) {
                return dateShift(fn, b, 1, a, 0);
            }
            if (fn.equals("minus")
                    && a.kind() == b.kind()
                    && (a.kind() == TypeKind.DATE || a.kind() == TypeKind.DATE32)) {
                return new Functions.Bound(
                        DataTypes.INT32,
                        (cols, n, ctx) -> {
                            long[] x = Vectors.longs(cols[0], a, n);
                            long[] y = Vectors.longs(cols[1], b, n);
                            for (int i = 0; i < n; i++) {
                                x[i] = x[i] - y[i];
                            }
                            return Vectors.fromLongs(x, n, DataTypes.INT32);
                        });
            }
        }
        if (a.kind() == TypeKind.DATETIME64 || b.kind() == TypeKind.DATETIME64) {
            throw ExprException.unsupported(
                    "Arithmetic on DateTime64 values is not supported (function " + fn + ")", pos);
        }
        throw illegalPair(fn, a, b, pos);
    }

    static boolean isDateLike(DataType t) {
        return t.kind() == TypeKind.DATE
                || t.kind() == TypeKind.DATE32
                || t.kind() == TypeKind.DATETIME;
    }

    private static Functions.Bound dateShift(
            String fn, DataType timeType, int timeArg, DataType intType, int intArg) {
        boolean minus = fn.equals("minus");
        return new Functions.Bound(
                timeType,
                (cols, n, ctx) -> {
                    long[] t = Vectors.longs(cols[timeArg], timeType, n);
                    long[] d = Vectors.longs(cols[intArg], intType, n);
                    for (int i = 0; i < n; i++) {
                        t[i] = minus ? t[i] - d[i] : t[i] + d[i];
                    }
                    return Vectors.fromLongs(t, n, timeType);
                });
    }

    private static FunctionCall.Kernel numericKernel(
            String fn, DataType a, DataType b, DataType result) {
        if (isFloat(result)) {
            return (cols, n, ctx) -> {
                double[] x = Vectors.doubles(cols[0], a, n);
                double[] y = Vectors.doubles(cols[1], b, n);
                switch (fn) {
                    case "plus" -> {
                        for (int i = 0; i < n; i++) {
                            x[i] += y[i];
                        }
                    }
                    case "minus" -> {
                        for (int i = 0; i < n; i++) {
                            x[i] -= y[i];
                        }
                    }
                    default -> {
                        for (int i = 0; i < n; i++) {
                            x[i] *= y[i];
                        }
                    }
                }
                return Vectors.fromDoubles(x, n, result);
            };
        }
        return (cols, n, ctx) -> {
            long[] x = Vectors.longs(cols[0], a, n);
            long[] y = Vectors.longs(cols[1], b, n);
            switch (fn) {
                case "plus" -> {
                    for (int i = 0; i < n; i++) {
                        x[i] += y[i];
                    }
                }
                case "minus" -> {
                    for (int i = 0; i < n; i++) {
                        x[i] -= y[i];
                    }
                }
                default -> {
                    for (int i = 0; i < n; i++) {
                        x[i] *= y[i];
                    }
                }
            }
            return Vectors.fromLongs(x, n, result);
        };
    }

    // ---------------------------------------------------------------------------------------
    // divide

    private static Functions.Bound bindDivide(List<Expr> args, List<DataType> types, int pos) {
        checkTwo("divide", args, pos);
        DataType a = types.get(0);
        DataType b = types.get(1);
        if (!isNumber(a) || !isNumber(b)) {
            throw illegalPair("divide", a, b, pos);
        }
        return new Functions.Bound(
                DataTypes.FLOAT64,
                (cols, n, ctx) -> {
                    double[] x = Vectors.doubles(cols[0], a, n);
                    double[] y = Vectors.doubles(cols[1], b, n);
                    for (int i = 0; i < n; i++) {
                        x[i] /= y[i];
                    }
                    return Vectors.fromDoubles(x, n, DataTypes.FLOAT64);
                });
    }

    // ---------------------------------------------------------------------------------------
    // intDiv

    /** Reinterprets the low {@code bytes} bytes of {@code v} as a signed integer. */
    static long asSigned(long v, int bytes) {
        return switch (bytes) {
            case 1 -> (byte) v;
            case 2 -> (short) v;
            case 4 -> (int) v;
            default -> v;
        };
    }

    static long minOf(int bytes) {
        return switch (bytes) {
            case 1 -> Byte.MIN_VALUE;
            case 2 -> Short.MIN_VALUE;
            case 4 -> Integer.MIN_VALUE;
            default -> Long.MIN_VALUE;
        };
    }

    private static Functions.Bound bindIntDiv(List<Expr> args, List<DataType> types, int pos) {
        checkTwo("intDiv", args, pos);
        DataType a = types.get(0);
        DataType b = types.get(1);
        if (!isInt(a) || !isInt(b)) {
            if (isNumber(a) && isNumber(b)) {
                throw ExprException.unsupported(
                        "intDiv of floating-point arguments is not supported ("
                                + a.name()
                                + ", "
                                + b.name()
                                + ")",
                        pos);
            }
            throw illegalPair("intDiv", a, b, pos);
        }
        int wa = width(a);
        int wb = width(b);
        boolean anySigned = signed(a) || signed(b);
        DataType result = Vectors.integerType(wa, anySigned);
        boolean constB = args.get(1) instanceof Literal;
        boolean specialized =
                constB
                        && (wa == 4 || wa == 8)
                        && ((signed(a) && signed(b)) || (!signed(a) && !signed(b)));
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    long[] x = Vectors.longs(cols[0], a, n);
                    long[] y = Vectors.longs(cols[1], b, n);
                    if (!anySigned) {
                        for (int i = 0; i < n; i++) {
                            if (y[i] == 0) {
                                throw ExprException.evaluation("Division by zero (intDiv)");
                            }
                            x[i] = Long.divideUnsigned(x[i], y[i]);
                        }
                    } else {
                        for (int i = 0; i < n; i++) {
                            long sa = asSigned(x[i], wa);
                            long sb = wa <= wb ? asSigned(y[i], wb) : y[i];
                            if (sb == 0) {
                                throw ExprException.evaluation("Division by zero (intDiv)");
                            }
                            if (sb == -1 && sa == minOf(wa)) {
                                if (!specialized) {
                                    throw ExprException.evaluation(
                                            "Division of minimal signed number by minus one"
                                                    + " (intDiv)");
                                }
                                x[i] = sa; // -min wraps to min, as ClickHouse's constant path
                            } else {
                                x[i] = sa / sb;
                            }
                        }
                    }
                    return Vectors.fromLongs(x, n, result);
                });
    }

    // ---------------------------------------------------------------------------------------
    // modulo, moduloLegacy

    private static Functions.Bound bindModulo(
            String fn, List<Expr> args, List<DataType> types, int pos) {
        checkTwo(fn, args, pos);
        DataType a = types.get(0);
        DataType b = types.get(1);
        if (!isNumber(a) || !isNumber(b)) {
            throw illegalPair(fn, a, b, pos);
        }
        if (isFloat(a) || isFloat(b)) {
            if (fn.equals("moduloLegacy")) {
                throw ExprException.unsupported(
                        "Floating-point modulo in a partition key is not supported", pos);
            }
            return new Functions.Bound(
                    DataTypes.FLOAT64,
                    (cols, n, ctx) -> {
                        double[] x = Vectors.doubles(cols[0], a, n);
                        double[] y = Vectors.doubles(cols[1], b, n);
                        for (int i = 0; i < n; i++) {
                            double q = x[i] / y[i];
                            x[i] = x[i] - (q < 0 ? Math.ceil(q) : Math.floor(q)) * y[i];
                        }
                        return Vectors.fromDoubles(x, n, DataTypes.FLOAT64);
                    });
        }
        DataType result;
        if (fn.equals("moduloLegacy")) {
            result = Vectors.integerType(width(b), signed(a) || signed(b));
        } else if (signed(a)) {
            result = Vectors.integerType(nextSize(width(b)), true);
        } else {
            result = Vectors.integerType(width(b), false);
        }
        // ClickHouse specializes modulo (not moduloLegacy) by a constant for UInt32/UInt64 and
        // Int32/Int64 dividends with a divisor of the same signedness
        boolean constB = args.get(1) instanceof Literal;
        boolean specialized =
                fn.equals("modulo")
                        && constB
                        && (width(a) == 4 || width(a) == 8)
                        && signed(a) == signed(b);
        boolean sa = signed(a);
        boolean sb = signed(b);
        int wa = width(a);
        int wb = width(b);
        // the C++ type in which `a % b` is computed: integer promotion, then the usual
        // arithmetic conversions (a negative operand wraps when the other is a wide unsigned)
        int pa = Math.max(4, wa);
        int pb = Math.max(4, wb);
        boolean psa = wa < 4 || sa;
        boolean psb = wb < 4 || sb;
        int opWidth;
        boolean opSigned;
        if (psa == psb) {
            opWidth = Math.max(pa, pb);
            opSigned = psa;
        } else {
            int unsignedWidth = psa ? pb : pa;
            int signedWidth = psa ? pa : pb;
            opSigned = unsignedWidth < signedWidth;
            opWidth = opSigned ? signedWidth : unsignedWidth;
        }
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    long[] x = Vectors.longs(cols[0], a, n);
                    long[] y = Vectors.longs(cols[1], b, n);
                    for (int i = 0; i < n; i++) {
                        long bv = y[i];
                        long av = x[i];
                        if (bv == 0) {
                            throw ExprException.evaluation("Division by zero (" + fn + ")");
                        }
                        if (specialized) {
                            if ((sb && bv == -1) || bv == 1) {
                                x[i] = 0;
                                continue;
                            }
                            boolean tooLarge =
                                    sb
                                            ? (wa < 8 && (bv > -minOf(wa) - 1 || bv < minOf(wa)))
                                            : (wa < 8 && Long.compareUnsigned(bv, 0xFFFFFFFFL) > 0);
                            if (tooLarge) {
                                x[i] = av; // |divisor| beyond the dividend's range
                                continue;
                            }
                            if (sb && bv == minOf(wb)) {
                                throw ExprException.evaluation(
                                        "Division by the most negative number (" + fn + ")");
                            }
                        } else if (sa && sb && bv == -1 && av == minOf(wa)) {
                            throw ExprException.evaluation(
                                    "Division of minimal signed number by minus one (" + fn + ")");
                        }
                        x[i] = cppRemainder(av, bv, opWidth, opSigned);
                    }
                    return Vectors.fromLongs(x, n, result);
                });
    }

    /** {@code a % b} in the C++ integer type of the given width and signedness. */
    static long cppRemainder(long a, long b, int width, boolean signed) {
        if (signed) {
            long x = asSigned(a, width);
            long y = asSigned(b, width);
            return x % y;
        }
        if (width == 8) {
            return Long.remainderUnsigned(a, b);
        }
        return (a & 0xFFFFFFFFL) % (b & 0xFFFFFFFFL);
    }

    // ---------------------------------------------------------------------------------------
    // negate

    private static Functions.Bound bindNegate(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount("negate", args.size(), "1", pos);
        }
        DataType a = types.get(0);
        if (!isNumber(a)) {
            throw Functions.illegalType(a, 0, "negate", pos);
        }
        if (isFloat(a)) {
            return new Functions.Bound(
                    a,
                    (cols, n, ctx) -> {
                        double[] x = Vectors.doubles(cols[0], a, n);
                        for (int i = 0; i < n; i++) {
                            x[i] = -x[i];
                        }
                        return Vectors.fromDoubles(x, n, a);
                    });
        }
        DataType result = signed(a) ? a : Vectors.integerType(nextSize(width(a)), true);
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    long[] x = Vectors.longs(cols[0], a, n);
                    for (int i = 0; i < n; i++) {
                        x[i] = -x[i];
                    }
                    return Vectors.fromLongs(x, n, result);
                });
    }
}
