package io.github.s3mergetree.objectstore;

import java.io.IOException;

/**
 * Positional reads of one object ({@link ObjectStoreClient#openRandomAccess}): ranged GETs on S3,
 * positional reads of an open file locally. Readers that stream a large object in pieces (a merge
 * reading its source parts' column files) hold only the bytes they asked for.
 */
public interface RandomAccessInput extends AutoCloseable {
    /** The object's size in bytes. */
    long size();

    /** Reads exactly {@code len} bytes at {@code position}, failing at the end of the object. */
    void readFully(long position, byte[] buffer, int offset, int len) throws IOException;

    @Override
    void close() throws IOException;
}
