package io.github.s3mergetree.engine.sort;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorts rows by a multi-column key fast: every key column that maps to an order-preserving unsigned
 * 64-bit value (integers, dates, times, enums, decimals up to 64 bits, floats, UUIDs as two words)
 * is sorted with a stable LSD radix sort, skipping the byte positions where all values agree; a
 * String/FixedString column contributes its first 8 bytes the same way, and rows whose radix keys
 * tie are then ordered by the full {@link RowComparators} comparison. The result equals {@link
 * StableSort} with the lexicographic comparator of all key columns (ties keep their input order),
 * at a fraction of the cost.
 */
public final class KeySorter {
    private KeySorter() {}

    /**
     * Order-preserving unsigned 64-bit forms of key columns, for comparing rows of different blocks
     * cheaply (a k-way merge): compare {@link #words} lexicographically with {@link
     * Long#compareUnsigned}; when all are equal and {@link #exact} is false, the full comparison
     * decides.
     */
    public record NormalizedKeys(long[][] words, boolean exact) {
        /** Compares row {@code a} of these keys with row {@code b} of {@code other}'s. */
        public int compare(int a, NormalizedKeys other, int b) {
            long[][] w = words;
            long[][] o = other.words;
            for (int k = 0; k < w.length; k++) {
                int c = Long.compareUnsigned(w[k][a], o[k][b]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        }
    }

    /** The normalized keys of all rows of the key columns. */
    public static NormalizedKeys normalize(List<DataType> types, List<Column> columns) {
        int n = columns.isEmpty() ? 0 : columns.get(0).size();
        int[] rows = identity(n);
        List<long[]> words = new ArrayList<>();
        int k = 0;
        for (; k < types.size(); k++) {
            if (!normalize(types.get(k), columns.get(k), rows, words)) {
                break;
            }
        }
        boolean exact = k == types.size();
        if (!exact) {
            prefix(types.get(k), columns.get(k), rows, words);
        }
        return new NormalizedKeys(words.toArray(new long[0][]), exact);
    }

    /**
     * The rows {@code rows} (indexes into the columns) ordered by the key.
     *
     * @return a new array: the row indexes in key order
     */
    public static int[] sort(List<DataType> types, List<Column> columns, int[] rows) {
        int n = rows.length;
        List<long[]> radixKeys = new ArrayList<>();
        boolean exact = true;
        int k = 0;
        for (; k < types.size(); k++) {
            if (!normalize(types.get(k), columns.get(k), rows, radixKeys)) {
                break;
            }
        }
        if (k < types.size()) {
            exact = false;
            prefix(types.get(k), columns.get(k), rows, radixKeys);
        }
        int[] order = identity(n);
        if (!radixKeys.isEmpty() && n > 1) {
            order = radixSort(radixKeys, n);
        }
        int[] out = compose(rows, order);
        if (!exact && n > 1) {
            List<RowComparator> parts = new ArrayList<>();
            for (int c = 0; c < types.size(); c++) {
                parts.add(RowComparators.forColumn(types.get(c), columns.get(c)));
            }
            RowComparator cmp = RowComparators.lexicographic(parts);
            fixTies(out, order, radixKeys, cmp);
        }
        return out;
    }

    /** {@code rows[order[i]]} for every i. */
    private static int[] compose(int[] rows, int[] order) {
        int[] out = new int[order.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = rows[order[i]];
        }
        return out;
    }

    private static int[] identity(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        return a;
    }

    /** Sorts each run of rows whose radix keys are all equal with the full comparator. */
    private static void fixTies(int[] out, int[] order, List<long[]> keys, RowComparator cmp) {
        int n = out.length;
        int start = 0;
        for (int i = 1; i <= n; i++) {
            boolean same = i < n;
            if (same) {
                for (long[] key : keys) {
                    if (key[order[i]] != key[order[start]]) {
                        same = false;
                        break;
                    }
                }
            }
            if (!same) {
                if (i - start > 1) {
                    int len = i - start;
                    int[] sub = new int[len];
                    System.arraycopy(out, start, sub, 0, len);
                    int[] p =
                            StableSort.sortedPermutation(
                                    len, (a, b) -> cmp.compare(sub[a], sub[b]));
                    for (int j = 0; j < len; j++) {
                        out[start + j] = sub[p[j]];
                    }
                }
                start = i;
            }
        }
    }

    /**
     * Stable LSD radix sort of row positions by keys (most significant key first). Each loop is a
     * method of its own: small methods compile once, where one method holding every loop got
     * several large on-stack-replacement compilations.
     */
    static int[] radixSort(List<long[]> keys, int n) {
        List<long[]> words = pack(keys, n);
        int[] perm = identity(n);
        int[] tmp = new int[n];
        long[] cur = new long[n];
        long[] next = new long[n];
        int[] counts = new int[(1 << DIGIT_BITS) + 1];
        for (int c = words.size() - 1; c >= 0; c--) {
            long[] key = words.get(c);
            long diff = differingBits(key, n);
            if (diff == 0) {
                continue;
            }
            gather(key, perm, cur, n);
            int bits = 64 - Long.numberOfLeadingZeros(diff);
            for (int shift = 0; shift < bits; shift += DIGIT_BITS) {
                if (((diff >>> shift) & DIGIT_MASK) == 0) {
                    continue;
                }
                countingPass(cur, perm, next, tmp, counts, shift, n);
                int[] t = perm;
                perm = tmp;
                tmp = t;
                long[] u = cur;
                cur = next;
                next = u;
            }
        }
        return perm;
    }

    /** The bits in which some {@code key[i]} differs from {@code key[0]}. */
    private static long differingBits(long[] key, int n) {
        long diff = 0;
        long first = key[0];
        for (int i = 1; i < n; i++) {
            diff |= key[i] ^ first;
        }
        return diff;
    }

    private static void gather(long[] key, int[] perm, long[] out, int n) {
        for (int i = 0; i < n; i++) {
            out[i] = key[perm[i]];
        }
    }

    /** One stable counting-sort pass on the digit at {@code shift}: (cur, perm) → (next, tmp). */
    private static void countingPass(
            long[] cur, int[] perm, long[] next, int[] tmp, int[] counts, int shift, int n) {
        java.util.Arrays.fill(counts, 0);
        for (int i = 0; i < n; i++) {
            counts[(int) ((cur[i] >>> shift) & DIGIT_MASK) + 1]++;
        }
        for (int b = 0; b < (1 << DIGIT_BITS); b++) {
            counts[b + 1] += counts[b];
        }
        for (int i = 0; i < n; i++) {
            int pos = counts[(int) ((cur[i] >>> shift) & DIGIT_MASK)]++;
            tmp[pos] = perm[i];
            next[pos] = cur[i];
        }
    }

    /**
     * Bits per radix pass. 256 buckets keep the scatter cache-friendly; 11-bit digits (fewer
     * passes) measured 30 % slower on 2M rows here.
     */
    private static final int DIGIT_BITS = 8;

    private static final long DIGIT_MASK = (1L << DIGIT_BITS) - 1;

    /**
     * Packs consecutive keys into as few 64-bit words as their value ranges allow, keeping the
     * lexicographic order: each key contributes {@code value - min} in just the bits its range
     * needs (e.g. an Enum, a Date and a DateTime64 of one year fit one word), so the radix sort
     * makes fewer passes.
     */
    private static List<long[]> pack(List<long[]> keys, int n) {
        List<long[]> words = new ArrayList<>();
        long[] word = null;
        int used = 0;
        for (long[] key : keys) {
            long min = unsignedMin(key, n);
            long max = unsignedMax(key, n);
            int width = 64 - Long.numberOfLeadingZeros(max - min);
            if (word == null || used + width > 64) {
                word = new long[n];
                words.add(word);
                used = 0;
            }
            if (width > 0) {
                append(word, key, min, width, n);
            }
            used += width;
        }
        return words;
    }

    private static long unsignedMin(long[] key, int n) {
        long min = -1L;
        for (int i = 0; i < n; i++) {
            if (Long.compareUnsigned(key[i], min) < 0) {
                min = key[i];
            }
        }
        return min;
    }

    private static long unsignedMax(long[] key, int n) {
        long max = 0;
        for (int i = 0; i < n; i++) {
            if (Long.compareUnsigned(key[i], max) > 0) {
                max = key[i];
            }
        }
        return max;
    }

    /** Shifts {@code word} left by {@code width} bits and puts {@code key - min} below. */
    private static void append(long[] word, long[] key, long min, int width, int n) {
        for (int i = 0; i < n; i++) {
            word[i] = (word[i] << width) | (key[i] - min);
        }
    }

    /**
     * Appends the order-preserving unsigned 64-bit form(s) of column {@code c} for {@code rows};
     * false if the type has none (Nullable, strings, wide integers, arrays, ...).
     */
    private static boolean normalize(DataType type, Column c, int[] rows, List<long[]> out) {
        if (type instanceof LowCardinalityType lc) {
            return normalize(lc.nested(), c, rows, out);
        }
        int n = rows.length;
        boolean signed = !type.isUnsigned();
        long flip = Long.MIN_VALUE;
        switch (type.physicalType()) {
            case BYTE -> {
                byte[] d = ((ByteColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = signed ? d[rows[i]] ^ flip : d[rows[i]] & 0xFFL;
                }
                out.add(k);
            }
            case SHORT -> {
                short[] d = ((ShortColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = signed ? d[rows[i]] ^ flip : d[rows[i]] & 0xFFFFL;
                }
                out.add(k);
            }
            case INT -> {
                int[] d = ((IntColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = signed ? d[rows[i]] ^ flip : d[rows[i]] & 0xFFFFFFFFL;
                }
                out.add(k);
            }
            case LONG -> {
                long[] d = ((LongColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = signed ? d[rows[i]] ^ flip : d[rows[i]];
                }
                out.add(k);
            }
            case FLOAT -> {
                float[] d = ((FloatColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = floatKey(d[rows[i]]);
                }
                out.add(k);
            }
            case DOUBLE -> {
                double[] d = ((DoubleColumn) c).data();
                long[] k = new long[n];
                for (int i = 0; i < n; i++) {
                    k[i] = floatKey(d[rows[i]]);
                }
                out.add(k);
            }
            case FIXED_BYTES -> {
                if (type.kind() != TypeKind.UUID) {
                    return false;
                }
                // ClickHouse orders UUIDs by the low half (stored second), then the high half
                byte[] d = ((FixedBytesColumn) c).data();
                long[] low = new long[n];
                long[] high = new long[n];
                for (int i = 0; i < n; i++) {
                    high[i] = le64(d, rows[i] * 16);
                    low[i] = le64(d, rows[i] * 16 + 8);
                }
                out.add(low);
                out.add(high);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    /** A float's order-preserving bits: -0 equals 0, NaN after everything (ClickHouse's order). */
    private static long floatKey(double v) {
        if (Double.isNaN(v)) {
            return -1L;
        }
        if (v == 0) {
            v = 0.0;
        }
        long bits = Double.doubleToRawLongBits(v);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    /** The first 8 bytes (big-endian, zero-padded) of String/FixedString values; else nothing. */
    private static void prefix(DataType type, Column c, int[] rows, List<long[]> out) {
        if (type instanceof LowCardinalityType lc) {
            type = lc.nested();
        }
        int n = rows.length;
        if (c instanceof StringColumn s) {
            byte[] b = s.bytes();
            long[] k = new long[n];
            for (int i = 0; i < n; i++) {
                int r = rows[i];
                k[i] = bigEndianPrefix(b, s.start(r), s.end(r));
            }
            out.add(k);
        } else if (type.kind() == TypeKind.FIXED_STRING && c instanceof FixedBytesColumn f) {
            int w = f.width();
            byte[] b = f.data();
            long[] k = new long[n];
            for (int i = 0; i < n; i++) {
                k[i] = bigEndianPrefix(b, rows[i] * w, rows[i] * w + w);
            }
            out.add(k);
        }
    }

    private static long bigEndianPrefix(byte[] b, int from, int to) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (from + i < to ? b[from + i] & 0xFF : 0);
        }
        return v;
    }

    private static long le64(byte[] d, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (d[p + i] & 0xFF);
        }
        return v;
    }
}
