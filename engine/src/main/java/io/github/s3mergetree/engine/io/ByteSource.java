package io.github.s3mergetree.engine.io;

import java.io.EOFException;
import java.io.UncheckedIOException;

/** A source of little-endian binary data: decompressed column streams, RowBinary input. */
public interface ByteSource {
    /** Reads one byte (0..255); throws {@link UncheckedIOException} wrapping EOF at the end. */
    int readByte();

    void readFully(byte[] b, int off, int len);

    /** Whether no byte is left. */
    boolean eof();

    default int readShortLE() {
        return readByte() | (readByte() << 8);
    }

    default int readIntLE() {
        return readShortLE() | (readShortLE() << 16);
    }

    default long readLongLE() {
        return (readIntLE() & 0xFFFFFFFFL) | ((long) readIntLE() << 32);
    }

    default long readVarUInt() {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new UncheckedIOException(new EOFException("VarUInt longer than 10 bytes"));
    }
}
