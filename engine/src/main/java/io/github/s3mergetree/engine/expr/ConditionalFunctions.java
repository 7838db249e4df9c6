package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code if(cond, then, else)} and {@code multiIf(c1, v1, c2, v2, ..., else)}, as ClickHouse
 * computes them.
 *
 * <p>A condition must be UInt8 or Bool (Nullable allowed: NULL chooses the next branch). The result
 * type is the least common type of the branches by ClickHouse's rules for the cases real tables
 * use: equal types; integers (unsigned with signed: a signed type twice as wide as the widest
 * unsigned, {@code UInt8}/{@code Int8} give Int16); integers with floats (Float32 when the integers
 * are at most 16 bits wide and the floats Float32, else Float64); String with FixedString (String);
 * Date with DateTime (the DateTime); Bool with UInt8 (the first branch's). A UInt64 with a signed
 * integer and a String with a number, where ClickHouse 26.x answers with a Variant, are refused.
 * The result is Nullable if a branch is.
 */
final class ConditionalFunctions {
    private ConditionalFunctions() {}

    static void register() {
        Functions.register(
                new Functions.Def("if", (a, t, p) -> bind("if", a, t, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "multiIf", (a, t, p) -> bind("multiIf", a, t, p), false, false, false));
    }

    private static Functions.Bound bind(String fn, List<Expr> args, List<DataType> types, int pos) {
        int n = args.size();
        if (fn.equals("if") ? n != 3 : n < 3 || n % 2 == 0) {
            throw ExprException.invalid(
                    "Invalid number of arguments for function " + fn + ": " + n, pos);
        }
        int branches = n / 2 + 1;
        int[] valueIndex = new int[branches];
        List<DataType> valueTypes = new ArrayList<>();
        boolean nullable = false;
        for (int b = 0; b < branches; b++) {
            valueIndex[b] = b < branches - 1 ? 2 * b + 1 : n - 1;
            DataType t = types.get(valueIndex[b]);
            if (t instanceof NullableType nt) {
                nullable = true;
                t = nt.nested();
            }
            valueTypes.add(t);
        }
        for (int c = 0; c < branches - 1; c++) {
            DataType t = types.get(2 * c);
            if (t instanceof NullableType nt) {
                t = nt.nested();
            }
            if (t.kind() != TypeKind.UINT8 && t.kind() != TypeKind.BOOL) {
                throw ExprException.invalid(
                        "Illegal type "
                                + t.name()
                                + (fn.equals("if")
                                        ? " of first argument (condition) of function if"
                                        : " of argument (condition) of function multiIf")
                                + ". Must be UInt8",
                        pos);
            }
        }
        DataType common = supertype(fn, valueTypes, pos);
        List<FunctionCall.Kernel> converters = new ArrayList<>();
        for (DataType t : valueTypes) {
            converters.add(converter(t, common, pos));
        }
        DataType result = nullable ? new NullableType(common) : common;
        boolean nullableResult = nullable;
        return new Functions.Bound(
                result,
                (cols, rows, ctx) -> {
                    // which branch each row takes
                    int[] choice = new int[rows];
                    java.util.Arrays.fill(choice, branches - 1);
                    boolean[] decided = new boolean[rows];
                    for (int c = 0; c < branches - 1; c++) {
                        Column cond = cols[2 * c];
                        byte[] nulls = null;
                        if (cond instanceof NullableColumn nc) {
                            nulls = nc.nullMap().data();
                            cond = nc.nested();
                        }
                        byte[] v = ((ByteColumn) cond).data();
                        for (int i = 0; i < rows; i++) {
                            if (!decided[i] && v[i] != 0 && (nulls == null || nulls[i] == 0)) {
                                decided[i] = true;
                                choice[i] = c;
                            }
                        }
                    }
                    Column[] values = new Column[branches];
                    byte[][] valueNulls = new byte[branches][];
                    for (int b = 0; b < branches; b++) {
                        Column c = cols[valueIndex[b]];
                        if (c instanceof NullableColumn nc) {
                            valueNulls[b] = nc.nullMap().data();
                            c = nc.nested();
                        }
                        values[b] = converters.get(b).apply(new Column[] {c}, rows, ctx);
                    }
                    Column out = values[0].newEmpty(rows);
                    ByteColumn map = nullableResult ? new ByteColumn(rows) : null;
                    for (int i = 0; i < rows; i++) {
                        int b = choice[i];
                        out.appendRange(values[b], i, i + 1);
                        if (map != null) {
                            map.add(valueNulls[b] != null ? valueNulls[b][i] : 0);
                        }
                    }
                    return map == null ? out : new NullableColumn(map, out);
                });
    }

    /** Converts a branch to the common type; a FixedString becomes a String with its padding. */
    static FunctionCall.Kernel converter(DataType from, DataType to, int pos) {
        if (from.kind() == TypeKind.FIXED_STRING && to.kind() == TypeKind.STRING) {
            return (cols, n, ctx) -> {
                io.github.s3mergetree.engine.column.FixedBytesColumn f =
                        (io.github.s3mergetree.engine.column.FixedBytesColumn) cols[0];
                io.github.s3mergetree.engine.column.StringColumn out =
                        new io.github.s3mergetree.engine.column.StringColumn(n);
                for (int i = 0; i < n; i++) {
                    out.add(f.data(), i * f.width(), f.width());
                }
                return out;
            };
        }
        return ConversionFunctions.converter(from, to, pos).kernel();
    }

    /** The least common type of the branch types (without Nullable), or ClickHouse's refusal. */
    static DataType supertype(String fn, List<DataType> types, int pos) {
        DataType first = types.get(0);
        boolean allSame = true;
        boolean numbers = true;
        boolean strings = true;
        for (DataType t : types) {
            allSame &= t.equals(first);
            numbers &= ArithmeticFunctions.isNumber(t);
            strings &= t.kind() == TypeKind.STRING || t.kind() == TypeKind.FIXED_STRING;
        }
        if (allSame) {
            return first;
        }
        if (strings) {
            return DataTypes.STRING_TYPE;
        }
        if (!numbers) {
            throw noSupertype(fn, types, pos);
        }
        int maxUnsigned = 0;
        int maxSigned = 0;
        int maxFloat = 0;
        boolean onlyBoolAndUInt8 = true;
        for (DataType t : types) {
            int bits = ArithmeticFunctions.width(t) * 8;
            if (ArithmeticFunctions.isFloat(t)) {
                maxFloat = Math.max(maxFloat, bits);
            } else if (ArithmeticFunctions.signed(t)) {
                maxSigned = Math.max(maxSigned, bits);
            } else {
                maxUnsigned = Math.max(maxUnsigned, bits);
            }
            onlyBoolAndUInt8 &= t.kind() == TypeKind.BOOL || t.kind() == TypeKind.UINT8;
        }
        if (onlyBoolAndUInt8) {
            return first; // ClickHouse keeps the first branch's: if(c, true, 1) is Bool
        }
        if (maxFloat > 0) {
            int intBits = Math.max(maxSigned, maxUnsigned);
            return maxFloat == 32 && intBits <= 16 ? DataTypes.FLOAT32 : DataTypes.FLOAT64;
        }
        if (maxSigned == 0) {
            return Vectors.integerType(maxUnsigned / 8, false);
        }
        if (maxUnsigned == 0) {
            return Vectors.integerType(maxSigned / 8, true);
        }
        if (maxUnsigned == 64) {
            throw noSupertype(fn, types, pos);
        }
        int bits = Math.max(maxSigned, maxUnsigned * 2);
        return Vectors.integerType(bits / 8, true);
    }

    private static ExprException noSupertype(String fn, List<DataType> types, int pos) {
        StringBuilder b = new StringBuilder();
        for (DataType t : types) {
            b.append(b.length() > 0 ? ", " : "").append(t.name());
        }
        return ExprException.unsupported(
                "The branches of "
                        + fn
                        + " have no common type this engine supports ("
                        + b
                        + "; ClickHouse would make a Variant or refuse)",
                pos);
    }
}
