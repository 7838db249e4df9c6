package io.github.s3mergetree.engine.io;

/**
 * A destination for little-endian binary data: compressed column streams, the primary index,
 * RowBinary files. Implementations buffer; callers write values one at a time or in bulk.
 */
public interface ByteSink {
    void write(byte[] b, int off, int len);

    void writeByte(int v);

    default void writeShortLE(int v) {
        writeByte(v);
        writeByte(v >>> 8);
    }

    default void writeIntLE(int v) {
        writeShortLE(v);
        writeShortLE(v >>> 16);
    }

    default void writeLongLE(long v) {
        writeIntLE((int) v);
        writeIntLE((int) (v >>> 32));
    }

    /** Unsigned LEB128, as ClickHouse's {@code writeVarUInt}. */
    default void writeVarUInt(long v) {
        while ((v & ~0x7FL) != 0) {
            writeByte((int) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        writeByte((int) v);
    }
}
