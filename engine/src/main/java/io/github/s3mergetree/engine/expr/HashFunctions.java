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
import io.github.s3mergetree.engine.hash.MurmurHash3;
import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.io.LittleEndian;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The 64-bit hash functions of ClickHouse's {@code FunctionsHashing.h} that tables use in keys and
 * in the sharding keys of {@code Distributed} tables: {@code cityHash64}, {@code sipHash64}, {@code
 * xxHash64}, {@code murmurHash3_64} (any number of arguments) and {@code intHash32}/{@code
 * intHash64} (one integer).
 *
 * <p>{@code cityHash64(x, ...)} as ClickHouse computes it: CityHash64 v1.0.2 of the bytes of String
 * and FixedString values, of 128/256-bit values and of Decimal and DateTime64 values (their
 * little-endian native bytes); a seeded {@code intHash64} of the bit pattern of integers, dates,
 * enums and floats of up to 64 bits (zero-extended from their native width); several arguments, and
 * the elements of tuple arguments, combined left to right with CityHash's {@code
 * Hash128to64(previous, next)}.
 *
 * <p>{@code sipHash64}, {@code xxHash64} and {@code murmurHash3_64} hash every value's bytes
 * (numbers: their little-endian native bytes, so an Int8 is one byte) and combine several arguments
 * with the function's own {@code combineHashes}: SipHash of the 16 bytes of the two hashes,
 * CityHash's {@code Hash128to64}, and {@code intHash64(h1) ^ h2}.
 *
 * <p>Arrays and Maps, and Nullable values nested inside tuples, are rejected: their hashing
 * (element counts, fixed NULL hashes) is not implemented.
 */
final class HashFunctions {
    private HashFunctions() {}

    private static final long K_MUL = 0x9ddfea08eb382d69L;

    /** A hash function of ClickHouse's {@code FunctionAnyHash} family. */
    private enum AnyHash {
        CITY_HASH_64("cityHash64", true) {
            @Override
            long bytes(byte[] b, int off, int len) {
                return CityHash102.cityHash64(b, off, len);
            }

            @Override
            long combine(long h1, long h2) {
                return HashFunctions.combine(h1, h2);
            }
        },
        SIP_HASH_64("sipHash64", false) {
            @Override
            long bytes(byte[] b, int off, int len) {
                return SipHash128.sipHash64(b, off, len);
            }

            @Override
            long combine(long h1, long h2) {
                byte[] pair = new byte[16];
                LittleEndian.putLong(pair, 0, h1);
                LittleEndian.putLong(pair, 8, h2);
                return SipHash128.sipHash64(pair, 0, 16);
            }
        },
        XX_HASH_64("xxHash64", false) {
            @Override
            long bytes(byte[] b, int off, int len) {
                return XXH64.hash(b, off, len, 0);
            }

            @Override
            long combine(long h1, long h2) {
                return HashFunctions.combine(h1, h2);
            }
        },
        MURMUR_HASH_3_64("murmurHash3_64", false) {
            @Override
            long bytes(byte[] b, int off, int len) {
                return MurmurHash3.hash64(b, off, len);
            }

            @Override
            long combine(long h1, long h2) {
                return intHash64(h1) ^ h2;
            }
        };

        final String sqlName;

        /** ClickHouse's {@code use_int_hash_for_pods}: numbers hashed by intHash64, not bytes. */
        final boolean intHashForNumbers;

        AnyHash(String sqlName, boolean intHashForNumbers) {
            this.sqlName = sqlName;
            this.intHashForNumbers = intHashForNumbers;
        }

        abstract long bytes(byte[] b, int off, int len);

        abstract long combine(long h1, long h2);
    }

    private static final XXHash64 XXH64 = XXHashFactory.fastestJavaInstance().hash64();

    static void register() {
        for (AnyHash h : AnyHash.values()) {
            Functions.register(
                    h.sqlName, false, (args, types, pos) -> bindAnyHash(h, args, types, pos));
        }
        Functions.register("intHash64", false, (a, t, p) -> bindIntHash(false, a, t, p));
        Functions.register("intHash32", false, (a, t, p) -> bindIntHash(true, a, t, p));
    }

