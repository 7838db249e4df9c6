package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/**
 * {@code uniqCombined(x)} and {@code uniqCombined64(x)} (precision K = 17): ClickHouse's {@code
 * CombinedCardinalityEstimator} ported operation for operation, so that states are the bytes
 * ClickHouse writes when it aggregates and merges in the same order. A state is a container type
 * byte and the container:
 *
 * <ul>
 *   <li>1, small: up to 16 keys in insertion order (VarUInt count, keys);
 *   <li>2, medium: a hash set of up to 2^13 (4-byte keys) or 2^12 (8-byte keys) keys, open
 *       addressing placed by the key's low bits, 256 cells doubling when more than half full,
 *       written as ClickHouse's {@code HashTable} (VarUInt count, the zero key first when present,
 *       then the cells in table order);
 *   <li>3, large: a HyperLogLog of 2^17 ranks (5 bits each for 4-byte keys, 6 for 8-byte keys)
 *       packed least significant bit first, followed (ClickHouse writes the counter's memory) by
 *       the number of buckets per rank 0..max_rank and the number of zero ranks, UInt32 each.
 * </ul>
 *
 * <p>The key of a value ({@code AggregateFunctionUniqCombinedTraits}): {@code intHash64} of the
 * value (integers, dates, Enum, IPv4; floats by their bits), of the 64-bit words' xor (Int128,
 * 256-bit integers), CityHash64 of the bytes (String, FixedString, IPv6: always an 8-byte key), or
 * CityHash64 of the value's bytes through ClickHouse's generic path (Decimal, DateTime64); {@code
 * uniqCombined} keeps the low 32 bits except for the 8-byte keys.
 */
final class UniqCombinedState extends StateFunction<UniqCombinedState.Estimator> {
    private static final int K = 17;
    private static final int SMALL_MAX = 16;
    private static final int MEDIUM_INITIAL_DEGREE = 8;

    private static final int SMALL = 1;
    private static final int MEDIUM = 2;
    private static final int LARGE = 3;

    /** How a value's bytes become the key. */
    private enum KeyKind {
        UNSIGNED,
        SIGNED,
        WIDE,
        STRING,
        BYTES,
        GENERIC
    }

    private final KeyKind keyKind;
    private final int keyWidth;
    private final int mediumMax;
    private final int rankWidth;
    private final int maxRank;

    UniqCombinedState(DataType argument, boolean combined64) {
        this.keyKind = keyKind(argument);
        boolean longKey = combined64 || keyKind == KeyKind.STRING || keyKind == KeyKind.BYTES;
        this.keyWidth = longKey ? 8 : 4;
        this.mediumMax = 1 << (K - 5 + (keyWidth == 4 ? 1 : 0));
        this.rankWidth = keyWidth == 4 ? 5 : 6;
        this.maxRank = keyWidth * 8 - K + 1;
    }

    /** Whether this engine computes uniqCombined's key of {@code t}. */
    static boolean supports(DataType t) {
        return keyKindOrNull(t) != null;
    }

    private static KeyKind keyKind(DataType t) {
        KeyKind k = keyKindOrNull(t);
        if (k == null) {
            throw new IllegalArgumentException("uniqCombined of " + t.name() + " is not supported");
        }
        return k;
    }

