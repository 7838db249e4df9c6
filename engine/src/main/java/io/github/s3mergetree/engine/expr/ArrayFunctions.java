package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.Arrays;
import java.util.List;

/**
 * Functions of Array values (and the ones shared with String and Map values), as ClickHouse
 * computes them:
 *
 * <ul>
 *   <li>{@code length(x)} (UInt64: bytes of a String, N of a FixedString, elements of an Array or
 *       Map), {@code empty(x)} / {@code notEmpty(x)} (UInt8; a FixedString is empty when all its
 *       bytes are zero).
 *   <li>{@code arrayElement(a, i)}, written {@code a[i]}: 1-based, negative from the end, out of
 *       range (and 0) the element type's default; on a Map, {@code m[k]} is the value of the first
 *       entry with key {@code k} (the key converted to the map's key type), the value type's
 *       default when there is none. A Nullable index or key gives a Nullable result, NULL where it
 *       is NULL.
 *   <li>{@code has(a, x)} (UInt8) and {@code indexOf(a, x)} (UInt64, 1-based, 0 if absent): the
 *       numbers of an array column compared after C++'s conversions ({@code has(a, -1)} of an
 *       {@code Array(UInt64)} column finds 18446744073709551615), of a constant array by value; a
 *       NULL number finds NULL elements, a NULL {@code Nullable(String)} compares as {@code ''}.
 *   <li>{@code arrayDistinct(a)}: the distinct non-NULL elements in order of first appearance
 *       (floats distinct by bits), of the element type without Nullable.
 *   <li>{@code arraySort(a)} (without a lambda): ascending, NaN after the numbers, NULL last.
 *   <li>{@code [a, b]} / {@code array(a, b)}: the arguments in their common type; {@code []} (and
 *       {@code map()}) only as the whole DEFAULT of an Array (Map) column.
 * </ul>
 *
 * <p>As ClickHouse does, LowCardinality is removed from the argument types at every level, so the
 * results are never LowCardinality inside ({@code a[1]} of an {@code Array(LowCardinality(String))}
 * is a String).
 */
final class ArrayFunctions {
    private ArrayFunctions() {}

