package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/**
 * {@code uniq(x)}: ClickHouse's {@code UniquesHashSet} (the BJKST estimator of {@code
 * src/AggregateFunctions/UniquesHashSet.h}), ported operation for operation so that states are the
 * bytes ClickHouse writes when it aggregates and merges in the same order.
 *
 * <p>A row's value becomes a 64-bit key ({@code AggregateFunctionUniqTraits::hash}: integers,
 * dates, DateTime and Enum sign- or zero-extended, floats by their bits, String / FixedString /
 * IPv6 by CityHash64 v1.0.2 of the bytes; Decimal and DateTime64 by ClickHouse's generic path, see
 * {@link KeyKind#GENERIC}); the set keeps the low 32 bits of {@code intHash64(key)} in an
 * open-addressing table (linear probing, placed by the hash's high 17 bits), doubling when more
 * than half full; beyond 65536 hashes it keeps only hashes divisible by {@code 2^skip_degree},
 * raising the degree until at most 65536 remain. Serialized: skip_degree (UInt8), VarUInt count,
 * then the hashes as UInt32 (0 first when present, then in table order).
 */
final class UniqState extends StateFunction<UniqState.HashSet> {
    private static final int MAX_SIZE_DEGREE = 17;
    private static final int MAX_SIZE = 1 << (MAX_SIZE_DEGREE - 1);
    private static final int BITS_FOR_SKIP = 32 - MAX_SIZE_DEGREE;
    private static final int INITIAL_SIZE_DEGREE = 4;
    private static final int MAX_SKIP_DEGREE = BITS_FOR_SKIP + 1;

    /** How a value's bytes become the set's 32-bit hash. */
    private enum KeyKind {
        /** Integers up to 64 bits, dates, DateTime, IPv4: zero-extended, then intHash64. */
        UNSIGNED,
        /** Signed integers, Date32 and Enum: sign-extended, then intHash64. */
        SIGNED,
        /** Float32: its 32 bits zero-extended, then intHash64. */
        FLOAT32,
        /** Float64: its 64 bits, then intHash64. */
        FLOAT64,
        /** 128- and 256-bit integers, UUID: intHash64 of the xor of the 64-bit words, twice. */
        WIDE,
        /** FixedString, IPv6: CityHash64 of the bytes, then intHash64. */
        BYTES_HASHED,
        /** String: CityHash64 of the string's bytes, then intHash64. */
        STRING_HASHED,
        /**
         * Types ClickHouse's uniq takes through its generic ("variadic") path (Decimal,
         * DateTime64): CityHash64 of the value's bytes, without intHash64.
         */
        GENERIC
    }

    private final KeyKind keyKind;

    UniqState(DataType argument) {
        this.keyKind = keyKind(argument);
    }

    /** Whether uniq's key of {@code t} is computed by this engine (see {@link #keyKind}). */
    static boolean supports(DataType t) {
        return keyKindOrNull(t) != null;
    }

    private static KeyKind keyKind(DataType t) {
        KeyKind k = keyKindOrNull(t);
        if (k == null) {
            throw new IllegalArgumentException("uniq of " + t.name() + " is not supported");
        }
        return k;
    }

