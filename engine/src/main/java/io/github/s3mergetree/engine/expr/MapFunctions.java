package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.List;

/**
 * Functions of Map values, as ClickHouse computes them over a Map's {@code Array(Tuple(keys,
 * values))} storage:
 *
 * <ul>
 *   <li>{@code m[k]} (see {@link ArrayFunctions}): the value of the first entry whose key equals
 *       {@code k} converted to the key type, the value type's default if none.
 *   <li>{@code mapKeys(m)} / {@code mapValues(m)}: {@code Array(K)} / {@code Array(V)}.
 *   <li>{@code mapContains(m, k)} (UInt8): whether a key equals {@code k} (a NULL {@code k} is in
 *       no map).
 * </ul>
 */
final class MapFunctions {
    private MapFunctions() {}

    static void register() {
        Functions.register(
                new Functions.Def(
                        "mapKeys", (a, t, p) -> bindPart(true, a, p), true, false, false));
        Functions.register(
                new Functions.Def(
                        "mapValues", (a, t, p) -> bindPart(false, a, p), true, false, false));
        Functions.register(
                new Functions.Def("mapContains", MapFunctions::bindContains, false, false, false));
    }

    private static MapType mapArgument(List<Expr> args, String fn, int count, int pos) {
        if (args.size() != count) {
            throw Functions.argCount(fn, args.size(), Integer.toString(count), pos);
        }
        DataType t = ArrayFunctions.argType(args, 0);
        if (!(t instanceof MapType m)) {
            throw ExprException.invalid(
                    "First argument for function "
                            + fn
                            + " must be a Map, got "
                            + args.get(0).resultType().name(),
                    pos);
        }
        return m;
    }

    private static Functions.Bound bindPart(boolean keys, List<Expr> args, int pos) {
        String fn = keys ? "mapKeys" : "mapValues";
        MapType m = mapArgument(args, fn, 1, pos);
        int part = keys ? 0 : 1;
        return new Functions.Bound(
                new ArrayType(keys ? m.key() : m.value()),
                (cols, n, ctx) -> {
                    ArrayColumn map = (ArrayColumn) cols[0];
                    Column source = ArrayFunctions.entries(map).element(part);
                    int total = n == 0 ? 0 : map.end(n - 1);
                    Column elements = source.newEmpty(total);
                    elements.appendRange(source, 0, total);
                    ArrayColumn out = new ArrayColumn(elements, n);
                    out.appendOffsets(java.util.Arrays.copyOf(map.offsets(), n));
                    return out;
                });
    }

    private static Functions.Bound bindContains(List<Expr> args, List<DataType> types, int pos) {
        MapType m = mapArgument(args, "mapContains", 2, pos);
        DataType needle = ArrayFunctions.argType(args, 1);
        ComparableValues.checkComparable(m.key(), needle, "mapContains", pos);
        boolean stringNeedle = ArrayFunctions.isNullableString(needle);
        return new Functions.Bound(
                DataTypes.UINT8,
                (cols, n, ctx) -> {
                    ArrayColumn map = (ArrayColumn) cols[0];
                    TupleColumn entries = ArrayFunctions.entries(map);
                    ComparableValues keys =
                            ComparableValues.of(entries.element(0), m.key(), entries.size());
                    ComparableValues x = ComparableValues.of(cols[1], needle, n);
                    ComparableValues.unify(keys, m.key(), x, needle);
                    if (stringNeedle) {
                        x.compareNullsAsEmptyString();
                    }
                    long[] out = new long[n];
                    for (int i = 0; i < n; i++) {
                        out[i] = find(map, keys, x, i) >= 0 ? 1 : 0;
                    }
                    return Vectors.fromLongs(out, n, DataTypes.UINT8);
                });
    }

    /** The index of row {@code i}'s first entry whose key equals {@code x}'s row {@code i}. */
    private static int find(ArrayColumn map, ComparableValues keys, ComparableValues x, int i) {
        int end = map.end(i);
        for (int j = map.start(i); j < end; j++) {
            if (keys.equalsAcross(j, x, i)) {
                return j;
            }
        }
        return -1;
    }

    /** {@code m[k]} of a map of type {@code m} and a key of type {@code keyType} (LC-free). */
    static Functions.Bound bindMapElement(MapType m, DataType keyType, int pos) {
        boolean nullableKey = keyType instanceof NullableType;
        DataType keyBase = nullableKey ? ((NullableType) keyType).nested() : keyType;
        DataType mapKey = m.key();
        boolean integers =
                ComparableValues.kindOf(mapKey) == ComparableValues.Kind.INTEGER
                        && ComparableValues.kindOf(keyBase) == ComparableValues.Kind.INTEGER;
        boolean strings = ComparableValues.isString(mapKey) && ComparableValues.isString(keyBase);
        if (!integers && !strings && !mapKey.equals(keyBase)) {
            throw ExprException.invalid(
                    "Illegal types of arguments: "
                            + m.name()
                            + ", "
                            + keyType.name()
                            + " for function arrayElement",
                    pos);
        }
        DataType value = m.value();
        DataType rt = ArrayFunctions.nullableResult(value, nullableKey);
        return new Functions.Bound(
                rt,
                (cols, n, ctx) -> {
                    ArrayColumn map = (ArrayColumn) cols[0];
                    TupleColumn entries = ArrayFunctions.entries(map);
                    ComparableValues keys =
                            ComparableValues.of(entries.element(0), mapKey, entries.size());
                    // the key under a NULL (0, '') is looked up; the result is NULL there if it can
                    // be
                    Column keyColumn = cols[1] instanceof NullableColumn nc ? nc.nested() : cols[1];
                    ComparableValues x = ComparableValues.of(keyColumn, keyBase, n);
                    if (integers) {
                        // the key is converted to the map's key type, as a CAST would
                        x.wrapTo(mapKey);
                    }
                    int[] pick = new int[n];
                    for (int i = 0; i < n; i++) {
                        pick[i] = find(map, keys, x, i);
                    }
                    Column values = ArrayFunctions.gather(entries.element(1), value, pick, n);
                    byte[] nulls =
                            cols[1] instanceof NullableColumn nc ? nc.nullMap().data() : null;
                    return rt instanceof NullableType
                            ? ArrayFunctions.withNulls(values, value, nulls, n)
                            : values;
                });
    }
}
