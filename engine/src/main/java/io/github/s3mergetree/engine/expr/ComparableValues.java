package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The values of one column (array elements, map keys, a needle) flattened into primitive arrays for
 * the equality tests of {@code has}, {@code indexOf}, {@code arrayDistinct}, {@code mapContains}
 * and {@code m[k]}: integers as longs with their signedness, floats as doubles, all other values as
 * byte slices, plus the NULL flags of a Nullable column.
 *
 * <p>Two kinds of equality, as ClickHouse has them: {@link #equalsAcross} compares values of
 * possibly different numeric types after {@link #unify} converted both as C++ would ({@code has(a,
 * -1)} of an {@code Array(UInt64)} finds 18446744073709551615), and {@link #sameAt} / {@link
 * #hashAt} compare values of one column bit for bit, as the hash sets of {@code arrayDistinct} do
 * ({@code 0.0} and {@code -0.0} differ, NaNs of one bit pattern are one value).
 */
final class ComparableValues {
    enum Kind {
        INTEGER,
        FLOAT,
        BYTES
    }

    private Kind kind;
    private final int size;
    private long[] longs;
    private boolean unsigned;
    private double[] doubles;
    private byte[] bytes;
    private int[] starts;
    private int[] ends;
    private byte[] nulls;
    private boolean nullIsEmptyString;

    private ComparableValues(Kind kind, int size) {
        this.kind = kind;
        this.size = size;
    }

    /** The values of the first {@code n} rows of {@code c}, of type {@code t} (LC-free). */
    static ComparableValues of(Column c, DataType t, int n) {
        t = Vectors.stripLowCardinality(t);
        byte[] nulls = null;
        if (t instanceof NullableType nt) {
            NullableColumn nc = (NullableColumn) c;
            nulls = nc.nullMap().data();
            c = nc.nested();
            t = Vectors.stripLowCardinality(nt.nested());
        }
        ComparableValues v;
        Kind k = kindOf(t);
        v = new ComparableValues(k, n);
        switch (k) {
            case INTEGER -> {
                v.longs = Vectors.longs(c, t, n);
                v.unsigned = Vectors.unsigned(t);
            }
            case FLOAT -> v.doubles = Vectors.doubles(c, t, n);
            default -> {
                v.starts = new int[n];
                v.ends = new int[n];
                if (c instanceof StringColumn s) {
                    v.bytes = s.bytes();
                    for (int i = 0; i < n; i++) {
                        v.starts[i] = s.start(i);
                        v.ends[i] = s.end(i);
                    }
                } else {
                    FixedBytesColumn f = (FixedBytesColumn) c;
                    v.bytes = f.data();
                    int w = f.width();
                    for (int i = 0; i < n; i++) {
                        v.starts[i] = i * w;
                        v.ends[i] = i * w + w;
                    }
                }
            }
        }
        v.nulls = nulls;
        return v;
    }

    /** How values of {@code t} (not Nullable, not LowCardinality) are compared. */
    static Kind kindOf(DataType t) {
        return switch (t.kind()) {
            case FLOAT32, FLOAT64 -> Kind.FLOAT;
            default ->
                    switch (t.physicalType()) {
                        case BYTE, SHORT, INT, LONG -> Kind.INTEGER;
                        case STRING, FIXED_BYTES -> Kind.BYTES;
                        default -> null;
                    };
        };
    }

    Kind kind() {
        return kind;
    }

    int size() {
        return size;
    }

    boolean isNull(int i) {
        return nulls != null && nulls[i] != 0;
    }

    /**
     * Makes a NULL of this (needle) column compare as the empty string with the values of the other
     * column, NULL or not: what ClickHouse's {@code has}, {@code indexOf} and {@code mapContains}
     * do with a NULL of a {@code Nullable(String)} needle ({@code has(['', 'z'], NULL)} is 1),
     * while a NULL number finds only NULL elements.
     */
    void compareNullsAsEmptyString() {
        nullIsEmptyString = true;
    }

    /** Narrows the integer values to {@code t} (as a CAST to a map's integer key type does). */
    void wrapTo(DataType t) {
        for (int i = 0; i < size; i++) {
            longs[i] = Vectors.wrap(longs[i], t);
        }
        unsigned = Vectors.unsigned(t);
    }

    /**
     * Converts {@code a} and {@code b} to the type C++ compares them in, as ClickHouse's {@code
     * has} and {@code indexOf} compare with {@code ==} of the element and the needle type: integers
     * narrower than 32 bits are promoted to Int32, then mixed signedness goes to the unsigned type
     * if it is at least as wide ({@code has([toUInt64(-1)], -1)} is 1, {@code has([toUInt8(255)],
     * -1)} is 0); an integer compared with a float becomes that float type.
     */
    static void unify(ComparableValues a, DataType ta, ComparableValues b, DataType tb) {
        unify(a, ta, b, tb, false);
    }

    /**
     * As {@link #unify(ComparableValues, DataType, ComparableValues, DataType)}, but with {@code
     * accurate} integers compare by their value, as ClickHouse's {@code has} does when the array is
     * a constant ({@code has([toUInt32(4294967295)], x)} is 0 for an Int32 {@code x} of -1).
     */
    static void unify(
            ComparableValues a, DataType ta, ComparableValues b, DataType tb, boolean accurate) {
        ta = baseType(ta);
        tb = baseType(tb);
        if (a.kind == Kind.INTEGER && b.kind == Kind.INTEGER) {
            if (!ta.equals(tb) && !accurate) {
                DataType common = commonIntegerType(ta, tb);
                a.wrapTo(common);
                b.wrapTo(common);
            }
        } else if (a.kind == Kind.INTEGER && b.kind == Kind.FLOAT) {
            a.toFloat(ta, tb.kind() == TypeKind.FLOAT32);
        } else if (a.kind == Kind.FLOAT && b.kind == Kind.INTEGER) {
            b.toFloat(tb, ta.kind() == TypeKind.FLOAT32);
        }
    }

    private static int width(DataType t) {
        return switch (t.physicalType()) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT -> 4;
            default -> 8;
        };
    }

    /** The C++ common type of two integer types (after promotion to int). */
    static DataType commonIntegerType(DataType a, DataType b) {
        int wa = width(a);
        int wb = width(b);
        boolean ua = Vectors.unsigned(a) && wa >= 4;
        boolean ub = Vectors.unsigned(b) && wb >= 4;
        wa = Math.max(wa, 4);
        wb = Math.max(wb, 4);
        if (ua == ub) {
            return Vectors.integerType(Math.max(wa, wb), !ua);
        }
        int wu = ua ? wa : wb;
        int ws = ua ? wb : wa;
        return wu >= ws ? Vectors.integerType(wu, false) : Vectors.integerType(ws, true);
    }

    private void toFloat(DataType t, boolean float32) {
        doubles = new double[size];
        boolean u64 = t.kind() == TypeKind.UINT64;
        for (int i = 0; i < size; i++) {
            double d = u64 ? Vectors.unsignedToDouble(longs[i]) : (double) longs[i];
            doubles[i] = float32 ? (float) d : d;
        }
        longs = null;
        kind = Kind.FLOAT;
    }

    /**
     * Whether value {@code i} equals value {@code j} of {@code o} (NULL equals only NULL); both
     * sides must have been {@link #unify unified}.
     */
    boolean equalsAcross(int i, ComparableValues o, int j) {
        boolean n1 = isNull(i);
        boolean n2 = o.isNull(j);
        if (n2 && o.nullIsEmptyString) {
            // the nested value under a NULL is the empty string, under a NULL element too
            return kind == Kind.BYTES && starts[i] == ends[i];
        }
        if (n1 || n2) {
            return n1 && n2;
        }
        return switch (kind) {
            case INTEGER -> longs[i] == o.longs[j] && (unsigned == o.unsigned || longs[i] >= 0);
            case FLOAT -> doubles[i] == o.doubles[j];
            default -> Arrays.equals(bytes, starts[i], ends[i], o.bytes, o.starts[j], o.ends[j]);
        };
    }

    /** Whether values {@code i} and {@code j} of this column are the same bits (NULLs alike). */
    boolean sameAt(int i, int j) {
        boolean n1 = isNull(i);
        boolean n2 = isNull(j);
        if (n1 || n2) {
            return n1 && n2;
        }
        return switch (kind) {
            case INTEGER -> longs[i] == longs[j];
            case FLOAT ->
                    Double.doubleToRawLongBits(doubles[i])
                            == Double.doubleToRawLongBits(doubles[j]);
            default -> Arrays.equals(bytes, starts[i], ends[i], bytes, starts[j], ends[j]);
        };
    }

    /**
     * The order of {@code arraySort} between values {@code i} and {@code j} of this column:
     * ascending (integers by their signedness, strings bytewise unsigned), NaN after all numbers,
     * NULL last.
     */
    int compareAt(int i, int j) {
        boolean n1 = isNull(i);
        boolean n2 = isNull(j);
        if (n1 || n2) {
            return Boolean.compare(n1, n2);
        }
        return switch (kind) {
            case INTEGER ->
                    unsigned
                            ? Long.compareUnsigned(longs[i], longs[j])
                            : Long.compare(longs[i], longs[j]);
            case FLOAT -> {
                double a = doubles[i];
                double b = doubles[j];
                boolean nanA = Double.isNaN(a);
                boolean nanB = Double.isNaN(b);
                if (nanA || nanB) {
                    yield Boolean.compare(nanA, nanB);
                }
                yield a < b ? -1 : a > b ? 1 : 0;
            }
            default -> Arrays.compareUnsigned(bytes, starts[i], ends[i], bytes, starts[j], ends[j]);
        };
    }

    /** A hash of value {@code i} consistent with {@link #sameAt}. */
    int hashAt(int i) {
        if (isNull(i)) {
            return 0x9E3779B9;
        }
        long h;
        switch (kind) {
            case INTEGER -> h = longs[i];
            case FLOAT -> h = Double.doubleToRawLongBits(doubles[i]);
            default -> {
                int x = 1;
                for (int p = starts[i]; p < ends[i]; p++) {
                    x = 31 * x + bytes[p];
                }
                h = x;
            }
        }
        h *= 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /**
     * Checks that values of {@code element} and {@code needle} (LC-free, Nullable allowed) can be
     * compared for equality, as ClickHouse's {@code has} requires a common type: both numbers, both
     * strings, or the same type.
     */
    static void checkComparable(DataType element, DataType needle, String function, int pos) {
        DataType a = baseType(element);
        DataType b = baseType(needle);
        Kind ka = kindOf(a);
        Kind kb = kindOf(b);
        if (a.equals(b) && ka != null) {
            return;
        }
        boolean sa = isString(a);
        boolean sb = isString(b);
        if (sa && sb) {
            return;
        }
        if (isNumber(a) && isNumber(b)) {
            return;
        }
        if (sa != sb && (isNumber(a) || isNumber(b))) {
            throw ExprException.invalid(
                    "There is no supertype for types "
                            + a.name()
                            + ", "
                            + b.name()
                            + " because some of them are String/FixedString/Enum and some of"
                            + " them are not (function "
                            + function
                            + ")",
                    pos);
        }
        throw ExprException.unsupported(
                "Function "
                        + function
                        + " comparing values of "
                        + a.name()
                        + " with values of "
                        + b.name()
                        + " is not supported (only numbers with numbers, strings with strings and"
                        + " equal types)",
                pos);
    }

    private static DataType baseType(DataType t) {
        t = Vectors.stripLowCardinality(t);
        return t instanceof NullableType n ? Vectors.stripLowCardinality(n.nested()) : t;
    }

    static boolean isString(DataType t) {
        return t.kind() == TypeKind.STRING || t.kind() == TypeKind.FIXED_STRING;
    }

    static boolean isNumber(DataType t) {
        return switch (t.kind()) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64, FLOAT32, FLOAT64 -> true;
            default -> false;
        };
    }

    /**
     * {@code t} with LowCardinality removed at every level (inside Array, Map, Tuple and Nullable),
     * as ClickHouse removes it from the arguments of array and map functions.
     */
    static DataType stripLowCardinalityDeep(DataType t) {
        if (t instanceof LowCardinalityType lc) {
            return stripLowCardinalityDeep(lc.nested());
        }
        if (t instanceof NullableType n) {
            return new NullableType(stripLowCardinalityDeep(n.nested()));
        }
        if (t instanceof ArrayType a) {
            return new ArrayType(stripLowCardinalityDeep(a.element()));
        }
        if (t instanceof MapType m) {
            return new MapType(
                    stripLowCardinalityDeep(m.key()), stripLowCardinalityDeep(m.value()));
        }
        if (t instanceof TupleType tt) {
            List<DataType> e = new ArrayList<>();
            for (DataType x : tt.elements()) {
                e.add(stripLowCardinalityDeep(x));
            }
            return new TupleType(tt.names().orElse(null), e);
        }
        return t;
    }
}
