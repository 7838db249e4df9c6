package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.compress.CompressedBlockWriter;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.io.CorruptDataException;
import io.github.s3mergetree.objectstore.RandomAccessInput;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Reads a compressed column stream ({@code .bin}) of a part one compressed block at a time,
 * verifying each block's checksum, so memory stays at one read window, one compressed and one
 * decompressed block (≤ 1 MiB each as ClickHouse writes them) whatever the file size. Merges of
 * large parts read their sources through it. The file is read by positional reads of {@code
 * readAhead} bytes (a ranged GET each on S3; 0 reads exactly each header and block).
 */
final class StreamingCompressedSource implements ByteSource, AutoCloseable {
    private static final int HEADER =
            CompressedBlockWriter.CHECKSUM_SIZE + CompressedBlockWriter.HEADER_SIZE;

    private final String file;
    private final RandomAccessInput in;
    private final long size;
    private final int readAhead;
    private byte[] window = new byte[0];
    private long windowStart;
    private int windowLength;
    private long filePos;
    private CompressedBlockReader current;

    StreamingCompressedSource(String file, RandomAccessInput in, int readAhead) {
        this.file = file;
        this.in = in;
        this.size = in.size();
        this.readAhead = readAhead;
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

    /** Makes {@code [pos, pos + len)} available in the window; returns its offset there. */
    private int ensure(long pos, int len) throws IOException {
        if (pos >= windowStart && pos + len <= windowStart + windowLength) {
            return (int) (pos - windowStart);
        }
        int want = (int) Math.min(size - pos, Math.max(len, readAhead));
        if (want < len) {
            throw new EOFException("unexpected end of " + file + " at offset " + pos);
        }
        if (window.length < want) {
            window = new byte[want];
        }
        in.readFully(pos, window, 0, want);
        windowStart = pos;
        windowLength = want;
        return 0;
    }

    private void loadNextBlock() {
        try {
            if (size - filePos < HEADER) {
                throw new CorruptPartException(
                        file,
                        filePos,
                        "a block header of " + HEADER + " bytes",
                        (size - filePos) + " bytes left");
            }
            int h = ensure(filePos, HEADER);
            long compressedSize =
                    (window[h + 17] & 0xFFL)
                            | (window[h + 18] & 0xFFL) << 8
                            | (window[h + 19] & 0xFFL) << 16
                            | (window[h + 20] & 0xFFL) << 24;
            long total = CompressedBlockWriter.CHECKSUM_SIZE + compressedSize;
            if (compressedSize < CompressedBlockWriter.HEADER_SIZE
                    || compressedSize > CompressedBlockReader.MAX_COMPRESSED_SIZE
                    || filePos + total > size) {
                throw new CorruptPartException(
                        file,
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
            int off = ensure(filePos, (int) total);
            try {
                current =
                        new CompressedBlockReader(
                                window,
                                off,
                                (int) total,
                                file + " (block at offset " + filePos + ")");
            } catch (CorruptDataException e) {
                throw CorruptPartException.of(e);
            }
            filePos += total;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + file, e);
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
        in.close();
    }
}
