package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.SimpleAggregateFunction;
import io.github.s3mergetree.engine.types.TupleType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Combines the values of one {@code SimpleAggregateFunction(f, T)} column over a group of rows with
 * equal sorting keys, as ClickHouse's AggregatingSortedAlgorithm does: a fresh state of {@code f},
 * every row added in order, the result inserted as the group's one value.
 *
 * <p>Semantics, checked against ClickHouse 26.x: NULLs are skipped (the result is NULL only when
 * every value is) except by the {@code _respect_nulls} variants; {@code any}/{@code anyLast} take
 * the first/last value, {@code min}/{@code max} the first of the smallest/greatest (a float NaN
 * only when every value is NaN), sums wrap around in the type's width and add floats in row order,
 * {@code sumMap}/{@code minMap}/{@code maxMap} combine per key with keys ascending ({@code sumMap}
 * of the tuple form drops keys whose sums are all zero), {@code groupArrayArray} concatenates,
 * {@code groupUniqArrayArray} keeps the distinct elements (in first-seen order: ClickHouse's order
 * is its hash table's, which it documents as unspecified).
 */
final class SimpleAggregation {
    private SimpleAggregation() {}

    /**
     * Whether {@code f} over one row gives that row's value, so a group of one row needs no work.
     */
    static boolean isIdentityOnOneRow(SimpleAggregateFunction f, DataType type) {
        return switch (f.function()) {
            case SUM_MAP, MIN_MAP, MAX_MAP, GROUP_UNIQ_ARRAY_ARRAY -> false;
            case GROUP_ARRAY_ARRAY -> f.maxSize() == Long.MAX_VALUE;
            // a float sum starts at +0.0: -0.0 alone sums to +0.0
            case SUM, SUM_WITH_OVERFLOW -> !isFloat(type.unwrapped().physicalType());
            default -> true;
        };
    }

    private static boolean isFloat(PhysicalType p) {
        return p == PhysicalType.FLOAT || p == PhysicalType.DOUBLE;
    }

    /**
     * The one-row column of {@code f} over all rows of {@code column}, a column of {@code type}.
     */
    static Column aggregate(SimpleAggregateFunction f, DataType type, Column column) {
        DataType t = withoutLowCardinality(type);
        Column out = column.newEmpty(1);
        int n = column.size();
        switch (f.function()) {
            case ANY_RESPECT_NULLS -> out.appendFrom(column, 0);
            case ANY_LAST_RESPECT_NULLS -> out.appendFrom(column, n - 1);
            case ANY, ANY_LAST -> {
                int[] rows = nonNullRows(column);
                if (rows.length == 0) {
                    out.appendFrom(column, 0);
                } else {
                    out.appendFrom(
                            column,
                            f.function() == SimpleAggregateFunction.Function.ANY
                                    ? rows[0]
                                    : rows[rows.length - 1]);
                }
            }
            case MIN, MAX -> {
                int[] rows = nonNullRows(column);
                if (rows.length == 0) {
                    out.appendFrom(column, 0);
                } else {
                    boolean max = f.function() == SimpleAggregateFunction.Function.MAX;
                    out.appendFrom(column, extremeRow(t, column, rows, rows.length, max));
                }
            }
            case SUM, SUM_WITH_OVERFLOW, GROUP_BIT_AND, GROUP_BIT_OR, GROUP_BIT_XOR -> {
                int[] rows = nonNullRows(column);
                if (rows.length == 0) {
                    out.appendFrom(column, 0);
                } else if (column instanceof NullableColumn nc) {
                    NullableColumn target = (NullableColumn) out;
                    combine(f.function(), nc.nested(), rows, rows.length, target.nested());
                    target.addNotNull();
                } else {
                    combine(f.function(), column, rows, rows.length, out);
                }
            }
            case GROUP_ARRAY_ARRAY ->
                    groupArray((ArrayColumn) column, f.maxSize(), (ArrayColumn) out);
            case GROUP_UNIQ_ARRAY_ARRAY ->
                    groupUniqArray(
                            ((ArrayType) t).element(),
                            (ArrayColumn) column,
                            f.maxSize(),
                            (ArrayColumn) out);
            case SUM_MAP, MIN_MAP, MAX_MAP -> map(f.function(), t, column, out);
        }
        return out;
    }

    private static DataType withoutLowCardinality(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    /** The rows whose value is not NULL (all rows of a column that is not Nullable). */
    private static int[] nonNullRows(Column column) {
        int n = column.size();
        if (!(column instanceof NullableColumn nc)) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        int[] rows = new int[n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!nc.isNull(i)) {
                rows[k++] = i;
            }
        }
        return Arrays.copyOf(rows, k);
    }

    /**
     * The first row holding the smallest ({@code max}: greatest) value among {@code rows}: a later
     * row replaces it only when strictly smaller, NaN never replaces and is replaced by any number.
     */
    private static int extremeRow(
            DataType type, Column column, int[] rows, int count, boolean max) {
        Column values = column instanceof NullableColumn nc ? nc.nested() : column;
        DataType t = type instanceof NullableType nt ? nt.nested() : type;
        int best = rows[0];
        if (values instanceof DoubleColumn d) {
            for (int i = 1; i < count; i++) {
                double v = d.get(rows[i]);
                double b = d.get(best);
                if (Double.isNaN(b) && !Double.isNaN(v) || (max ? v > b : v < b)) {
                    best = rows[i];
                }
            }
            return best;
        }
        if (values instanceof FloatColumn fc) {
            for (int i = 1; i < count; i++) {
                float v = fc.get(rows[i]);
                float b = fc.get(best);
                if (Float.isNaN(b) && !Float.isNaN(v) || (max ? v > b : v < b)) {
                    best = rows[i];
                }
            }
            return best;
        }
        // ClickHouse's nan_direction_hint: NULL and NaN inside values are never preferred
        RowComparator cmp = RowComparators.forColumn(t, values, max ? -1 : 1);
        for (int i = 1; i < count; i++) {
            int c = cmp.compare(rows[i], best);
            if (max ? c > 0 : c < 0) {
                best = rows[i];
            }
        }
        return best;
    }

    /** Appends to {@code target} the sum or bitwise combination of {@code rows} of {@code src}. */
    private static void combine(
            SimpleAggregateFunction.Function f, Column src, int[] rows, int count, Column target) {
        switch (src.physicalType()) {
            case BYTE -> {
                ByteColumn c = (ByteColumn) src;
                long acc = c.get(rows[0]);
                for (int i = 1; i < count; i++) {
                    acc = combine(f, acc, c.get(rows[i]));
                }
                ((ByteColumn) target).add((byte) acc);
            }
            case SHORT -> {
                ShortColumn c = (ShortColumn) src;
                long acc = c.get(rows[0]);
                for (int i = 1; i < count; i++) {
                    acc = combine(f, acc, c.get(rows[i]));
                }
                ((ShortColumn) target).add((short) acc);
            }
            case INT -> {
                IntColumn c = (IntColumn) src;
                long acc = c.get(rows[0]);
                for (int i = 1; i < count; i++) {
                    acc = combine(f, acc, c.get(rows[i]));
                }
                ((IntColumn) target).add((int) acc);
            }
            case LONG -> {
                LongColumn c = (LongColumn) src;
                long acc = c.get(rows[0]);
                for (int i = 1; i < count; i++) {
                    acc = combine(f, acc, c.get(rows[i]));
                }
                ((LongColumn) target).add(acc);
            }
            case FLOAT -> {
                FloatColumn c = (FloatColumn) src;
                float acc = 0;
                for (int i = 0; i < count; i++) {
                    acc += c.get(rows[i]);
                }
                ((FloatColumn) target).add(acc);
            }
            case DOUBLE -> {
                DoubleColumn c = (DoubleColumn) src;
                double acc = 0;
                for (int i = 0; i < count; i++) {
                    acc += c.get(rows[i]);
                }
                ((DoubleColumn) target).add(acc);
            }
            case FIXED_BYTES -> {
                FixedBytesColumn c = (FixedBytesColumn) src;
                int w = c.width();
                byte[] acc = Arrays.copyOfRange(c.data(), rows[0] * w, rows[0] * w + w);
                for (int i = 1; i < count; i++) {
                    combineWide(f, acc, c.data(), rows[i] * w);
                }
                ((FixedBytesColumn) target).add(acc, 0);
            }
            default ->
                    throw new IllegalStateException(
                            "cannot combine a column of " + src.physicalType());
        }
    }

    private static long combine(SimpleAggregateFunction.Function f, long a, long b) {
        return switch (f) {
            case GROUP_BIT_AND -> a & b;
            case GROUP_BIT_OR -> a | b;
            case GROUP_BIT_XOR -> a ^ b;
            default -> a + b;
        };
    }

    /** {@code acc op= value}: little-endian two's complement integers of {@code acc.length}. */
    private static void combineWide(
            SimpleAggregateFunction.Function f, byte[] acc, byte[] data, int off) {
        int carry = 0;
        for (int i = 0; i < acc.length; i++) {
            int a = acc[i] & 0xFF;
            int b = data[off + i] & 0xFF;
            acc[i] =
                    (byte)
                            switch (f) {
                                case GROUP_BIT_AND -> a & b;
                                case GROUP_BIT_OR -> a | b;
                                case GROUP_BIT_XOR -> a ^ b;
                                default -> {
                                    int s = a + b + carry;
                                    carry = s >>> 8;
                                    yield s;
                                }
                            };
        }
    }

    private static void groupArray(ArrayColumn src, long maxSize, ArrayColumn out) {
        long taken = 0;
        for (int r = 0; r < src.size() && taken < maxSize; r++) {
            int from = src.start(r);
            int to = (int) Math.min(src.end(r), from + (maxSize - taken));
            out.elements().appendRange(src.elements(), from, to);
            taken += to - from;
        }
        out.endRow();
    }

    private static void groupUniqArray(
            DataType elementType, ArrayColumn src, long maxSize, ArrayColumn out) {
        Set<ByteArrayKey> seen = new HashSet<>();
        Column elements = src.elements();
        DataType t = withoutLowCardinality(elementType);
        for (int r = 0; r < src.size(); r++) {
            for (int i = src.start(r); i < src.end(r) && seen.size() < maxSize; i++) {
                ByteArraySink bytes = new ByteArraySink(16);
                ValueSerde.write(t, elements, i, bytes);
                if (seen.add(new ByteArrayKey(bytes.toByteArray()))) {
                    out.elements().appendFrom(elements, i);
                }
            }
        }
        out.endRow();
    }

    /** A byte array compared by content, for sets of serialized values. */
    private record ByteArrayKey(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof ByteArrayKey k && Arrays.equals(k.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
    }

    /** sumMap / minMap / maxMap over {@code Tuple(Array(K), Array(V1), …)} or {@code Map(K, V)}. */
    private static void map(
            SimpleAggregateFunction.Function f, DataType type, Column column, Column out) {
        // flatten every row's (key, values...) into columns of keys and of each value
        DataType keyType;
        List<DataType> valueTypes = new ArrayList<>();
        Column keys;
        List<Column> values = new ArrayList<>();
        int n = column.size();
        if (type instanceof MapType m) {
            keyType = m.key();
            valueTypes.add(m.value());
            ArrayColumn entries = (ArrayColumn) column;
            TupleColumn kv = (TupleColumn) entries.elements();
            keys = kv.element(0);
            values.add(kv.element(1));
        } else {
            TupleType tt = (TupleType) type;
            TupleColumn tc = (TupleColumn) column;
            keyType = ((ArrayType) tt.elements().get(0)).element();
            ArrayColumn keyArrays = (ArrayColumn) tc.element(0);
            for (int v = 1; v < tt.elements().size(); v++) {
                valueTypes.add(((ArrayType) tt.elements().get(v)).element());
                ArrayColumn valueArrays = (ArrayColumn) tc.element(v);
                for (int r = 0; r < n; r++) {
                    if (valueArrays.length(r) != keyArrays.length(r)) {
                        throw new IllegalArgumentException(
                                "Sizes of keys and values arrays do not match");
                    }
                }
                values.add(valueArrays.elements());
            }
            keys = keyArrays.elements();
        }
        // every entry, ordered by key (stable: equal keys in row order)
        int entries = keys.size();
        Integer[] order = new Integer[entries];
        for (int i = 0; i < entries; i++) {
            order[i] = i;
        }
        RowComparator byKey = RowComparators.forColumn(withoutLowCardinality(keyType), keys);
        Arrays.sort(order, (a, b) -> byKey.compare(a, b));
        // the result's columns: keys, then each value
        Column outKeys;
        List<Column> outValues = new ArrayList<>();
        ArrayColumn outEntries = null;
        List<ArrayColumn> outArrays = new ArrayList<>();
        if (type instanceof MapType) {
            outEntries = (ArrayColumn) out;
            TupleColumn kv = (TupleColumn) outEntries.elements();
            outKeys = kv.element(0);
            outValues.add(kv.element(1));
        } else {
            TupleColumn tc = (TupleColumn) out;
            for (int i = 0; i < tc.arity(); i++) {
                outArrays.add((ArrayColumn) tc.element(i));
            }
            outKeys = outArrays.get(0).elements();
            for (int i = 1; i < outArrays.size(); i++) {
                outValues.add(outArrays.get(i).elements());
            }
        }
        boolean dropZeros = f == SimpleAggregateFunction.Function.SUM_MAP && outEntries == null;
        int[] group = new int[entries];
        int i = 0;
        while (i < entries) {
            int j = i + 1;
            while (j < entries && byKey.compare(order[i], order[j]) == 0) {
                j++;
            }
            int count = j - i;
            for (int k = 0; k < count; k++) {
                group[k] = order[i + k];
            }
            List<Column> results = new ArrayList<>(values.size());
            boolean allZero = true;
            for (int v = 0; v < values.size(); v++) {
                Column result = values.get(v).newEmpty(1);
                if (f == SimpleAggregateFunction.Function.SUM_MAP) {
                    combine(
                            SimpleAggregateFunction.Function.SUM,
                            values.get(v),
                            group,
                            count,
                            result);
                } else {
                    boolean max = f == SimpleAggregateFunction.Function.MAX_MAP;
                    result.appendFrom(
                            values.get(v),
                            extremeRow(valueTypes.get(v), values.get(v), group, count, max));
                }
                allZero &= isZero(result, 0);
                results.add(result);
            }
            if (!dropZeros || !allZero) {
                outKeys.appendFrom(keys, order[i]);
                for (int v = 0; v < values.size(); v++) {
                    outValues.get(v).appendFrom(results.get(v), 0);
                }
            }
            i = j;
        }
        if (outEntries != null) {
            outEntries.endRow();
        } else {
            for (ArrayColumn a : outArrays) {
                a.endRow();
            }
        }
    }

    /** Whether row {@code row} of a number column is zero (−0.0 included). */
    private static boolean isZero(Column c, int row) {
        return switch (c.physicalType()) {
            case BYTE -> ((ByteColumn) c).get(row) == 0;
            case SHORT -> ((ShortColumn) c).get(row) == 0;
            case INT -> ((IntColumn) c).get(row) == 0;
            case LONG -> ((LongColumn) c).get(row) == 0;
            case FLOAT -> ((FloatColumn) c).get(row) == 0;
            case DOUBLE -> ((DoubleColumn) c).get(row) == 0;
            case FIXED_BYTES -> {
                FixedBytesColumn f = (FixedBytesColumn) c;
                int w = f.width();
                for (int i = row * w; i < row * w + w; i++) {
                    if (f.data()[i] != 0) {
                        yield false;
                    }
                }
                yield true;
            }
            default -> false;
        };
    }
}
