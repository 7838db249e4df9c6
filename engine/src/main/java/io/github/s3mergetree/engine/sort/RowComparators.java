package io.github.s3mergetree.engine.sort;

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
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.Arrays;
import java.util.List;

/**
 * ClickHouse's sort order for the values of a column, as ORDER BY keys use it: integers by value
 * (signed or unsigned per type), floats with NaN after everything, strings and FixedString and IPv6
 * byte-wise, UUID as ClickHouse's UInt128 (low half first), NULL after every value, arrays and
 * tuples lexicographically.
 */
public final class RowComparators {
    private RowComparators() {}

    /** A comparator for rows of {@code column}, a column of {@code type}. */
    public static RowComparator forColumn(DataType type, Column column) {
        return forColumns(type, column, column);
    }

    /**
     * A comparator of row {@code a} of {@code left} with row {@code b} of {@code right}, two
     * columns of {@code type} (rows of different blocks, as a k-way merge compares them). The
     * columns' backing arrays are captured: build a new comparator after appending to them.
     */
    public static RowComparator forColumns(DataType type, Column left, Column right) {
        return forColumns(type, left, right, 1);
    }

    /**
     * A comparator for rows of {@code column} with ClickHouse's {@code nan_direction_hint}: NULLs
     * and float NaNs, at any nesting depth, compare greater than every value with {@code 1} (as
     * sorting does) and smaller with {@code -1} (as {@code max} compares, so that it never prefers
     * them).
     */
    public static RowComparator forColumn(DataType type, Column column, int nanDirectionHint) {
        return forColumns(type, column, column, nanDirectionHint);
    }

    private static RowComparator forColumns(DataType type, Column left, Column right, int hint) {
        Column column = left;
        if (type instanceof LowCardinalityType lc) {
            return forColumns(lc.nested(), left, right, hint);
        }
        if (type instanceof NullableType n) {
            NullableColumn nc = (NullableColumn) column;
            NullableColumn rc = (NullableColumn) right;
            byte[] nulls = nc.nullMap().data();
            byte[] rnulls = rc.nullMap().data();
            RowComparator nested = forColumns(n.nested(), nc.nested(), rc.nested(), hint);
            return (a, b) -> {
                boolean na = nulls[a] != 0;
                boolean nb = rnulls[b] != 0;
                if (na || nb) {
                    return na == nb ? 0 : na ? hint : -hint;
                }
                return nested.compare(a, b);
            };
        }
        if (type instanceof MapType m) {
            return forColumns(m.storageType(), left, right, hint);
        }
        if (type instanceof ArrayType at) {
            ArrayColumn ac = (ArrayColumn) column;
            ArrayColumn rc = (ArrayColumn) right;
            RowComparator el = forColumns(at.element(), ac.elements(), rc.elements(), hint);
            return (a, b) -> {
                int sa = ac.start(a);
                int la = ac.end(a) - sa;
                int sb = rc.start(b);
                int lb = rc.end(b) - sb;
                for (int i = 0; i < Math.min(la, lb); i++) {
                    int c = el.compare(sa + i, sb + i);
                    if (c != 0) {
                        return c;
                    }
                }
                return Integer.compare(la, lb);
            };
        }
        if (type instanceof TupleType t) {
            TupleColumn tc = (TupleColumn) column;
            TupleColumn rc = (TupleColumn) right;
            RowComparator[] cs = new RowComparator[tc.arity()];
            for (int i = 0; i < cs.length; i++) {
                cs[i] = forColumns(t.elements().get(i), tc.element(i), rc.element(i), hint);
            }
            return lexicographic(List.of(cs));
        }
        boolean unsigned = type.isUnsigned();
        switch (type.physicalType()) {
            case BYTE -> {
                byte[] d = ((ByteColumn) column).data();
                byte[] e = ((ByteColumn) right).data();
                return unsigned
                        ? (a, b) -> Integer.compare(d[a] & 0xFF, e[b] & 0xFF)
                        : (a, b) -> Byte.compare(d[a], e[b]);
            }
            case SHORT -> {
                short[] d = ((ShortColumn) column).data();
                short[] e = ((ShortColumn) right).data();
                return unsigned
                        ? (a, b) -> Integer.compare(d[a] & 0xFFFF, e[b] & 0xFFFF)
                        : (a, b) -> Short.compare(d[a], e[b]);
            }
            case INT -> {
                int[] d = ((IntColumn) column).data();
                int[] e = ((IntColumn) right).data();
                return unsigned
                        ? (a, b) -> Integer.compareUnsigned(d[a], e[b])
                        : (a, b) -> Integer.compare(d[a], e[b]);
            }
            case LONG -> {
                long[] d = ((LongColumn) column).data();
                long[] e = ((LongColumn) right).data();
                return unsigned
                        ? (a, b) -> Long.compareUnsigned(d[a], e[b])
                        : (a, b) -> Long.compare(d[a], e[b]);
            }
            case FLOAT -> {
                float[] d = ((FloatColumn) column).data();
                float[] e = ((FloatColumn) right).data();
                return (a, b) -> compareFloat(d[a], e[b], hint);
            }
            case DOUBLE -> {
                double[] d = ((DoubleColumn) column).data();
                double[] e = ((DoubleColumn) right).data();
                return (a, b) -> compareFloat(d[a], e[b], hint);
            }
            case FIXED_BYTES -> {
                return fixedBytes(type, (FixedBytesColumn) column, (FixedBytesColumn) right);
            }
            case STRING -> {
                StringColumn sc = (StringColumn) column;
                StringColumn rc = (StringColumn) right;
                return (a, b) ->
                        Arrays.compareUnsigned(
                                sc.bytes(),
                                sc.start(a),
                                sc.end(a),
                                rc.bytes(),
                                rc.start(b),
                                rc.end(b));
            }
            default -> throw new IllegalArgumentException("cannot compare " + type.name());
        }
    }

