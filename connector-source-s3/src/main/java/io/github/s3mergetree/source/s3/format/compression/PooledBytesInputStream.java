package io.github.s3mergetree.source.s3.format.compression;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

/**
 * The first {@code length} bytes of a (direct) buffer of {@link NativeGzip}'s pool as a stream;
 * closing it gives the buffer back (once), after which it cannot be read.
 */
final class PooledBytesInputStream extends InputStream {
    private ByteBuffer buffer;
    private final int length;
    private int pos;

    PooledBytesInputStream(ByteBuffer buffer, int length) {
        this.buffer = buffer;
        this.length = length;
    }

    private ByteBuffer open() throws IOException {
        ByteBuffer b = buffer;
        if (b == null) {
            throw new IOException("stream closed");
        }
        return b;
    }

    @Override
    public int read() throws IOException {
        ByteBuffer b = open();
        return pos < length ? b.get(pos++) & 0xFF : -1;
    }

    @Override
    public int read(byte[] dst, int off, int len) throws IOException {
        ByteBuffer b = open();
        if (len == 0) {
            return 0;
        }
        if (pos >= length) {
            return -1;
        }
        int n = Math.min(len, length - pos);
        b.get(pos, dst, off, n);
        pos += n;
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        open();
        long s = Math.max(0, Math.min(n, length - pos));
        pos += (int) s;
        return s;
    }

    @Override
    public int available() throws IOException {
        open();
        return length - pos;
    }

    @Override
    public void close() {
        ByteBuffer b = buffer;
        buffer = null;
        NativeGzip.give(b);
    }
}