    /**
     * ClickHouse's {@code intHash32<0x75D9543DE018BF45>} (Thomas Wang's 64-to-32-bit mix of the
     * salted value), SQL {@code intHash32}.
     */
    static int intHash32(long key) {
        key ^= 0x75D9543DE018BF45L;
        key = (~key) + (key << 18);
        key = key ^ ((key >>> 31) | (key << 33));
        key = key * 21;
        key = key ^ ((key >>> 11) | (key << 53));
        key = key + (key << 6);
        key = key ^ ((key >>> 22) | (key << 42));
        return (int) key;
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

    private static Functions.Bound bindAnyHash(
            AnyHash hash, List<Expr> args, List<DataType> types, int pos) {
        if (args.isEmpty()) {
            throw Functions.argCount(hash.sqlName, 0, "at least 1", pos);
        }
        for (int i = 0; i < types.size(); i++) {
            check(hash.sqlName, types.get(i), i, pos);
        }
        return new Functions.Bound(
                DataTypes.UINT64,
                (cols, n, ctx) -> {
                    long[] h = new long[n];
                    boolean[] first = {true};
                    for (int i = 0; i < cols.length; i++) {
                        hashInto(hash, cols[i], types.get(i), n, h, first);
                    }
                    return Vectors.fromLongs(h, n, DataTypes.UINT64);
                });
    }

    /**
     * {@code intHash32(x)} / {@code intHash64(x)} of one integer, date or IPv4 (ClickHouse's {@code
     * FunctionIntHash}): the value converted to UInt64 (signed values sign-extended) and mixed.
     */
    private static Functions.Bound bindIntHash(
            boolean to32, List<Expr> args, List<DataType> types, int pos) {
        String name = to32 ? "intHash32" : "intHash64";
        if (args.size() != 1) {
            throw Functions.argCount(name, args.size(), "1", pos);
        }
        DataType t = Vectors.stripLowCardinality(types.get(0));
        switch (t.kind()) {
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
                    IPV4 -> {}
            default -> throw Functions.illegalType(types.get(0), 0, name, pos);
        }
        DataType result = to32 ? DataTypes.UINT32 : DataTypes.UINT64;
        return new Functions.Bound(
                result,
                (cols, n, ctx) -> {
                    long[] v = Vectors.longs(cols[0], t, n);
                    long[] h = new long[n];
                    for (int i = 0; i < n; i++) {
                        h[i] = to32 ? intHash32(v[i]) & 0xFFFFFFFFL : intHash64(v[i]);
                    }
                    return Vectors.fromLongs(h, n, result);
                });
    }

    private static void check(String function, DataType t, int i, int pos) {
        DataType u = Vectors.stripLowCardinality(t);
        if (u instanceof NullableType) {
            throw ExprException.unsupported(
                    function + " of Nullable values inside a tuple is not supported", pos);
        }
        if (u instanceof TupleType tt) {
            for (DataType e : tt.elements()) {
                check(function, e, i, pos);
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
                            function
                                    + " of "
                                    + u.name()
                                    + " (argument "
                                    + (i + 1)
                                    + ") is not supported",
                            pos);
        }
    }

    private static void hashInto(
            AnyHash hash, Column c, DataType t, int n, long[] h, boolean[] first) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        boolean f = first[0];
        if (t instanceof TupleType tt) {
            TupleColumn tc = (TupleColumn) c;
            for (int e = 0; e < tt.elements().size(); e++) {
                hashInto(hash, tc.element(e), tt.elements().get(e), n, h, first);
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
                    put(hash, h, i, hash.bytes(buf, 0, w), f);
                }
                return;
            }
        }
        byte[] buf = new byte[8];
        switch (c.physicalType()) {
            case BYTE -> {
                byte[] d = ((ByteColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, number(hash, d[i] & 0xFFL, 1, buf), f);
                }
            }
            case SHORT -> {
                short[] d = ((ShortColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, number(hash, d[i] & 0xFFFFL, 2, buf), f);
                }
            }
            case INT -> {
                int[] d = ((IntColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, number(hash, d[i] & 0xFFFFFFFFL, 4, buf), f);
                }
            }
            case LONG -> {
                long[] d = ((LongColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, number(hash, d[i], 8, buf), f);
                }
            }
            case FLOAT -> {
                float[] d = ((FloatColumn) c).data();
                for (int i = 0; i < n; i++) {
                    long bits = Float.floatToRawIntBits(d[i]) & 0xFFFFFFFFL;
                    put(hash, h, i, number(hash, bits, 4, buf), f);
                }
            }
            case DOUBLE -> {
                double[] d = ((DoubleColumn) c).data();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, number(hash, Double.doubleToRawLongBits(d[i]), 8, buf), f);
                }
            }
            case FIXED_BYTES -> {
                FixedBytesColumn fc = (FixedBytesColumn) c;
                byte[] d = fc.data();
                int w = fc.width();
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, hash.bytes(d, i * w, w), f);
                }
            }
            case STRING -> {
                StringColumn sc = (StringColumn) c;
                byte[] d = sc.bytes();
                int[] off = sc.offsets();
                int start = 0;
                for (int i = 0; i < n; i++) {
                    put(hash, h, i, hash.bytes(d, start, off[i] - start), f);
                    start = off[i];
                }
            }
            default ->
                    throw ExprException.evaluation(
                            hash.sqlName + " cannot hash a column of " + t.name());
        }
    }

    /**
     * The hash of a number of {@code width} bytes whose bit pattern (zero above) is {@code bits}:
     * {@code intHash64} of it for CityHash, else the hash of its little-endian bytes.
     */
    private static long number(AnyHash hash, long bits, int width, byte[] buf) {
        if (hash.intHashForNumbers) {
            return intHash64(bits);
        }
        LittleEndian.putLong(buf, 0, bits);
        return hash.bytes(buf, 0, width);
    }

    private static void put(AnyHash hash, long[] h, int i, long v, boolean first) {
        h[i] = first ? v : hash.combine(h[i], v);
    }
}
