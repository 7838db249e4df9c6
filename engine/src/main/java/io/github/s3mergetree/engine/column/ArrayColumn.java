package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.Arrays;

/**
 * An Array (or Map) column: end offsets into a nested element column. Row {@code i} holds elements
 * {@code [offsets[i-1], offsets[i])}.
 */
public final class ArrayColumn implements Column {
    private int[] offsets;
    private final Column elements;
    private int size;

    public ArrayColumn(Column elements, int capacity) {
        this.elements = elements;
        this.offsets = new int[Math.max(capacity, 4)];
    }

    public Column elements() {
        return elements;
    }

    public int[] offsets() {
        return offsets;
    }

    public int start(int row) {
        return row == 0 ? 0 : offsets[row - 1];
    }

    public int end(int row) {
        return offsets[row];
    }

    public int length(int row) {
        return offsets[row] - start(row);
    }

    /** Ends a row whose elements were appended to {@link #elements()} since the previous row. */
    public void endRow() {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[size++] = elements.size();
    }

    /** Appends rows whose end offsets (into {@link #elements()}) are {@code ends}. */
    public void appendOffsets(int[] ends) {
        if (size + ends.length > offsets.length) {
            offsets = Arrays.copyOf(offsets, Math.max(size + ends.length, offsets.length * 2));
        }
        System.arraycopy(ends, 0, offsets, size, ends.length);
        size += ends.length;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.ARRAY;
    }

    @Override
    public ArrayColumn newEmpty(int capacity) {
        return new ArrayColumn(elements.newEmpty(capacity), capacity);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        ArrayColumn s = (ArrayColumn) src;
        int srcStart = s.start(from);
        int srcEnd = to == from ? srcStart : s.offsets[to - 1];
        int base = elements.size();
        elements.appendRange(s.elements, srcStart, srcEnd);
        int n = to - from;
        if (size + n > offsets.length) {
            offsets = Arrays.copyOf(offsets, Math.max(size + n, offsets.length * 2));
        }
        for (int i = 0; i < n; i++) {
            offsets[size + i] = s.offsets[from + i] - srcStart + base;
        }
        size += n;
    }

    @Override
    public void appendDefault() {
        endRow();
    }

    @Override
    public ArrayColumn permute(int[] perm, int length) {
        ArrayColumn out = new ArrayColumn(elements.newEmpty(elements.size()), length);
        for (int i = 0; i < length; i++) {
            out.appendRange(this, perm[i], perm[i] + 1);
        }
        return out;
    }

    @Override
    public long byteSize() {
        return elements.byteSize() + 8L * size;
    }

    @Override
    public void clear() {
        size = 0;
        elements.clear();
    }

    @Override
    public void truncate(int rows) {
        if (rows < 0 || rows > size) {
            throw new IllegalArgumentException("cannot truncate " + size + " rows to " + rows);
        }
        elements.truncate(rows == 0 ? 0 : offsets[rows - 1]);
        size = rows;
    }
}
