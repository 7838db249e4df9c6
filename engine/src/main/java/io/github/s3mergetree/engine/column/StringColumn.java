package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A column of byte strings as one byte buffer plus end offsets: row {@code i} is {@code
 * bytes[offsets[i-1] .. offsets[i])} (with {@code offsets[-1] = 0}), like ClickHouse's {@code
 * ColumnString} without the terminating zero bytes.
 */
public final class StringColumn implements Column {
    private int[] offsets;
    private byte[] bytes;
    private int size;

    public StringColumn(int capacity) {
        this(capacity, capacity * 16);
    }

    public StringColumn(int capacity, int byteCapacity) {
        offsets = new int[Math.max(capacity, 4)];
        bytes = new byte[Math.max(byteCapacity, 16)];
    }

    public int[] offsets() {
        return offsets;
    }

    public byte[] bytes() {
        return bytes;
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

    /** Total bytes of all values. */
    public int totalBytes() {
        return size == 0 ? 0 : offsets[size - 1];
    }

    public String getString(int row) {
        int s = start(row);
        return new String(bytes, s, offsets[row] - s, StandardCharsets.UTF_8);
    }

    public void add(byte[] src, int off, int len) {
        int end = totalBytes();
        ensureBytes(end + len);
        System.arraycopy(src, off, bytes, end, len);
        addOffset(end + len);
    }

    public void add(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        add(b, 0, b.length);
    }

    /**
     * Makes room for {@code len} more bytes and returns the buffer; write them at {@link
     * #totalBytes()} and then call {@link #commitRow(int)}.
     */
    public byte[] reserveBytes(int len) {
        ensureBytes(totalBytes() + len);
        return bytes;
    }

    /** Ends a row of {@code len} bytes written into {@link #reserveBytes(int)}'s buffer. */
    public void commitRow(int len) {
        addOffset(totalBytes() + len);
    }

    /**
     * Bulk appends: makes room for {@code extra} more rows and returns the end-offset array. Write
     * the bytes into {@link #reserveBytes(int)}'s buffer from {@link #totalBytes()} on, each row's
     * end offset at {@code offsets[size() + i]}, then call {@link #setSize(int)}.
     */
    public int[] reserveRows(int extra) {
        if (size + extra > offsets.length) {
            offsets = Arrays.copyOf(offsets, Math.max(size + extra, offsets.length * 2));
        }
        return offsets;
    }

    /** Sets the row count after end offsets were written directly into {@link #reserveRows}. */
    public void setSize(int newSize) {
        if (newSize < 0 || newSize > offsets.length) {
            throw new IllegalArgumentException(
                    "size " + newSize + " outside [0, " + offsets.length + "]");
        }
        if (newSize > 0 && offsets[newSize - 1] > bytes.length) {
            throw new IllegalStateException(
                    "row "
                            + (newSize - 1)
                            + " ends at byte "
                            + offsets[newSize - 1]
                            + ", past the buffer of "
                            + bytes.length);
        }
        size = newSize;
    }

    private void addOffset(int end) {
        if (size == offsets.length) {
            offsets = Arrays.copyOf(offsets, offsets.length * 2);
        }
        offsets[size++] = end;
    }

    private void ensureBytes(long need) {
        if (need > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException(
                    "String column exceeds 2 GiB (" + need + " bytes): use smaller insert blocks");
        }
        if (need > bytes.length) {
            bytes =
                    Arrays.copyOf(
                            bytes,
                            (int)
                                    Math.min(
                                            Integer.MAX_VALUE - 16,
                                            Math.max(need, (long) bytes.length * 2)));
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.STRING;
    }

    /** An empty column sized for {@code capacity} values as long, on average, as this one's. */
    @Override
    public StringColumn newEmpty(int capacity) {
        return sizedLike(size, totalBytes(), capacity);
    }

    /**
     * An empty column sized for {@code capacity} values as long, on average, as {@code rows} values
     * of {@code bytes} bytes in all (at least 16 bytes per value, at most 1 GiB).
     */
    static StringColumn sizedLike(int rows, long bytes, int capacity) {
        long average = rows == 0 ? 16 : Math.max(16, bytes / rows + 1);
        return new StringColumn(capacity, (int) Math.min(1 << 30, average * capacity));
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        if (src instanceof GatheredStringColumn g) {
            g.forEachBatch(
                    from,
                    to,
                    (bytesOf, start, len, n) -> {
                        for (int j = 0; j < n; j++) {
                            add(bytesOf[j], start[j], len[j]);
                        }
                    });
            return;
        }
        StringColumn s = (StringColumn) src;
        int srcStart = s.start(from);
        int srcEnd = to == from ? srcStart : s.offsets[to - 1];
        int base = totalBytes();
        ensureBytes(base + (srcEnd - srcStart));
        System.arraycopy(s.bytes, srcStart, bytes, base, srcEnd - srcStart);
        int n = to - from;
        if (size + n > offsets.length) {
            offsets = Arrays.copyOf(offsets, Math.max(size + n, offsets.length * 2));
        }
        int delta = base - srcStart;
        for (int i = 0; i < n; i++) {
            offsets[size + i] = s.offsets[from + i] + delta;
        }
        size += n;
    }

    @Override
    public void appendDefault() {
        addOffset(totalBytes());
    }

    @Override
    public StringColumn permute(int[] perm, int length) {
        long total = 0;
        for (int i = 0; i < length; i++) {
            total += length(perm[i]);
        }
        StringColumn out = new StringColumn(length, (int) Math.min(total, Integer.MAX_VALUE - 16));
        byte[] ob = out.bytes;
        int[] oo = out.offsets;
        int pos = 0;
        for (int i = 0; i < length; i++) {
            int r = perm[i];
            int s = r == 0 ? 0 : offsets[r - 1];
            int len = offsets[r] - s;
            System.arraycopy(bytes, s, ob, pos, len);
            pos += len;
            oo[i] = pos;
        }
        out.size = length;
        return out;
    }

    @Override
    public StringColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        int[][] offs = new int[chunks.size()][];
        byte[][] src = new byte[chunks.size()][];
        for (int k = 0; k < src.length; k++) {
            StringColumn c = (StringColumn) chunks.get(k);
            offs[k] = c.offsets;
            src[k] = c.bytes;
        }
        long total = 0;
        for (int i = 0; i < length; i++) {
            int[] o = offs[chunkOf[i]];
            int r = rowOf[i];
            total += o[r] - (r == 0 ? 0 : o[r - 1]);
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalStateException(
                    "String column exceeds 2 GiB (" + total + " bytes): use smaller insert blocks");
        }
        StringColumn out = new StringColumn(length, (int) total);
        byte[] ob = out.bytes;
        int[] oo = out.offsets;
        int pos = 0;
        for (int i = 0; i < length; i++) {
            int[] o = offs[chunkOf[i]];
            int r = rowOf[i];
            int s = r == 0 ? 0 : o[r - 1];
            int len = o[r] - s;
            System.arraycopy(src[chunkOf[i]], s, ob, pos, len);
            pos += len;
            oo[i] = pos;
        }
        out.size = length;
        return out;
    }

    @Override
    public long byteSize() {
        // ClickHouse counts chars (with a terminating zero per row) plus 8-byte offsets.
        return (long) totalBytes() + 9L * size;
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
