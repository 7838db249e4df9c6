package io.github.s3mergetree.engine.io;

import java.io.EOFException;
import java.io.UncheckedIOException;

/** A {@link ByteSource} over a byte array range. */
public final class ByteArraySource implements ByteSource {
    private final byte[] buf;
    private final int end;
    private int pos;
    private final String what;

    /**
     * @param what a description used in error messages (a file name)
     */
    public ByteArraySource(byte[] buf, int off, int len, String what) {
        this.buf = buf;
        this.pos = off;
        this.end = off + len;
        this.what = what;
    }

    public ByteArraySource(byte[] buf, String what) {
        this(buf, 0, buf.length, what);
    }

    public int position() {
        return pos;
    }

    private EOFException eofAt(int need) {
        return new EOFException(
                "unexpected end of " + what + " at offset " + pos + " (needed " + need + " bytes)");
    }

    @Override
    public int readByte() {
        if (pos >= end) {
            throw new UncheckedIOException(eofAt(1));
        }
        return buf[pos++] & 0xFF;
    }

    @Override
    public void readFully(byte[] b, int off, int len) {
        if (end - pos < len) {
            throw new UncheckedIOException(eofAt(len));
        }
        System.arraycopy(buf, pos, b, off, len);
        pos += len;
    }

    @Override
    public boolean eof() {
        return pos >= end;
    }
}
