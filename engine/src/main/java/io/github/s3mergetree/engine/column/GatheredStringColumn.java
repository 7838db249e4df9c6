package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.List;

/**
 * A String column in sorted order that is never copied: row {@code i} is row {@code rowOf[i]} of
 * chunk {@code chunkOf[i]} of the insert block ({@link BlockChunks}). The part writer serializes it
 * straight from the chunks, so the values of a sorted insert block are copied once (into the
 * compression buffer) instead of twice (into a sorted copy, then into the buffer). Read-only:
 * {@link #newEmpty} gives an ordinary {@link StringColumn}, and {@link #materialize} makes one of
 * this column for code that needs contiguous bytes.
 */
public final class GatheredStringColumn implements Column {
    private final byte[][] bytes;
    private final int[][] offsets;
    private final int[] chunkOf;
    private final int[] rowOf;
    private final int size;
    private final long totalBytes;

    /** Rows {@code rowOf[i]} of {@code chunks.get(chunkOf[i])}, {@code i < length}. */
    public GatheredStringColumn(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        this(chunks, chunkOf, rowOf, length, false);
    }

    /**
     * Like {@link #GatheredStringColumn(List, int[], int[], int)}; {@code allRowsOnce} promises
     * that the rows are every row of every chunk exactly once (a permutation), so the total size is
     * the chunks' sizes instead of a pass over the rows in their (random) sorted order.
     */
    public GatheredStringColumn(
            List<? extends Column> chunks,
            int[] chunkOf,
            int[] rowOf,
            int length,
            boolean allRowsOnce) {
        this.bytes = new byte[chunks.size()][];
        this.offsets = new int[chunks.size()][];
        long chunkBytes = 0;
        for (int k = 0; k < chunks.size(); k++) {
            StringColumn c = (StringColumn) chunks.get(k);
            bytes[k] = c.bytes();
            offsets[k] = c.offsets();
            chunkBytes += c.totalBytes();
        }
        this.chunkOf = chunkOf;
        this.rowOf = rowOf;
        this.size = length;
        this.totalBytes = allRowsOnce ? chunkBytes : sumOfLengths(length);
    }

    private long sumOfLengths(int length) {
        long total = 0;
        for (int i = 0; i < length; i++) {
            total += length(i);
        }
        return total;
    }

    /** Rows located per batch by {@link #forEachBatch}. */
    public static final int LOCATE_BATCH = 512;

    /** Receives a batch of located rows: {@code n} rows, row j at {@code src[j][start[j]..]}. */
    @FunctionalInterface
    public interface LocatedRows {
        void accept(byte[][] src, int[] start, int[] len, int n);
    }

    /**
     * Rows {@code [from, to)} in order, {@link #LOCATE_BATCH} at a time: each batch is {@link
     * #locate located} first, then handed to {@code rows} (for serializers that copy the values).
     */
    public void forEachBatch(int from, int to, LocatedRows rows) {
        int batch = Math.min(LOCATE_BATCH, to - from);
        byte[][] src = new byte[batch][];
        int[] start = new int[batch];
        int[] len = new int[batch];
        for (int i = from; i < to; i += batch) {
            int n = Math.min(batch, to - i);
            locate(i, i + n, src, start, len);
            rows.accept(src, start, len, n);
        }
    }

    /**
     * Where rows {@code [from, to)} are: for each, its byte array, start and length into {@code
     * src}, {@code start} and {@code len} from index 0 (each at least {@code to - from} long).
     * Serializing a batch located first and copied second lets the (random, cache-missing) loads of
     * the offsets overlap instead of each one waiting for the previous row's copy.
     */
    public void locate(int from, int to, byte[][] src, int[] start, int[] len) {
        for (int i = from, j = 0; i < to; i++, j++) {
            int k = chunkOf[i];
            int[] o = offsets[k];
            int r = rowOf[i];
            int s = r == 0 ? 0 : o[r - 1];
            src[j] = bytes[k];
            start[j] = s;
            len[j] = o[r] - s;
        }
    }

    /** The length in bytes of row {@code row}'s value. */
    public int length(int row) {
        int[] o = offsets[chunkOf[row]];
        int r = rowOf[row];
        return o[r] - (r == 0 ? 0 : o[r - 1]);
    }

    /** Total bytes of all values. */
    public long totalBytes() {
        return totalBytes;
    }

    /** The same rows as an ordinary (contiguous) column. */
    public StringColumn materialize() {
        if (totalBytes > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException(
                    "String column exceeds 2 GiB (" + totalBytes + " bytes): use smaller blocks");
        }
        StringColumn out = new StringColumn(Math.max(size, 1), (int) totalBytes);
        out.appendRange(this, 0, size);
        return out;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.STRING;
    }

    @Override
    public StringColumn newEmpty(int capacity) {
        return StringColumn.sizedLike(size, totalBytes, capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        throw new UnsupportedOperationException("a gathered String column is read-only");
    }

    @Override
    public void appendDefault() {
        throw new UnsupportedOperationException("a gathered String column is read-only");
    }

    @Override
    public StringColumn permute(int[] perm, int length) {
        return materialize().permute(perm, length);
    }

    @Override
    public long byteSize() {
        // as StringColumn counts it: chars with a terminating zero per row, plus 8-byte offsets
        return totalBytes + 9L * size;
    }

    @Override
    public void clear() {
        throw new UnsupportedOperationException("a gathered String column is read-only");
    }
}
