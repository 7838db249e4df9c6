package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Functions between Strings and Arrays of Strings, as ClickHouse computes them:
 *
 * <ul>
 *   <li>{@code splitByChar(sep, s[, max_substrings])}: {@code Array(String)}, {@code s} cut at
 *       every occurrence of the one-byte constant {@code sep} ({@code ''} gives {@code ['']}); a
 *       positive {@code max_substrings} keeps only that many leading pieces.
 *   <li>{@code splitByString(sep, s[, max_substrings])}: the same with a constant separator of any
 *       length; an empty separator splits into single bytes ({@code ''} gives {@code []}).
 *   <li>{@code arrayStringConcat(a[, sep])}: String, the elements of an {@code Array(String)}
 *       joined by the constant {@code sep} (default empty), NULL elements skipped.
 * </ul>
 *
 * <p>A NULL String is split as the empty string (the result is never Nullable), as in ClickHouse.
 */
final class SplitFunctions {
    private SplitFunctions() {}

    static void register() {
        Functions.register(
                new Functions.Def(
                        "splitByChar", (a, t, p) -> bindSplit(true, a, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "splitByString", (a, t, p) -> bindSplit(false, a, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "arrayStringConcat", SplitFunctions::bindConcat, true, false, false));
    }

    private static Functions.Bound bindSplit(boolean byChar, List<Expr> args, int pos) {
        String fn = byChar ? "splitByChar" : "splitByString";
        if (args.size() != 2 && args.size() != 3) {
            throw Functions.argCount(fn, args.size(), "2 or 3", pos);
        }
        if (!(args.get(0) instanceof Literal l && l.kind() == Literal.Kind.STRING)) {
            throw ExprException.invalid(
                    "A value of illegal type was provided as 1st argument 'separator' to function '"
                            + fn
                            + "'. Expected: const String, got: "
                            + args.get(0).resultType().name(),
                    pos);
        }
        byte[] sep = l.stringValue().getBytes(StandardCharsets.UTF_8);
        if (byChar && sep.length != 1) {
            throw ExprException.invalid(
                    "Illegal separator for function splitByChar. Must be exactly one byte, got '"
                            + l.stringValue()
                            + "'",
                    pos);
        }
        DataType s = ArrayFunctions.argType(args, 1);
        DataType sBase = s instanceof NullableType n ? n.nested() : s;
        if (sBase.kind() != TypeKind.STRING) {
            throw Functions.illegalType(args.get(1).resultType(), 1, fn, pos);
        }
        long max =
                args.size() == 3 ? Functions.constInteger(args, 2, fn, "max_substrings", pos) : 0;
        int limit = max > 0 ? (int) Math.min(max, Integer.MAX_VALUE) : Integer.MAX_VALUE;
        return new Functions.Bound(
                new ArrayType(DataTypes.STRING_TYPE),
                (cols, n, ctx) -> {
                    Column c = cols[1];
                    StringColumn in =
                            (StringColumn) (c instanceof NullableColumn nc ? nc.nested() : c);
                    byte[] b = in.bytes();
                    StringColumn pieces = new StringColumn(n * 2, Math.max(16, in.totalBytes()));
                    ArrayColumn out = new ArrayColumn(pieces, n);
                    for (int i = 0; i < n; i++) {
                        split(b, in.start(i), in.end(i), sep, limit, pieces);
                        out.endRow();
                    }
                    return out;
                });
    }

    /** Appends the pieces of {@code b[from, to)} cut at {@code sep}, at most {@code limit}. */
    private static void split(byte[] b, int from, int to, byte[] sep, int limit, StringColumn out) {
        int count = 0;
        if (sep.length == 0) {
            for (int p = from; p < to && count < limit; p++, count++) {
                out.add(b, p, 1);
            }
            return;
        }
        int start = from;
        int p = from;
        while (count < limit) {
            int hit = indexOf(b, p, to, sep);
            if (hit < 0) {
                out.add(b, start, to - start);
                return;
            }
            out.add(b, start, hit - start);
            count++;
            start = hit + sep.length;
            p = start;
        }
    }

    private static int indexOf(byte[] b, int from, int to, byte[] sep) {
        outer:
        for (int p = from; p <= to - sep.length; p++) {
            for (int k = 0; k < sep.length; k++) {
                if (b[p + k] != sep[k]) {
                    continue outer;
                }
            }
            return p;
        }
        return -1;
    }

    private static Functions.Bound bindConcat(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1 && args.size() != 2) {
            throw Functions.argCount("arrayStringConcat", args.size(), "1 or 2", pos);
        }
        DataType a = ArrayFunctions.argType(args, 0);
        if (!(a instanceof ArrayType at)) {
            throw Functions.illegalType(args.get(0).resultType(), 0, "arrayStringConcat", pos);
        }
        DataType element = at.element();
        DataType base = element instanceof NullableType n ? n.nested() : element;
        if (base.kind() != TypeKind.STRING) {
            throw ExprException.unsupported(
                    "arrayStringConcat of "
                            + a.name()
                            + " is not supported (only of an Array(String))",
                    pos);
        }
        byte[] sep;
        if (args.size() == 2) {
            if (!(args.get(1) instanceof Literal l && l.kind() == Literal.Kind.STRING)) {
                throw ExprException.invalid(
                        "A value of illegal type was provided as 2nd argument 'separator' to"
                                + " function 'arrayStringConcat'. Expected: const String, got: "
                                + args.get(1).resultType().name(),
                        pos);
            }
            sep = l.stringValue().getBytes(StandardCharsets.UTF_8);
        } else {
            sep = new byte[0];
        }
        return new Functions.Bound(
                DataTypes.STRING_TYPE,
                (cols, n, ctx) -> {
                    ArrayColumn arr = (ArrayColumn) cols[0];
                    Column e = arr.elements();
                    byte[] nulls = null;
                    if (e instanceof NullableColumn nc) {
                        nulls = nc.nullMap().data();
                        e = nc.nested();
                    }
                    StringColumn el = (StringColumn) e;
                    byte[] b = el.bytes();
                    StringColumn out = new StringColumn(n, Math.max(16, el.totalBytes()));
                    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
                    for (int i = 0; i < n; i++) {
                        buf.reset();
                        boolean first = true;
                        for (int j = arr.start(i); j < arr.end(i); j++) {
                            if (nulls != null && nulls[j] != 0) {
                                continue;
                            }
                            if (!first) {
                                buf.write(sep, 0, sep.length);
                            }
                            first = false;
                            buf.write(b, el.start(j), el.end(j) - el.start(j));
                        }
                        out.add(buf.toByteArray(), 0, buf.size());
                    }
                    return out;
                });
    }
}
