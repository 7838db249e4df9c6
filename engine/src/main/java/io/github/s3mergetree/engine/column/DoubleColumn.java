package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;
import java.util.List;

/** A column of Float64 values, held in a double[]. */
public final class DoubleColumn implements Column {
    private double[] data;
    private int size;

    public DoubleColumn(int capacity) {
        data = new double[Math.max(capacity, 4)];
    }

    /** The backing array; only the first {@link #size()} values are meaningful. */
    public double[] data() {
        return data;
    }

    public double get(int row) {
        return data[row];
    }

    public void set(int row, double value) {
        data[row] = value;
    }

    public void add(double value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, Math.max(8, data.length * 2));
        }
        data[size++] = value;
    }

    /** Makes room for {@code extra} more values and returns the backing array. */
    public double[] reserve(int extra) {
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
        return PhysicalType.DOUBLE;
    }

    @Override
    public DoubleColumn newEmpty(int capacity) {
        return new DoubleColumn(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        DoubleColumn s = (DoubleColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from, data, size, n);
        size += n;
    }

    @Override
    public void appendFrom(Column src, int row) {
        add(((DoubleColumn) src).data[row]);
    }

    @Override
    public void appendDefault() {
        add((double) 0);
    }

    @Override
    public DoubleColumn permute(int[] perm, int length) {
        DoubleColumn out = new DoubleColumn(length);
        double[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = data[perm[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public DoubleColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        double[][] src = new double[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            src[k] = ((DoubleColumn) chunks.get(k)).data;
        }
        DoubleColumn out = new DoubleColumn(length);
        double[] d = out.data;
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
