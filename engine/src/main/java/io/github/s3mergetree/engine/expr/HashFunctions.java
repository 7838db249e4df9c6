package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;

/**
 * {@code cityHash64(x, ...)} as ClickHouse computes it: CityHash64 v1.0.2 of the bytes of String
 * and FixedString values, of 128/256-bit values and of Decimal and DateTime64 values (their
 * little-endian native bytes); a seeded {@code intHash64} of the bit pattern of integers, dates,
 * enums and floats of up to 64 bits (zero-extended from their native width); several arguments, and
 * the elements of tuple arguments, combined left to right with CityHash's {@code
 * Hash128to64(previous, next)}.
 *
 * <p>Arrays and Maps, and Nullable values nested inside tuples, are rejected: their hashing
 * (element counts, fixed NULL hashes) is not implemented.
 */
final class HashFunctions {
    private HashFunctions() {}

    private static final long K_MUL = 0x9ddfea08eb382d69L;

    static void register() {
        Functions.register("cityHash64", false, HashFunctions::bindCityHash64);
    }

    /**
     * ClickHouse's {@code IntHash64Impl}: {@code intHash64} (MurmurHash3's 64-bit finalizer) of the
     * value xor-ed with a fixed seed.
     */
    static long intHash64(long x) {
        x ^= 0x4CF2D2BAAE6DA887L;
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }

    /** CityHash v1.0.2 {@code Hash128to64} of the pair (low = h1, high = h2). */
    static long combine(long h1, long h2) {
        long a = (h1 ^ h2) * K_MUL;
        a ^= a >>> 47;
        long b = (h2 ^ a) * K_MUL;
        b ^= b >>> 47;
        b *= K_MUL;
        return b;
    }

    private static Functions.Bound bindCityHash64(List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty()) {
            throw Functions.argCount("cityHash64", 0, "at least 1", pos);
        }
        for (int i = 0; i < types.size(); i++) {
            check(types.get(i), i, pos);
        }
        return new Functions.Bound(
                DataTypes.UINT64,
                (cols, n, ctx) -> {
                    long[] h = new long[n];
                    boolean[] first = {true};
                    for (int i = 0; i < cols.length; i++) {
                        hashInto(cols[i], types.get(i), n, h, first);
                    }
                    return Vectors.fromLongs(h, n, DataTypes.UINT64);
                });
    }

    private static void check(DataType t, int i, int pos) {
        DataType u = Vectors.stripLowCardinality(t);
        if (u instanceof NullableType) {
            throw ExprException.unsupported(
                    "cityHash64 of Nullable values inside a tuple is not supported", pos);
        }
        if (u instanceof TupleType tt) {
            for (DataType e : tt.elements()) {
                check(e, i, pos);
            }
            return;
        }
        switch (u.kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    BOOL,
                    DATE,
                    DATE32,
                    DATETIME,
                    DATETIME64,
                    ENUM8,
                    ENUM16,
                    IPV4,
                    FLOAT32,
                    FLOAT64,
                    STRING,
                    FIXED_STRING,
                    UINT128,
                    UINT256,
                    INT128,
                    INT256,
                    UUID,
                    IPV6 -> {}
            case DECIMAL -> {}
            default ->
                    throw ExprException.unsupported(
                            "cityHash64 of "
                                    + u.name()
                                    + " (argument "
                                    + (i + 1)
                                    + ") is not supported",
                            pos);
        }
    }

    private static void put(long[] h, int i, long v, boolean first) {
        h[i] = first ? v : combine(h[i], v);
    }

    private static void hashInto(Column c, DataType t, int n, long[] h, boolean[] first) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        boolean f = first[0];
        if (t instanceof TupleType tt) {
            TupleColumn tc = (TupleColumn) c;
            for (int e = 0; e < tt.elements().size(); e++) {
                hashInto(tc.element(e), tt.elements().get(e), n, h, first);
            }
            return;
        }
        first[0] = false;
        if (t.kind() == TypeKind.DECIMAL || t.kind() == TypeKind.DATETIME64) {
            int w = t.fixedWidth();
            if (w <= 8) {
                long[] v = Vectors.longs(c, t, n);
                byte[] buf = new byte[8];
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < w; j++) {
                        buf[j] = (byte) (v[i] >>> (8 * j));
                    }
                    put(h, i, CityHash102.cityHash64(buf, 0, w), f);
                }
                return;
            }
        }
        switch (c.physicalType()) {
            case BYTE -> {
                byte[] d = ((ByteColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(d[i] & 0xFFL), f);
                }
            }
            case SHORT -> {
                short[] d = ((ShortColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(d[i] & 0xFFFFL), f);
                }
            }
            case INT -> {
                int[] d = ((IntColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(d[i] & 0xFFFFFFFFL), f);
                }
            }
            case LONG -> {
                long[] d = ((LongColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(d[i]), f);
                }
            }
            case FLOAT -> {
                float[] d = ((FloatColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(Float.floatToRawIntBits(d[i]) & 0xFFFFFFFFL), f);
                }
            }
            case DOUBLE -> {
                double[] d = ((DoubleColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(h, i, intHash64(Double.doubleToRawLongBits(d[i])), f);
                }
            }
            case FIXED_BYTES -> {
                FixedBytesColumn fc = (FixedBytesColumn) c;
                byte[] d = fc.data();
                int w = fc.width();
                for (int i = 0; i < n; i++) {
                    put(h, i, CityHash102.cityHash64(d, i * w, w), f);
                }
            }
            case STRING -> {
                StringColumn sc = (StringColumn) c;
                byte[] d = sc.bytes();
                int[] off = sc.offsets();
                int start = 0;
                for (int i = 0; i < n; i++) {
                    put(h, i, CityHash102.cityHash64(d, start, off[i] - start), f);
                    start = off[i];
                }
            }
            default ->
                    throw ExprException.evaluation(
                            "cityHash64 cannot hash a column of " + t.name());
        }
    }
}