    private static KeyKind keyKindOrNull(DataType t) {
        return switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, BOOL, DATE, DATETIME, IPV4 -> KeyKind.UNSIGNED;
            case INT8, INT16, INT32, INT64, DATE32, ENUM8, ENUM16 -> KeyKind.SIGNED;
            case FLOAT32 -> KeyKind.FLOAT32;
            case FLOAT64 -> KeyKind.FLOAT64;
            case UINT128, INT128, UINT256, INT256, UUID -> KeyKind.WIDE;
            case DECIMAL, DATETIME64 -> KeyKind.GENERIC;
            case FIXED_STRING, IPV6 -> KeyKind.BYTES_HASHED;
            case STRING -> KeyKind.STRING_HASHED;
            default -> null;
        };
    }

    /** The mutable set: ClickHouse's {@code UniquesHashSet} fields. */
    static final class HashSet {
        int size;
        int sizeDegree;
        int skipDegree;
        boolean hasZero;
        int[] buf;

        HashSet(int sizeDegree) {
            this.sizeDegree = sizeDegree;
            this.buf = new int[1 << sizeDegree];
        }

        private int mask() {
            return buf.length - 1;
        }

        private int place(int x) {
            return (x >>> BITS_FOR_SKIP) & mask();
        }

        private boolean good(int hash) {
            return hash == ((hash >>> skipDegree) << skipDegree);
        }

        private void insertImpl(int x) {
            if (x == 0) {
                size += hasZero ? 0 : 1;
                hasZero = true;
                return;
            }
            int p = place(x);
            while (buf[p] != 0 && buf[p] != x) {
                p = (p + 1) & mask();
            }
            if (buf[p] == x) {
                return;
            }
            buf[p] = x;
            size++;
        }

        private void reinsertImpl(int x) {
            int p = place(x);
            while (buf[p] != 0) {
                p = (p + 1) & mask();
            }
            buf[p] = x;
        }

        private void resize() {
            int oldSize = buf.length;
            int[] grown = new int[oldSize * 2];
            System.arraycopy(buf, 0, grown, 0, oldSize);
            buf = grown;
            sizeDegree++;
            for (int i = 0; i < oldSize || buf[i] != 0; i++) {
                int x = buf[i];
                if (x == 0) {
                    continue;
                }
                int p = place(x);
                if (p == i) {
                    continue;
                }
                while (buf[p] != 0 && buf[p] != x) {
                    p = (p + 1) & mask();
                }
                if (buf[p] == x) {
                    continue;
                }
                buf[p] = x;
                buf[i] = 0;
            }
        }

        private void rehash() {
            for (int i = 0; i < buf.length; i++) {
                if (buf[i] != 0) {
                    if (!good(buf[i])) {
                        buf[i] = 0;
                        size--;
                    } else if (i != place(buf[i])) {
                        int x = buf[i];
                        buf[i] = 0;
                        reinsertImpl(x);
                    }
                }
            }
            for (int i = 0; i < buf.length && buf[i] != 0; i++) {
                if (i != place(buf[i])) {
                    int x = buf[i];
                    buf[i] = 0;
                    reinsertImpl(x);
                }
            }
        }

        private void shrinkIfNeed() {
            if (Integer.toUnsignedLong(size) > (buf.length >>> 1)) {
                if (size > MAX_SIZE) {
                    while (size > MAX_SIZE) {
                        if (skipDegree >= MAX_SKIP_DEGREE) {
                            throw new IllegalArgumentException(
                                    "Cannot thin out a uniq state: "
                                            + size
                                            + " elements remain at the maximum skip degree of "
                                            + MAX_SKIP_DEGREE);
                        }
                        skipDegree++;
                        rehash();
                    }
                } else {
                    resize();
                }
            }
        }

        void insertHash(int hash) {
            if (!good(hash)) {
                return;
            }
            insertImpl(hash);
            shrinkIfNeed();
        }

        void merge(HashSet rhs) {
            if (rhs.skipDegree > skipDegree) {
                skipDegree = rhs.skipDegree;
                rehash();
            }
            if (!hasZero && rhs.hasZero) {
                hasZero = true;
                size++;
                shrinkIfNeed();
            }
            for (int x : rhs.buf) {
                if (x != 0 && good(x)) {
                    insertImpl(x);
                    shrinkIfNeed();
                }
            }
        }
    }

    @Override
    HashSet create() {
        return new HashSet(INITIAL_SIZE_DEGREE);
    }

    @Override
    HashSet read(ByteSource in) {
        int skip = in.readByte();
        if (skip > MAX_SKIP_DEGREE) {
            throw new IllegalArgumentException(
                    "uniq state's skip degree "
                            + skip
                            + " exceeds the maximum of "
                            + MAX_SKIP_DEGREE);
        }
        long n = in.readVarUInt();
        if (n < 0 || n > MAX_SIZE) {
            throw new IllegalArgumentException(
                    "uniq state's size "
                            + Long.toUnsignedString(n)
                            + " exceeds the maximum of "
                            + MAX_SIZE);
        }
        int m = (int) n;
        int degree =
                m <= 1
                        ? INITIAL_SIZE_DEGREE
                        : Math.max(
                                INITIAL_SIZE_DEGREE,
                                (31 - Integer.numberOfLeadingZeros(m - 1)) + 2);
        HashSet s = new HashSet(degree);
        s.skipDegree = skip;
        s.size = m;
        byte[] b = new byte[4];
        for (int i = 0; i < m; i++) {
            in.readFully(b, 0, 4);
            int x = (b[0] & 0xFF) | (b[1] & 0xFF) << 8 | (b[2] & 0xFF) << 16 | (b[3] & 0xFF) << 24;
            if (x == 0) {
                s.hasZero = true;
            } else {
                s.reinsertImpl(x);
            }
        }
        return s;
    }

    @Override
    void write(HashSet state, ByteSink out) {
        out.writeByte(state.skipDegree);
        out.writeVarUInt(state.size);
        if (state.hasZero) {
            writeUInt32(out, 0);
        }
        for (int x : state.buf) {
            if (x != 0) {
                writeUInt32(out, x);
            }
        }
    }

    private static void writeUInt32(ByteSink out, int x) {
        out.writeByte(x & 0xFF);
        out.writeByte((x >>> 8) & 0xFF);
        out.writeByte((x >>> 16) & 0xFF);
        out.writeByte((x >>> 24) & 0xFF);
    }

    @Override
    void add(HashSet state, byte[][] arguments) {
        state.insertHash(hash(arguments[0]));
    }

    @Override
    void merge(HashSet into, HashSet from) {
        into.merge(from);
    }

    /**
     * The set's hash of a value in its single-value binary form: the low 32 bits of {@code
     * intHash64} of {@code AggregateFunctionUniqTraits::hash} (ClickHouse 26.7 keeps -0.0 and 0.0
     * apart, as their bits differ), or of the generic path's CityHash64.
     */
    private int hash(byte[] v) {
        long key;
        switch (keyKind) {
            case UNSIGNED -> key = ArgumentValues.le(v, v.length);
            case SIGNED -> {
                int shift = 64 - 8 * v.length;
                key = (ArgumentValues.le(v, v.length) << shift) >> shift;
            }
            case FLOAT32 -> key = ArgumentValues.le(v, 4);
            case FLOAT64 -> key = ArgumentValues.le(v, 8);
            case WIDE -> {
                long x = 0;
                for (int off = 0; off < v.length; off += 8) {
                    for (int i = 0; i < 8; i++) {
                        x ^= (v[off + i] & 0xFFL) << (8 * i);
                    }
                }
                key = intHash64(x);
            }
            case BYTES_HASHED -> key = CityHash102.cityHash64(v, 0, v.length);
            case STRING_HASHED -> {
                int prefix = 0;
                while ((v[prefix] & 0x80) != 0) {
                    prefix++;
                }
                prefix++;
                key = CityHash102.cityHash64(v, prefix, v.length - prefix);
            }
            default -> {
                return (int) CityHash102.cityHash64(v, 0, v.length);
            }
        }
        return (int) intHash64(key);
    }

    /** ClickHouse's {@code intHash64} (Common/HashTable/Hash.h), MurmurHash3's 64-bit finalizer. */
    static long intHash64(long x) {
        x ^= x >>> 33;
        x *= 0xff51afd7ed558ccdL;
        x ^= x >>> 33;
        x *= 0xc4ceb9fe1a85ec53L;
        x ^= x >>> 33;
        return x;
    }
}
