package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;

/**
 * The logical functions {@code and}, {@code or} ({@code AND}, {@code OR}), {@code not} ({@code
 * NOT}) and {@code isNull} / {@code isNotNull} ({@code IS [NOT] NULL}), as ClickHouse computes
 * them.
 *
 * <p>{@code and} / {@code or} take two or more numbers (any non-zero value, NaN included, is true)
 * and use three-valued logic over Nullable arguments: {@code 0 AND NULL} is 0, {@code 1 AND NULL}
 * is NULL, {@code 1 OR NULL} is 1; the result is Bool when an argument is Bool, else UInt8, and
 * Nullable when any argument is. {@code not} is 1 for zero; {@code isNull} / {@code isNotNull} take
 * any type and return UInt8.
 */
final class LogicalFunctions {
    private LogicalFunctions() {}

    static void register() {
        Functions.register(
                new Functions.Def(
                        "and", (a, t, p) -> bindAndOr(true, a, t, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "or", (a, t, p) -> bindAndOr(false, a, t, p), false, false, false));
        Functions.register("not", false, LogicalFunctions::bindNot);
        Functions.register(
                new Functions.Def(
                        "isNull", (a, t, p) -> bindIsNull(false, a, t, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "isNotNull", (a, t, p) -> bindIsNull(true, a, t, p), false, false, false));
    }

    private static DataType checkNumber(DataType t, int index, String fn, int pos) {
        if (!ArithmeticFunctions.isNumber(t)) {
            throw ExprException.invalid(
                    "Illegal type ("
                            + t.name()
                            + ") of "
                            + (index + 1)
                            + " argument of function "
                            + fn,
                    pos);
        }
        return t;
    }

    private static Functions.Bound bindAndOr(
            boolean and, List<Expr> args, List<DataType> types, int pos) {
        String fn = and ? "and" : "or";
        if (args.size() < 2) {
            throw ExprException.invalid(
                    "Number of arguments for function \""
                            + fn
                            + "\" should be at least 2: passed "
                            + args.size(),
                    pos);
        }
        int n = args.size();
        DataType[] inner = new DataType[n];
        boolean nullable = false;
        boolean anyBool = false;
        for (int i = 0; i < n; i++) {
            DataType t = types.get(i);
            if (t instanceof NullableType nt) {
                nullable = true;
                t = nt.nested();
            }
            inner[i] = checkNumber(t, i, fn, pos);
            anyBool |= t.kind() == TypeKind.BOOL;
        }
        DataType base = anyBool ? DataTypes.BOOL : DataTypes.UINT8;
        DataType result = nullable ? new NullableType(base) : base;
        boolean isNullable = nullable;
        return new Functions.Bound(
                result,
                (cols, rows, ctx) -> {
                    // per row: 0 = false, 1 = true, 2 = NULL
                    byte[] acc = new byte[rows];
                    java.util.Arrays.fill(acc, and ? (byte) 1 : (byte) 0);
                    for (int k = 0; k < n; k++) {
                        Column c = cols[k];
                        byte[] nulls = null;
                        if (c instanceof NullableColumn nc) {
                            nulls = nc.nullMap().data();
                            c = nc.nested();
                        }
                        boolean[] truth = truth(c, inner[k], rows);
                        for (int i = 0; i < rows; i++) {
                            byte v = nulls != null && nulls[i] != 0 ? 2 : truth[i] ? (byte) 1 : 0;
                            acc[i] = and ? and3(acc[i], v) : or3(acc[i], v);
                        }
                    }
                    ByteColumn values = new ByteColumn(rows);
                    byte[] d = values.reserve(rows);
                    for (int i = 0; i < rows; i++) {
                        d[i] = acc[i] == 1 ? (byte) 1 : 0;
                    }
                    values.setSize(rows);
                    if (!isNullable) {
                        return values;
                    }
                    ByteColumn map = new ByteColumn(rows);
                    byte[] m = map.reserve(rows);
                    for (int i = 0; i < rows; i++) {
                        m[i] = acc[i] == 2 ? (byte) 1 : 0;
                    }
                    map.setSize(rows);
                    return new NullableColumn(map, values);
                });
    }

    private static byte and3(byte a, byte b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return a == 2 || b == 2 ? (byte) 2 : 1;
    }

    private static byte or3(byte a, byte b) {
        if (a == 1 || b == 1) {
            return 1;
        }
        return a == 2 || b == 2 ? (byte) 2 : 0;
    }

    /** Whether each value of a number column is non-zero (NaN counts as non-zero). */
    static boolean[] truth(Column c, DataType t, int n) {
        boolean[] out = new boolean[n];
        if (ArithmeticFunctions.isFloat(t)) {
            double[] d = Vectors.doubles(c, t, n);
            for (int i = 0; i < n; i++) {
                out[i] = d[i] != 0;
            }
        } else {
            long[] l = Vectors.longs(c, t, n);
            for (int i = 0; i < n; i++) {
                out[i] = l[i] != 0;
            }
        }
        return out;
    }

    private static Functions.Bound bindNot(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount("not", args.size(), "1", pos);
        }
        DataType t = types.get(0);
        if (!ArithmeticFunctions.isNumber(t)) {
            throw ExprException.invalid(
                    "Illegal type (" + t.name() + ") of argument of function not", pos);
        }
        DataType result = t.kind() == TypeKind.BOOL ? DataTypes.BOOL : DataTypes.UINT8;
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    boolean[] truth = truth(cols[0], t, n);
                    ByteColumn out = new ByteColumn(n);
                    byte[] d = out.reserve(n);
                    for (int i = 0; i < n; i++) {
                        d[i] = truth[i] ? 0 : (byte) 1;
                    }
                    out.setSize(n);
                    return out;
                });
    }

    private static Functions.Bound bindIsNull(
            boolean negate, List<Expr> args, List<DataType> types, int pos) {
        String fn = negate ? "isNotNull" : "isNull";
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    ByteColumn out = new ByteColumn(n);
                    byte[] d = out.reserve(n);
                    if (cols[0] instanceof NullableColumn nc) {
                        byte[] m = nc.nullMap().data();
                        for (int i = 0; i < n; i++) {
                            d[i] = (m[i] != 0) != negate ? (byte) 1 : 0;
                        }
                    } else {
                        java.util.Arrays.fill(d, 0, n, negate ? (byte) 1 : 0);
                    }
                    out.setSize(n);
                    return out;
                });
    }
}
