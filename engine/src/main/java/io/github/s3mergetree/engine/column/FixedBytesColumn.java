package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;

/**
 * A column of fixed-width byte strings, {@code width} bytes per row, back to back: (U)Int128/256
 * and Decimal128/256 (little-endian two's complement), UUID (ClickHouse's on-disk byte order), IPv6
 * (network order), FixedString(N).
 */
public final class FixedBytesColumn implements Column {
    private final int width;
    private byte[] data;
    private int size;

    public FixedBytesColumn(int width, int capacity) {
        if (width <= 0) {
            throw new IllegalArgumentException("width must be positive, got " + width);
        }
        this.width = width;
        this.data = new byte[Math.max(capacity, 1) * width];
    }

    public int width() {
        return width;
    }

    /** The backing array; row {@code i} is at {@code [i * width, (i + 1) * width)}. */
    public byte[] data() {
        return data;
    }

    /** Appends {@code width} bytes from {@code src[off..]}. */
    public void add(byte[] src, int off) {
        reserve(1);
        System.arraycopy(src, off, data, size * width, width);
        size++;
    }

    /** Appends {@code len ≤ width} bytes from {@code src[off..]}, zero-padded to width. */
    public void addPadded(byte[] src, int off, int len) {
        if (len > width) {
            throw new IllegalArgumentException(
                    "value of " + len + " bytes does not fit a width of " + width);
        }
        reserve(1);
        int base = size * width;
        System.arraycopy(src, off, data, base, len);
        Arrays.fill(data, base + len, base + width, (byte) 0);
        size++;
    }

    private void reserve(int extra) {
        long need = (long) (size + extra) * width;
        if (need > data.length) {
            data = Arrays.copyOf(data, (int) Math.max(need, (long) data.length * 2));
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.FIXED_BYTES;
    }

    @Override
    public FixedBytesColumn newEmpty(int capacity) {
        return new FixedBytesColumn(width, capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        FixedBytesColumn s = (FixedBytesColumn) src;
        int n = to - from;
        reserve(n);
        System.arraycopy(s.data, from * width, data, size * width, n * width);
        size += n;
    }

    @Override
    public void appendDefault() {
        reserve(1);
        Arrays.fill(data, size * width, (size + 1) * width, (byte) 0);
        size++;
    }

    @Override
    public FixedBytesColumn permute(int[] perm, int length) {
        FixedBytesColumn out = new FixedBytesColumn(width, length);
        for (int i = 0; i < length; i++) {
            System.arraycopy(data, perm[i] * width, out.data, i * width, width);
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        return (long) size * width;
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