    private static RowComparator fixedBytes(DataType type, FixedBytesColumn c, FixedBytesColumn r) {
        int w = c.width();
        byte[] d = c.data();
        byte[] e = r.data();
        TypeKind k = type.kind();
        if (k == TypeKind.FIXED_STRING || k == TypeKind.IPV6) {
            return (a, b) -> Arrays.compareUnsigned(d, a * w, a * w + w, e, b * w, b * w + w);
        }
        if (k == TypeKind.UUID) {
            // ClickHouse holds a UUID as a UInt128 whose first limb is the high half (the first 16
            // hex digits, stored first) and compares it as UInt128, i.e. by the second limb — the
            // low half — first: UUIDs sort by their last 16 hex digits, then their first 16
            return (a, b) -> {
                int c1 = Long.compareUnsigned(le64(d, a * w + 8), le64(e, b * w + 8));
                return c1 != 0 ? c1 : Long.compareUnsigned(le64(d, a * w), le64(e, b * w));
            };
        }
        boolean signed = !type.isUnsigned();
        // little-endian wide integers: most significant byte last
        return (a, b) -> {
            int pa = a * w;
            int pb = b * w;
            for (int i = w - 1; i >= 0; i--) {
                int x = d[pa + i] & 0xFF;
                int y = e[pb + i] & 0xFF;
                if (i == w - 1 && signed) {
                    x = (byte) x;
                    y = (byte) y;
                }
                if (x != y) {
                    return x < y ? -1 : 1;
                }
            }
            return 0;
        };
    }

    private static long le64(byte[] d, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (d[p + i] & 0xFF);
        }
        return v;
    }

    static int compareFloat(double x, double y) {
        return compareFloat(x, y, 1);
    }

    private static int compareFloat(double x, double y, int hint) {
        boolean nx = Double.isNaN(x);
        boolean ny = Double.isNaN(y);
        if (nx || ny) {
            return nx == ny ? 0 : nx ? hint : -hint;
        }
        return x < y ? -1 : x > y ? 1 : 0;
    }

    /** Compares by the first comparator, then the next on ties, and so on. */
    public static RowComparator lexicographic(List<RowComparator> parts) {
        RowComparator[] cs = parts.toArray(new RowComparator[0]);
        if (cs.length == 1) {
            return cs[0];
        }
        return (a, b) -> {
            for (RowComparator c : cs) {
                int r = c.compare(a, b);
                if (r != 0) {
                    return r;
                }
            }
            return 0;
        };
    }
}
