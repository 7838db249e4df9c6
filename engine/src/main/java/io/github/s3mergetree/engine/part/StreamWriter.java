package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.compress.CompressedBlockWriter;
import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectOutput;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One column stream of a part being written: its compressed {@code .bin} file and its marks. Marks
 * are taken before every granule ({@link #mark}), following ClickHouse's rule of starting a new
 * compressed block first when the pending one holds at least {@code min_compress_block_size} bytes.
 */
final class StreamWriter implements ByteSink, AutoCloseable {
    private final String name;
    private final ObjectOutput file;
    private final CompressedBlockWriter data;
    private final ByteArraySink marks = new ByteArraySink(1024);
    private final int minCompressBlockSize;
    private final boolean adaptive;

    StreamWriter(
            TableStore store,
            String dir,
            String name,
            CompressionCodec codec,
            int minCompressBlockSize,
            int maxCompressBlockSize,
            boolean adaptive,
            boolean durable)
            throws IOException {
        this(
                store,
                dir,
                name,
                ".bin",
                codec,
                minCompressBlockSize,
                maxCompressBlockSize,
                adaptive,
                durable);
    }

    /** A stream whose data file is {@code name + dataExtension} ({@code .idx} of skip indexes). */
    StreamWriter(
            TableStore store,
            String dir,
            String name,
            String dataExtension,
            CompressionCodec codec,
            int minCompressBlockSize,
            int maxCompressBlockSize,
            boolean adaptive,
            boolean durable)
            throws IOException {
        this.name = name;
        this.file = store.create(PartStorage.fileKey(dir, name + dataExtension), durable);
        this.data = new CompressedBlockWriter(file, codec, maxCompressBlockSize);
        this.minCompressBlockSize = minCompressBlockSize;
        this.adaptive = adaptive;
    }

    String name() {
        return name;
    }

    /** Records the mark of the next granule ({@code rows} rows; 0 for the final mark). */
    void mark(long rows) {
        try {
            if (data.pendingBytes() >= minCompressBlockSize) {
                data.flushBlock();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + name + ".bin", e);
        }
        marks.writeLongLE(data.compressedOffset());
        marks.writeLongLE(data.uncompressedOffsetInBlock());
        if (adaptive) {
            marks.writeLongLE(rows);
        }
    }

    ByteArraySink marks() {
        return marks;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        try {
            data.write(b, off, len);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + name + ".bin", e);
        }
    }

    @Override
    public void writeByte(int v) {
        try {
            data.writeByte(v);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + name + ".bin", e);
        }
    }

    @Override
    public void writeLongLE(long v) {
        try {
            data.writeLongLE(v);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + name + ".bin", e);
        }
    }

    @Override
    public void writeVarUInt(long v) {
        try {
            data.writeVarUInt(v);
        } catch (IOException e) {
            throw new UncheckedIOException("writing " + name + ".bin", e);
        }
    }

    /** Flushes the last block and closes the file; the checksum accessors are valid afterwards. */
    @Override
    public void close() throws IOException {
        try {
            data.close();
        } finally {
            file.close();
        }
    }

    /** Discards the {@code .bin} upload (an abandoned part). */
    void abort() {
        try {
            file.abort();
        } catch (IOException | RuntimeException ignored) {
            // the part's directory is removed by its owner
        }
    }

    Checksums.Entry checksum() {
        return new Checksums.Entry(
                data.fileSize(),
                data.fileHash(),
                true,
                data.uncompressedSize(),
                data.uncompressedHash());
    }
}
