package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;
import java.util.List;

/** A column of 32-bit values ((U)Int32, Date32, DateTime, IPv4, Decimal32), held in a int[]. */
public final class IntColumn implements Column {
    private int[] data;
    private int size;

    public IntColumn(int capacity) {
        data = new int[Math.max(capacity, 4)];
    }

    /** The backing array; only the first {@link #size()} values are meaningful. */
    public int[] data() {
        return data;
    }

    public int get(int row) {
        return data[row];
    }

    public void set(int row, int value) {
        data[row] = value;
    }

    public void add(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, Math.max(8, data.length * 2));
        }
        data[size++] = value;
    }

    /** Makes room for {@code extra} more values and returns the backing array. */
    public int[] reserve(int extra) {
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
        return PhysicalType.INT;
    }

    @Override
    public IntColumn newEmpty(int capacity) {
        return new IntColumn(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        IntColumn s = (IntColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from, data, size, n);
        size += n;
    }

    @Override
    public void appendFrom(Column src, int row) {
        add(((IntColumn) src).data[row]);
    }

    @Override
    public void appendDefault() {
        add((int) 0);
    }

    @Override
    public IntColumn permute(int[] perm, int length) {
        IntColumn out = new IntColumn(length);
        int[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = data[perm[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public IntColumn gather(List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        int[][] src = new int[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            src[k] = ((IntColumn) chunks.get(k)).data;
        }
        IntColumn out = new IntColumn(length);
        int[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = src[chunkOf[i]][rowOf[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        return (long) size * 4;
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
