package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;
import java.util.List;

/** A column of 64-bit values ((U)Int64, DateTime64, Decimal64), held in a long[]. */
public final class LongColumn implements Column {
    private long[] data;
    private int size;

    public LongColumn(int capacity) {
        data = new long[Math.max(capacity, 4)];
    }

    /** The backing array; only the first {@link #size()} values are meaningful. */
    public long[] data() {
        return data;
    }

    public long get(int row) {
        return data[row];
    }

    public void set(int row, long value) {
        data[row] = value;
    }

    public void add(long value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, Math.max(8, data.length * 2));
        }
        data[size++] = value;
    }

    /** Makes room for {@code extra} more values and returns the backing array. */
    public long[] reserve(int extra) {
        if (size + extra > data.length) {
            data = Arrays.copyOf(data, Math.max(size + extra, data.length * 2));
        }
        return data;
    }

    /** Sets the row count after values were written directly into {@link #reserve(int)}. */
    public void setSize(int newSize) {
        if (newSize < 0 || newSize > data.length) {
            throw new IllegalArgumentException(
                    "size " + newSize + " outside [0, " + data.length + "]");
        }
        size = newSize;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.LONG;
    }

    @Override
    public LongColumn newEmpty(int capacity) {
        return new LongColumn(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        LongColumn s = (LongColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from, data, size, n);
        size += n;
    }

    @Override
    public void appendFrom(Column src, int row) {
        add(((LongColumn) src).data[row]);
    }

    @Override
    public void appendDefault() {
        add((long) 0);
    }

    @Override
    public LongColumn permute(int[] perm, int length) {
        LongColumn out = new LongColumn(length);
        long[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = data[perm[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public LongColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        long[][] src = new long[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            src[k] = ((LongColumn) chunks.get(k)).data;
        }
        LongColumn out = new LongColumn(length);
        long[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = src[chunkOf[i]][rowOf[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        return (long) size * 8;
    }

    @Override
    public void clear() {
        size = 0;
    }

    @Override
    public void truncate(int rows) {
        if (rows < 0 || rows > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " rows to " + rows);
        }
        size = rows;
    }
}
