package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.TypeKind;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * {@code now64([scale[, tz]])}, {@code toUnixTimestamp64Second/Milli/Micro/Nano(dt64)} and {@code
 * fromUnixTimestamp64Second/Milli/Micro/Nano(int[, tz])}, as ClickHouse computes them.
 *
 * <p>{@code now64} reads the {@link EvaluationContext#clock() context's clock} (truncated to the
 * scale, default 3). {@code toUnixTimestamp64*} takes only a DateTime64 and returns Int64: to a
 * coarser unit the ticks are divided rounding toward zero ({@code -1.0005} s is -1000 ms), to a
 * finer one multiplied, refused on overflow ("Decimal math overflow"). {@code fromUnixTimestamp64*}
 * takes an integer as ticks of its unit and returns DateTime64 of that precision.
 */
final class DateTime64Functions {
    private DateTime64Functions() {}

    private static final String[] UNITS = {"Second", "Milli", "Micro", "Nano"};
    private static final int[] PRECISIONS = {0, 3, 6, 9};

    static void register() {
        Functions.register("now64", false, DateTime64Functions::bindNow64);
        for (int u = 0; u < UNITS.length; u++) {
            int precision = PRECISIONS[u];
            String to = "toUnixTimestamp64" + UNITS[u];
            String from = "fromUnixTimestamp64" + UNITS[u];
            Functions.register(to, false, (a, t, p) -> bindTo(to, precision, a, t, p));
            Functions.register(from, false, (a, t, p) -> bindFrom(from, precision, a, t, p));
        }
    }

    static long pow10(int p) {
        long r = 1;
        for (int i = 0; i < p; i++) {
            r *= 10;
        }
        return r;
    }

    private static Functions.Bound bindNow64(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() > 2) {
            throw Functions.argCount("now64", args.size(), "0 to 2", pos);
        }
        int precision =
                args.isEmpty() ? 3 : (int) Functions.constInteger(args, 0, "now64", "scale", pos);
        if (precision < 0 || precision > 9) {
            throw ExprException.invalid(
                    "Scale "
                            + precision
                            + " is too large for DateTime64. Maximum is up to nanoseconds (9)",
                    pos);
        }
        String tz = args.size() == 2 ? DateFunctions.zoneArg(args, 1, "now64", pos) : null;
        DateTime64Type result = new DateTime64Type(precision, tz);
        long unit = 1_000_000_000L / pow10(precision);
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    Instant now = ctx.clock().instant();
                    long ticks =
                            Math.addExact(
                                    Math.multiplyExact(now.getEpochSecond(), pow10(precision)),
                                    now.getNano() / unit);
                    long[] out = new long[n];
                    Arrays.fill(out, ticks);
                    return Vectors.fromLongs(out, n, result);
                });
    }

    private static Functions.Bound bindTo(
            String fn, int precision, List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
        DataType t = types.get(0);
        if (!(t instanceof DateTime64Type d)) {
            throw ExprException.invalid(
                    "A value of illegal type was provided as 1st argument 'value' to function '"
                            + fn
                            + "'. Expected: DateTime64, got: "
                            + t.name(),
                    pos);
        }
        int from = d.precision();
        return new Functions.Bound(
                DataTypes.INT64,
                (cols, n, ctx) -> {
                    long[] v = Vectors.longs(cols[0], t, n);
                    if (from > precision) {
                        long div = pow10(from - precision);
                        for (int i = 0; i < n; i++) {
                            v[i] /= div;
                        }
                    } else if (from < precision) {
                        long mul = pow10(precision - from);
                        for (int i = 0; i < n; i++) {
                            try {
                                v[i] = Math.multiplyExact(v[i], mul);
                            } catch (ArithmeticException e) {
                                throw ExprException.evaluation(
                                        "Decimal math overflow: "
                                                + fn
                                                + " of the DateTime64 ticks "
                                                + v[i]);
                            }
                        }
                    }
                    return Vectors.fromLongs(v, n, DataTypes.INT64);
                });
    }

    private static Functions.Bound bindFrom(
            String fn, int precision, List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty() || args.size() > 2) {
            throw Functions.argCount(fn, args.size(), "1 or 2", pos);
        }
        DataType t = types.get(0);
        if (!ArithmeticFunctions.isInt(t) || t.kind() == TypeKind.BOOL) {
            throw ExprException.invalid(
                    "The first argument for function " + fn + " must be integer", pos);
        }
        String tz = args.size() == 2 ? DateFunctions.zoneArg(args, 1, fn, pos) : null;
        DateTime64Type result = new DateTime64Type(precision, tz);
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> Vectors.fromLongs(Vectors.longs(cols[0], t, n), n, result));
    }
}
