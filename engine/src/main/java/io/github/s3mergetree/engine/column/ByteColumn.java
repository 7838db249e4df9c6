package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;
import java.util.List;

/** A column of 8-bit values ((U)Int8, Bool, Enum8), held in a byte[]. */
public final class ByteColumn implements Column {
    private byte[] data;
    private int size;

    public ByteColumn(int capacity) {
        data = new byte[Math.max(capacity, 4)];
    }

    /** The backing array; only the first {@link #size()} values are meaningful. */
    public byte[] data() {
        return data;
    }

    public byte get(int row) {
        return data[row];
    }

    public void set(int row, byte value) {
        data[row] = value;
    }

    public void add(byte value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, Math.max(8, data.length * 2));
        }
        data[size++] = value;
    }

    /** Makes room for {@code extra} more values and returns the backing array. */
    public byte[] reserve(int extra) {
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
        return PhysicalType.BYTE;
    }

    @Override
    public ByteColumn newEmpty(int capacity) {
        return new ByteColumn(capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        ByteColumn s = (ByteColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from, data, size, n);
        size += n;
    }

    @Override
    public void appendFrom(Column src, int row) {
        add(((ByteColumn) src).data[row]);
    }

    @Override
    public void appendDefault() {
        add((byte) 0);
    }

    @Override
    public ByteColumn permute(int[] perm, int length) {
        ByteColumn out = new ByteColumn(length);
        byte[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = data[perm[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public ByteColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        byte[][] src = new byte[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            src[k] = ((ByteColumn) chunks.get(k)).data;
        }
        ByteColumn out = new ByteColumn(length);
        byte[] d = out.data;
        for (int i = 0; i < length; i++) {
            d[i] = src[chunkOf[i]][rowOf[i]];
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        return (long) size * 1;
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