    static void register() {
        Functions.register(
                new Functions.Def("length", (a, t, p) -> bindLength(0, a, t, p), true, true, true));
        Functions.register(
                new Functions.Def("empty", (a, t, p) -> bindLength(1, a, t, p), true, true, false));
        Functions.register(
                new Functions.Def(
                        "notEmpty", (a, t, p) -> bindLength(2, a, t, p), true, true, false));
        Functions.register(
                new Functions.Def(
                        "arrayElement", ArrayFunctions::bindElement, false, false, false));
        Functions.register(
                new Functions.Def("has", (a, t, p) -> bindFind(false, a, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "indexOf", (a, t, p) -> bindFind(true, a, p), false, false, false));
        Functions.register(
                new Functions.Def(
                        "arrayDistinct", ArrayFunctions::bindDistinct, true, false, false));
        Functions.register(
                new Functions.Def("arraySort", ArrayFunctions::bindSort, true, false, false));
        Functions.register(
                new Functions.Def("array", ArrayFunctions::bindArray, false, false, false));
    }

    // ---- array literals --------------------------------------------------------------------

    /**
     * {@code [a, b, ...]} / {@code array(a, b, ...)}: an array of the arguments converted to their
     * common type (numbers to the least type holding them all, FixedString and String to String).
     */
    private static Functions.Bound bindArray(List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty()) {
            throw ExprException.unsupported(
                    "The empty array [] (of type Array(Nothing)) is only supported as the whole"
                            + " DEFAULT value of an Array column",
                    pos);
        }
        List<DataType> inner = new java.util.ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            DataType t = argType(args, i);
            if (t instanceof NullableType) {
                throw ExprException.unsupported(
                        "Arrays of Nullable values are not supported in expressions (element "
                                + (i + 1)
                                + " is "
                                + t.name()
                                + ")",
                        pos);
            }
            inner.add(t);
        }
        DataType element = ConditionalFunctions.supertype("array", inner, pos);
        List<FunctionCall.Kernel> converters = new java.util.ArrayList<>();
        for (DataType t : inner) {
            converters.add(ConditionalFunctions.converter(t, element, pos));
        }
        return new Functions.Bound(
                new ArrayType(element),
                (cols, n, ctx) -> {
                    Column[] values = new Column[cols.length];
                    for (int b = 0; b < cols.length; b++) {
                        values[b] = converters.get(b).apply(new Column[] {cols[b]}, n, ctx);
                    }
                    ArrayColumn out = new ArrayColumn(values[0].newEmpty(n * cols.length), n);
                    for (int i = 0; i < n; i++) {
                        for (Column v : values) {
                            out.elements().appendFrom(v, i);
                        }
                        out.endRow();
                    }
                    return out;
                });
    }

    /**
     * The DEFAULT value {@code []} of an Array column or {@code map()} of a Map column (ClickHouse
     * types them Array(Nothing) / Map(Nothing, Nothing) and converts them to the column's type): an
     * expression of empty values of {@code target}; null for any other DEFAULT.
     */
    static Expr emptyDefault(Ast ast, DataType target) {
        DataType t = ComparableValues.stripLowCardinalityDeep(target);
        boolean emptyArray =
                ast.kind == Ast.Kind.CALL
                        && ast.form == FunctionCall.Form.ARRAY
                        && ast.args.isEmpty()
                        && t instanceof ArrayType;
        boolean emptyMap =
                ast.kind == Ast.Kind.CALL
                        && ast.form == FunctionCall.Form.CALL
                        && ast.name.equals("map")
                        && ast.args.isEmpty()
                        && t instanceof MapType;
        if (!emptyArray && !emptyMap) {
            return null;
        }
        return new FunctionCall(
                emptyArray ? "array" : "map",
                null,
                emptyArray ? FunctionCall.Form.ARRAY : FunctionCall.Form.CALL,
                List.of(),
                target,
                (cols, n, ctx) -> {
                    Column c = Columns.create(target, n);
                    for (int i = 0; i < n; i++) {
                        c.appendDefault();
                    }
                    return c;
                },
                new boolean[0],
                false);
    }

    /** The type of argument {@code i} without LowCardinality at any level. */
    static DataType argType(List<Expr> args, int i) {
        return ComparableValues.stripLowCardinalityDeep(args.get(i).resultType());
    }

    // ---- length, empty, notEmpty ---------------------------------------------------------

    private static Functions.Bound bindLength(
            int mode, List<Expr> args, List<DataType> types, int pos) {
        String fn = mode == 0 ? "length" : mode == 1 ? "empty" : "notEmpty";
        if (args.size() != 1) {
            throw Functions.argCount(fn, args.size(), "1", pos);
        }
        TypeKind k = types.get(0).kind();
        if (k != TypeKind.STRING
                && k != TypeKind.FIXED_STRING
                && k != TypeKind.ARRAY
                && k != TypeKind.MAP) {
            throw Functions.illegalType(types.get(0), 0, fn, pos);
        }
        DataType rt = mode == 0 ? DataTypes.UINT64 : DataTypes.UINT8;
        return new Functions.Bound(
                rt,
                (cols, n, ctx) -> {
                    long[] len = lengths(cols[0], n, mode != 0);
                    if (mode != 0) {
                        for (int i = 0; i < n; i++) {
                            len[i] = (len[i] == 0) == (mode == 1) ? 1 : 0;
                        }
                    }
                    return Vectors.fromLongs(len, n, rt);
                });
    }

    /**
     * The length of each value; for {@code emptiness}, a FixedString counts as 0 when all its bytes
     * are zero (its {@code length} is always its width).
     */
    private static long[] lengths(Column c, int n, boolean emptiness) {
        long[] out = new long[n];
        if (c instanceof ArrayColumn a) {
            for (int i = 0; i < n; i++) {
                out[i] = a.length(i);
            }
        } else if (c instanceof StringColumn s) {
            for (int i = 0; i < n; i++) {
                out[i] = s.length(i);
            }
        } else {
            FixedBytesColumn f = (FixedBytesColumn) c;
            byte[] d = f.data();
            int w = f.width();
            for (int i = 0; i < n; i++) {
                boolean zero = emptiness;
                for (int b = i * w; b < i * w + w && zero; b++) {
                    zero = d[b] == 0;
                }
                out[i] = zero ? 0 : w;
            }
        }
        return out;
    }

    // ---- arrayElement --------------------------------------------------------------------

    private static Functions.Bound bindElement(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 2) {
            throw Functions.argCount("arrayElement", args.size(), "2", pos);
        }
        DataType container = argType(args, 0);
        DataType index = argType(args, 1);
        boolean nullableIndex = index instanceof NullableType;
        DataType indexBase = nullableIndex ? ((NullableType) index).nested() : index;
        if (container instanceof MapType m) {
            return MapFunctions.bindMapElement(m, index, pos);
        }
        if (!(container instanceof ArrayType at)) {
            throw ExprException.invalid(
                    "First argument for function 'arrayElement' must be array, got '"
                            + args.get(0).resultType().name()
                            + "' instead",
                    pos);
        }
        if (!isInteger(indexBase)) {
            throw ExprException.invalid(
                    "Second argument for function 'arrayElement' must be integer, got '"
                            + args.get(1).resultType().name()
                            + "' instead",
                    pos);
        }
        if (args.get(1) instanceof Literal l && l.isInteger() && l.longValue() == 0) {
            throw ExprException.invalid(
                    "Array indices are 1-based (the constant index 0 in arrayElement)", pos);
        }
        DataType element = at.element();
        DataType rt = nullableResult(element, nullableIndex);
        boolean unsignedIndex = Vectors.unsigned(indexBase);
        return new Functions.Bound(
                rt,
                (cols, n, ctx) -> {
                    ArrayColumn arr = (ArrayColumn) cols[0];
                    Column idxCol = cols[1];
                    byte[] idxNulls = null;
                    if (idxCol instanceof NullableColumn nc) {
                        idxNulls = nc.nullMap().data();
                        idxCol = nc.nested();
                    }
                    long[] ix = Vectors.longs(idxCol, indexBase, n);
                    int[] pick = new int[n];
                    for (int i = 0; i < n; i++) {
                        long v = ix[i];
                        int start = arr.start(i);
                        int len = arr.end(i) - start;
                        if (v > 0 && v <= len) {
                            pick[i] = start + (int) v - 1;
                        } else if (v < 0 && !unsignedIndex && v >= -len) {
                            pick[i] = start + len + (int) v;
                        } else {
                            pick[i] = -1;
                        }
                    }
                    Column values = gather(arr.elements(), element, pick, n);
                    return rt instanceof NullableType
                            ? withNulls(values, element, idxNulls, n)
                            : values;
                });
    }

    /** Whether {@code t} is {@code Nullable(String)}. */
    static boolean isNullableString(DataType t) {
        return t instanceof NullableType n && n.nested().kind() == TypeKind.STRING;
    }

    static boolean isInteger(DataType t) {
        return switch (t.kind()) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> true;
            default -> false;
        };
    }

    /**
     * {@code t}, made Nullable when the index or key is Nullable and {@code t} is not and can be
     * (an Array or Map value stays as it is: ClickHouse then returns the value for the index or key
     * under the NULL, 0 or the empty string).
     */
    static DataType nullableResult(DataType t, boolean nullableArg) {
        if (!nullableArg || t instanceof NullableType) {
            return t;
        }
        try {
            return new NullableType(t);
        } catch (IllegalArgumentException e) {
            return t;
        }
    }

    /** Rows {@code pick[i]} of {@code values} (of type {@code t}), the default where -1. */
    static Column gather(Column values, DataType t, int[] pick, int n) {
        Column out = values.newEmpty(n);
        for (int i = 0; i < n; i++) {
            if (pick[i] >= 0) {
                out.appendFrom(values, pick[i]);
            } else {
                Columns.appendDefault(t, out);
            }
        }
        return out;
    }

    /** {@code values} with NULL in the rows where {@code nulls} (if any) says so. */
    static Column withNulls(Column values, DataType t, byte[] nulls, int n) {
        if (nulls == null) {
            return values;
        }
        if (t instanceof NullableType) {
            NullableColumn nc = (NullableColumn) values;
            byte[] m = nc.nullMap().data();
            for (int i = 0; i < n; i++) {
                m[i] |= nulls[i];
            }
            return nc;
        }
        ByteColumn map = new ByteColumn(n);
        byte[] m = map.reserve(n);
        System.arraycopy(nulls, 0, m, 0, n);
        map.setSize(n);
        return new NullableColumn(map, values);
    }

    // ---- has, indexOf --------------------------------------------------------------------

    private static Functions.Bound bindFind(boolean index, List<Expr> args, int pos) {
        String fn = index ? "indexOf" : "has";
        if (args.size() != 2) {
            throw Functions.argCount(fn, args.size(), "2", pos);
        }
        DataType container = argType(args, 0);
        if (!(container instanceof ArrayType at)) {
            throw Functions.illegalType(args.get(0).resultType(), 0, fn, pos);
        }
        DataType element = at.element();
        DataType needle = argType(args, 1);
        ComparableValues.checkComparable(element, needle, fn, pos);
        boolean stringNeedle = isNullableString(needle);
        boolean constantArray = args.get(0).isConstant();
        DataType rt = index ? DataTypes.UINT64 : DataTypes.UINT8;
        return new Functions.Bound(
                rt,
                (cols, n, ctx) -> {
                    ArrayColumn arr = (ArrayColumn) cols[0];
                    ComparableValues elems =
                            ComparableValues.of(arr.elements(), element, arr.elements().size());
                    ComparableValues x = ComparableValues.of(cols[1], needle, n);
                    ComparableValues.unify(elems, element, x, needle, constantArray);
                    if (stringNeedle) {
                        x.compareNullsAsEmptyString();
                    }
                    long[] out = new long[n];
                    for (int i = 0; i < n; i++) {
                        int start = arr.start(i);
                        int end = arr.end(i);
                        for (int j = start; j < end; j++) {
                            if (elems.equalsAcross(j, x, i)) {
                                out[i] = index ? j - start + 1 : 1;
                                break;
                            }
                        }
                    }
                    return Vectors.fromLongs(out, n, rt);
                });
    }

    // ---- arrayDistinct -------------------------------------------------------------------

    private static Functions.Bound bindDistinct(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount("arrayDistinct", args.size(), "1", pos);
        }
        DataType container = argType(args, 0);
        if (!(container instanceof ArrayType at)) {
            throw ExprException.invalid(
                    "The argument for function arrayDistinct must be array, got "
                            + args.get(0).resultType().name(),
                    pos);
        }
        DataType element = at.element();
        DataType base = element instanceof NullableType nt ? nt.nested() : element;
        if (ComparableValues.kindOf(base) == null) {
            throw ExprException.unsupported(
                    "arrayDistinct of " + container.name() + " is not supported", pos);
        }
        return new Functions.Bound(
                new ArrayType(base),
                (cols, n, ctx) -> {
                    ArrayColumn arr = (ArrayColumn) cols[0];
                    Column elems = arr.elements();
                    ComparableValues v = ComparableValues.of(elems, element, elems.size());
                    Column values =
                            elems instanceof NullableColumn nc && element instanceof NullableType
                                    ? nc.nested()
                                    : elems;
                    ArrayColumn out = new ArrayColumn(values.newEmpty(elems.size()), n);
                    int[] table = new int[16];
                    for (int i = 0; i < n; i++) {
                        int start = arr.start(i);
                        int end = arr.end(i);
                        int cap = Integer.highestOneBit(Math.max(8, (end - start) * 2)) << 1;
                        if (table.length < cap) {
                            table = new int[cap];
                        }
                        Arrays.fill(table, 0, cap, -1);
                        int mask = cap - 1;
                        for (int j = start; j < end; j++) {
                            if (v.isNull(j)) {
                                continue;
                            }
                            int slot = v.hashAt(j) & mask;
                            boolean seen = false;
                            while (table[slot] >= 0) {
                                if (v.sameAt(table[slot], j)) {
                                    seen = true;
                                    break;
                                }
                                slot = (slot + 1) & mask;
                            }
                            if (!seen) {
                                table[slot] = j;
                                out.elements().appendFrom(values, j);
                            }
                        }
                        out.endRow();
                    }
                    return out;
                });
    }

    // ---- arraySort -----------------------------------------------------------------------

    /**
     * {@code arraySort(a)} (no lambda): each array's elements in ascending order, NaN after the
     * numbers, NULL last; equal elements keep their order.
     */
    private static Functions.Bound bindSort(List<Expr> args, List<DataType> types, int pos) {
        if (args.size() != 1) {
            throw Functions.argCount("arraySort", args.size(), "1", pos);
        }
        DataType container = argType(args, 0);
        if (!(container instanceof ArrayType at)) {
            throw Functions.illegalType(args.get(0).resultType(), 0, "arraySort", pos);
        }
        DataType element = at.element();
        DataType base = element instanceof NullableType nt ? nt.nested() : element;
        if (ComparableValues.kindOf(base) == null) {
            throw ExprException.unsupported(
                    "arraySort of " + container.name() + " is not supported", pos);
        }
        return new Functions.Bound(
                container,
                (cols, n, ctx) -> {
                    ArrayColumn arr = (ArrayColumn) cols[0];
                    Column elems = arr.elements();
                    ComparableValues v = ComparableValues.of(elems, element, elems.size());
                    ArrayColumn out = new ArrayColumn(elems.newEmpty(elems.size()), n);
                    int[] order = new int[16];
                    int[] scratch = new int[16];
                    for (int i = 0; i < n; i++) {
                        int start = arr.start(i);
                        int len = arr.end(i) - start;
                        if (order.length < len) {
                            order = new int[len];
                            scratch = new int[len];
                        }
                        for (int j = 0; j < len; j++) {
                            order[j] = start + j;
                        }
                        mergeSort(order, scratch, 0, len, v);
                        for (int j = 0; j < len; j++) {
                            out.elements().appendFrom(elems, order[j]);
                        }
                        out.endRow();
                    }
                    return out;
                });
    }

    /** A stable sort of {@code a[from, to)} by {@link ComparableValues#compareAt}. */
    private static void mergeSort(int[] a, int[] tmp, int from, int to, ComparableValues v) {
        if (to - from <= 12) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && v.compareAt(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, tmp, from, mid, v);
        mergeSort(a, tmp, mid, to, v);
        System.arraycopy(a, from, tmp, from, to - from);
        int l = from;
        int r = mid;
        for (int k = from; k < to; k++) {
            if (r >= to || (l < mid && v.compareAt(tmp[l], tmp[r]) <= 0)) {
                a[k] = tmp[l++];
            } else {
                a[k] = tmp[r++];
            }
        }
    }

    /** The key and value columns of a Map column (its {@code Array(Tuple(K, V))} storage). */
    static TupleColumn entries(ArrayColumn map) {
        return (TupleColumn) map.elements();
    }
}
