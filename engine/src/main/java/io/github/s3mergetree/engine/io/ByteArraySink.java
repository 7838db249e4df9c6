package io.github.s3mergetree.engine.io;

import java.util.Arrays;

/** A growable in-memory {@link ByteSink}. */
public final class ByteArraySink implements ByteSink {
    private byte[] buf;
    private int size;

    public ByteArraySink() {
        this(256);
    }

    public ByteArraySink(int capacity) {
        buf = new byte[Math.max(16, capacity)];
    }

    private void ensure(int extra) {
        if (size + extra > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(size + extra, buf.length * 2));
        }
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(len);
        System.arraycopy(b, off, buf, size, len);
        size += len;
    }

    @Override
    public void writeByte(int v) {
        ensure(1);
        buf[size++] = (byte) v;
    }

    public int size() {
        return size;
    }

    /** The backing buffer; the first {@link #size()} bytes are the content. */
    public byte[] buffer() {
        return buf;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(buf, size);
    }

    public void reset() {
        size = 0;
    }
}