    private static KeyKind keyKindOrNull(DataType t) {
        return switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, BOOL, DATE, DATETIME, IPV4 -> KeyKind.UNSIGNED;
            case INT8, INT16, INT32, INT64, DATE32, ENUM8, ENUM16 -> KeyKind.SIGNED;
            case FLOAT32, FLOAT64 -> KeyKind.UNSIGNED;
            case INT128, UINT256, INT256 -> KeyKind.WIDE;
            case STRING -> KeyKind.STRING;
            case FIXED_STRING, IPV6 -> KeyKind.BYTES;
            case DECIMAL, DATETIME64 -> KeyKind.GENERIC;
            default -> null;
        };
    }

    /** The mutable estimator: one of the three containers. */
    static final class Estimator {
        int type = SMALL;
        long[] small = new long[SMALL_MAX];
        int smallSize;
        // medium: ClickHouse's HashSet<Key, TrivialHash, UniqCombinedHashTableGrower>
        long[] buf;
        boolean hasZero;
        int size;
        // large: one rank per bucket
        byte[] ranks;
    }

    @Override
    Estimator create() {
        return new Estimator();
    }

    private long mask() {
        return keyWidth == 4 ? 0xFFFFFFFFL : -1L;
    }

    // ---- medium: the hash table ----

    private static void allocMedium(Estimator e, int degree) {
        e.buf = new long[1 << degree];
        e.hasZero = false;
        e.size = 0;
    }

    private static int place(long[] buf, long key) {
        return (int) (key & (buf.length - 1));
    }

    private static void mediumInsert(Estimator e, long key) {
        if (key == 0) {
            if (!e.hasZero) {
                e.hasZero = true;
                e.size++;
            }
            return;
        }
        long[] buf = e.buf;
        int m = buf.length - 1;
        int p = place(buf, key);
        while (buf[p] != 0 && buf[p] != key) {
            p = (p + 1) & m;
        }
        if (buf[p] == key) {
            return;
        }
        buf[p] = key;
        e.size++;
        if (e.size > (buf.length >>> 1)) {
            resize(e);
        }
    }

    private static void resize(Estimator e) {
        int oldSize = e.buf.length;
        long[] buf = new long[oldSize * 2];
        System.arraycopy(e.buf, 0, buf, 0, oldSize);
        e.buf = buf;
        int m = buf.length - 1;
        int i = 0;
        for (; i < oldSize; i++) {
            if (buf[i] != 0) {
                reinsert(buf, i, m);
            }
        }
        for (; buf[i] != 0; i++) {
            reinsert(buf, i, m);
        }
    }

    private static void reinsert(long[] buf, int i, int m) {
        long x = buf[i];
        int p = place(buf, x);
        if (p == i) {
            return;
        }
        while (buf[p] != 0 && buf[p] != x) {
            p = (p + 1) & m;
        }
        if (buf[p] == x) {
            return;
        }
        buf[p] = x;
        buf[i] = 0;
    }

    /** The medium set's keys in ClickHouse's iteration (and serialization) order. */
    private static long[] mediumKeys(Estimator e) {
        long[] out = new long[e.size];
        int n = 0;
        if (e.hasZero) {
            out[n++] = 0;
        }
        for (long x : e.buf) {
            if (x != 0) {
                out[n++] = x;
            }
        }
        return out;
    }

    // ---- large: HyperLogLog ----

    private void largeInsert(Estimator e, long key) {
        long hash = key & mask();
        int bucket = (int) (hash & ((1 << K) - 1));
        long rest = hash >>> K;
        int rank = rest == 0 ? maxRank : Math.min(Long.numberOfTrailingZeros(rest) + 1, maxRank);
        if (rank > e.ranks[bucket]) {
            e.ranks[bucket] = (byte) rank;
        }
    }

    // ---- the estimator ----

    private void toMedium(Estimator e) {
        allocMedium(e, MEDIUM_INITIAL_DEGREE);
        for (int i = 0; i < e.smallSize; i++) {
            mediumInsert(e, e.small[i]);
        }
        e.type = MEDIUM;
    }

    private void toLarge(Estimator e) {
        e.ranks = new byte[1 << K];
        if (e.type == SMALL) {
            for (int i = 0; i < e.smallSize; i++) {
                largeInsert(e, e.small[i]);
            }
        } else {
            for (long x : mediumKeys(e)) {
                largeInsert(e, x);
            }
            e.buf = null;
        }
        e.type = LARGE;
    }

    private void insert(Estimator e, long key) {
        if (e.type == SMALL) {
            for (int i = 0; i < e.smallSize; i++) {
                if (e.small[i] == key) {
                    return;
                }
            }
            if (e.smallSize < SMALL_MAX) {
                e.small[e.smallSize++] = key;
            } else {
                toMedium(e);
                mediumInsert(e, key);
            }
        } else if (e.type == MEDIUM) {
            if (e.size < mediumMax) {
                mediumInsert(e, key);
            } else {
                toLarge(e);
                largeInsert(e, key);
            }
        } else {
            largeInsert(e, key);
        }
    }

    @Override
    void merge(Estimator into, Estimator from) {
        int max = Math.max(into.type, from.type);
        if (into.type != max) {
            if (max == MEDIUM) {
                toMedium(into);
            } else {
                toLarge(into);
            }
        }
        if (from.type == SMALL) {
            for (int i = 0; i < from.smallSize; i++) {
                insert(into, from.small[i]);
            }
        } else if (from.type == MEDIUM) {
            for (long x : mediumKeys(from)) {
                insert(into, x);
            }
        } else {
            for (int b = 0; b < into.ranks.length; b++) {
                if (from.ranks[b] > into.ranks[b]) {
                    into.ranks[b] = from.ranks[b];
                }
            }
        }
    }

    @Override
    void add(Estimator state, byte[][] arguments) {
        insert(state, key(arguments[0]) & mask());
    }

    // ---- serialization ----

    @Override
    Estimator read(ByteSource in) {
        int type = in.readByte();
        Estimator e = new Estimator();
        switch (type) {
            case SMALL -> {
                long n = in.readVarUInt();
                if (n < 0 || n > SMALL_MAX) {
                    throw new IllegalArgumentException(
                            "uniqCombined state's small set size "
                                    + Long.toUnsignedString(n)
                                    + " exceeds "
                                    + SMALL_MAX);
                }
                e.smallSize = (int) n;
                for (int i = 0; i < n; i++) {
                    e.small[i] = readKey(in);
                }
            }
            case MEDIUM -> {
                long n = in.readVarUInt();
                if (n < 0 || n > mediumMax) {
                    throw new IllegalArgumentException(
                            "uniqCombined state's hash set size "
                                    + Long.toUnsignedString(n)
                                    + " exceeds "
                                    + mediumMax);
                }
                int degree =
                        n <= 1
                                ? MEDIUM_INITIAL_DEGREE
                                : Math.max(
                                        MEDIUM_INITIAL_DEGREE,
                                        63 - Long.numberOfLeadingZeros(n - 1) + 2);
                allocMedium(e, degree);
                e.type = MEDIUM;
                for (long i = 0; i < n; i++) {
                    mediumInsert(e, readKey(in));
                }
            }
            case LARGE -> {
                e.type = LARGE;
                e.ranks = new byte[1 << K];
                byte[] packed = new byte[((1 << K) * rankWidth + 7) / 8];
                in.readFully(packed, 0, packed.length);
                // the rank counts and zero count that follow are derived from the ranks
                byte[] counts = new byte[4 * (maxRank + 1) + 4];
                in.readFully(counts, 0, counts.length);
                for (int b = 0; b < e.ranks.length; b++) {
                    long bit = (long) b * rankWidth;
                    int v = 0;
                    for (int j = 0; j < rankWidth; j++) {
                        long p = bit + j;
                        v |= ((packed[(int) (p >>> 3)] >>> (p & 7)) & 1) << j;
                    }
                    if (v > maxRank) {
                        throw new IllegalArgumentException(
                                "uniqCombined state's rank "
                                        + v
                                        + " of bucket "
                                        + b
                                        + " exceeds "
                                        + maxRank);
                    }
                    e.ranks[b] = (byte) v;
                }
            }
            default ->
                    throw new IllegalArgumentException(
                            "uniqCombined state's container type " + type + " is not 1, 2 or 3");
        }
        return e;
    }

    @Override
    void write(Estimator e, ByteSink out) {
        out.writeByte(e.type);
        if (e.type == SMALL) {
            out.writeVarUInt(e.smallSize);
            for (int i = 0; i < e.smallSize; i++) {
                writeKey(out, e.small[i]);
            }
        } else if (e.type == MEDIUM) {
            out.writeVarUInt(e.size);
            for (long x : mediumKeys(e)) {
                writeKey(out, x);
            }
        } else {
            byte[] packed = new byte[((1 << K) * rankWidth + 7) / 8];
            for (int b = 0; b < e.ranks.length; b++) {
                long bit = (long) b * rankWidth;
                int v = e.ranks[b];
                for (int j = 0; j < rankWidth; j++) {
                    if (((v >>> j) & 1) != 0) {
                        long p = bit + j;
                        packed[(int) (p >>> 3)] |= (byte) (1 << (p & 7));
                    }
                }
            }
            out.write(packed, 0, packed.length);
            // HyperLogLogCounter is written as its memory: the ranks, then the denominator's
            // count of buckets per rank (UInt32 each), then the number of zero ranks (UInt32)
            int[] perRank = new int[maxRank + 1];
            for (byte r : e.ranks) {
                perRank[r]++;
            }
            for (int c : perRank) {
                writeUInt32(out, c);
            }
            writeUInt32(out, perRank[0]);
        }
    }

    private static void writeUInt32(ByteSink out, int x) {
        for (int i = 0; i < 4; i++) {
            out.writeByte((x >>> (8 * i)) & 0xFF);
        }
    }

    private long readKey(ByteSource in) {
        long x = 0;
        for (int i = 0; i < keyWidth; i++) {
            x |= (long) in.readByte() << (8 * i);
        }
        return x;
    }

    private void writeKey(ByteSink out, long x) {
        for (int i = 0; i < keyWidth; i++) {
            out.writeByte((int) (x >>> (8 * i)) & 0xFF);
        }
    }

    /** The key of a value in its single-value binary form, before truncation to the key width. */
    private long key(byte[] v) {
        switch (keyKind) {
            case UNSIGNED -> {
                return UniqState.intHash64(ArgumentValues.le(v, v.length));
            }
            case SIGNED -> {
                int shift = 64 - 8 * v.length;
                return UniqState.intHash64((ArgumentValues.le(v, v.length) << shift) >> shift);
            }
            case WIDE -> {
                long x = 0;
                for (int off = 0; off < v.length; off += 8) {
                    for (int i = 0; i < 8; i++) {
                        x ^= (v[off + i] & 0xFFL) << (8 * i);
                    }
                }
                return UniqState.intHash64(x);
            }
            case STRING -> {
                int prefix = 0;
                while ((v[prefix] & 0x80) != 0) {
                    prefix++;
                }
                prefix++;
                return CityHash102.cityHash64(v, prefix, v.length - prefix);
            }
            default -> {
                return CityHash102.cityHash64(v, 0, v.length);
            }
        }
    }
}
