package io.github.s3mergetree.source.s3.format.compression;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Counts the bytes read through it and remembers a failure of the stream below, so that a
 * decompressor's error can be told apart from a download error and placed at a compressed offset.
 */
final class CountingInputStream extends FilterInputStream {
    private long count;
    private IOException failure;

    CountingInputStream(InputStream in) {
        super(in);
    }

    long count() {
        return count;
    }

    /** The exception the stream below threw, or null. */
    IOException failure() {
        return failure;
    }

    @Override
    public int read() throws IOException {
        try {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }

    @Override
    public long skip(long n) throws IOException {
        try {
            long s = super.skip(n);
            count += s;
            return s;
        } catch (IOException e) {
            failure = e;
            throw e;
        }
    }
}
