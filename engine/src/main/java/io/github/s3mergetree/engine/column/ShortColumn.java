package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;
import java.util.List;

/** A column of 16-bit values ((U)Int16, Date, Enum16), held in a short[]. */
public final class ShortColumn implements Column {
    private short[] data;
    private int size;

    public ShortColumn(int capacity) {
        data = new short[Math.max(capacity, 4)];
    }

    /** The backing array; only the first {@link #size()} values are meaningful. */
    public short[] data() {
        return data;
    }

    public short get(int row) {
        return data[row];
    }

    public void set(int row, short value) {
        data[row] = value;
    }

    public void add(short value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, Math.max(8, data.length * 2));
        }
        data[size++] = value;
    }

    /** Makes room for {@code extra} more values and returns the backing array. */
    public short[] reserve(int extra) {
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
        return PhysicalType.SHORT;
    }

    @Override
    public ShortColumn newEmpty(int capacity) {
        return new ShortColumn(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        ShortColumn s = (ShortColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from, data, size, n);
        size += n;
    }

    @Override
    public void appendFrom(Column src, int row) {
        add(((ShortColumn) src).data[row]);
    }

    @Override
    public void appendDefault() {
        add((short) 0);
    }

    @Override
    public ShortColumn permute(int[] perm, int length) {
        ShortColumn out = new ShortColumn(length);
        short[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = data[perm[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public ShortColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        short[][] src = new short[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            src[k] = ((ShortColumn) chunks.get(k)).data;
        }
        ShortColumn out = new ShortColumn(length);
        short[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = src[chunkOf[i]][rowOf[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        return (long) size * 2;
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
