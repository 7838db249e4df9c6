package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.compress.CompressedBlockWriter;
import io.github.s3mergetree.engine.io.ByteSource;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Reads a compressed column stream ({@code .bin}) from disk one compressed block at a time,
 * verifying each block's checksum, so memory stays at one compressed and one decompressed block (≤
 * 1 MiB each as ClickHouse writes them) whatever the file size. Merges of large parts read their
 * sources through it.
 */
final class StreamingCompressedSource implements ByteSource, AutoCloseable {
    private static final int HEADER =
            CompressedBlockWriter.CHECKSUM_SIZE + CompressedBlockWriter.HEADER_SIZE;

    private final Path file;
    private final FileChannel channel;
    private final long size;
    private final ByteBuffer header = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
    private byte[] block = new byte[64 * 1024];
    private long filePos;
    private CompressedBlockReader current;

    StreamingCompressedSource(Path file) throws IOException {
        this.file = file;
        this.channel = FileChannel.open(file, StandardOpenOption.READ);
        this.size = channel.size();
    }

    /** Bytes available in the current block, loading the next one if needed; 0 at the end. */
    private int available() {
        if (current != null) {
            int a = current.available();
            if (a > 0) {
                return a;
            }
        }
        if (filePos >= size) {
            return 0;
        }
        loadNextBlock();
        return current.available();
    }

    private void loadNextBlock() {
        try {
            header.clear();
            readAt(header, filePos);
            long compressedSize = header.getInt(17) & 0xFFFFFFFFL;
            long total = CompressedBlockWriter.CHECKSUM_SIZE + compressedSize;
            if (compressedSize < CompressedBlockWriter.HEADER_SIZE
                    || compressedSize > CompressedBlockReader.MAX_COMPRESSED_SIZE
                    || filePos + total > size) {
                throw new CorruptPartException(
                        file.toString(),
                        filePos,
                        "a block of 9.."
                                + CompressedBlockReader.MAX_COMPRESSED_SIZE
                                + " bytes inside the file",
                        "compressed size "
                                + compressedSize
                                + " with "
                                + (size - filePos)
                                + " bytes left");
            }
            if (block.length < total) {
                block = new byte[(int) total];
            }
            readAt(ByteBuffer.wrap(block, 0, (int) total), filePos);
            current =
                    new CompressedBlockReader(
                            block, 0, (int) total, file + " (block at offset " + filePos + ")");
            filePos += total;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
        }
    }

    private void readAt(ByteBuffer buf, long pos) throws IOException {
        while (buf.hasRemaining()) {
            int n = channel.read(buf, pos);
            if (n < 0) {
                throw new EOFException("unexpected end of " + file + " at offset " + pos);
            }
            pos += n;
        }
    }

    @Override
    public int readByte() {
        if (available() == 0) {
            throw new UncheckedIOException(new EOFException("unexpected end of " + file));
        }
        return current.readByte();
    }

    @Override
    public void readFully(byte[] b, int off, int len) {
        while (len > 0) {
            int a = available();
            if (a == 0) {
                throw new UncheckedIOException(
                        new EOFException(
                                "unexpected end of " + file + " (" + len + " bytes missing)"));
            }
            int n = Math.min(a, len);
            current.readFully(b, off, n);
            off += n;
            len -= n;
        }
    }

    @Override
    public long readLongLE() {
        if (available() >= 8) {
            return current.readLongLE();
        }
        return ByteSource.super.readLongLE();
    }

    @Override
    public int readIntLE() {
        if (available() >= 4) {
            return current.readIntLE();
        }
        return ByteSource.super.readIntLE();
    }

    @Override
    public boolean eof() {
        return available() == 0;
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
