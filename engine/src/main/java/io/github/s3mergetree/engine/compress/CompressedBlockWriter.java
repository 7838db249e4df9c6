package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.io.LittleEndian;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Objects;

/**
 * Writes one ClickHouse compressed <i>stream</i> (the content of a {@code .bin}, compressed marks
 * or {@code primary.cidx} file) to an {@link OutputStream}, block by block (spec §2).
 *
 * <p>Uncompressed bytes accumulate in a buffer of {@code maxCompressBlockSize} bytes (default
 * {@value #DEFAULT_MAX_COMPRESS_BLOCK_SIZE}). {@link #flushBlock()} emits the pending bytes as one
 * block: the 16-byte CityHash128 checksum ({@code LE(low)||LE(high)}) of the 9 header bytes plus
 * payload, then the method byte, {@code u32 compressed_size} (= 9 + payload length), {@code u32
 * uncompressed_size}, and the payload. A block is never empty. When the buffer becomes full during
 * a write, the block is emitted at once, so a value may be split across two blocks (valid: readers
 * see one continuous stream) and a mark taken after a write that filled the buffer points to offset
 * 0 of the next block rather than to the end of the previous one.
 *
 * <p>Marks: {@link #compressedOffset()} (bytes of the file written so far = start of the next
 * block) and {@link #uncompressedOffsetInBlock()} (pending bytes) give the mark of the current
 * position. The caller decides granule-level block boundaries (e.g. ClickHouse's rule of flushing
 * before a mark once {@code min_compress_block_size} bytes are pending) by calling {@link
 * #flushBlock()}.
 *
 * <p>Checksums: the writer hashes the file bytes and the uncompressed bytes with {@link
 * HashingOutput}, giving the {@code size/hash} and {@code uncompressed size/hash} that {@code
 * checksums.txt} records for this file, without re-reading it.
 *
 * <p>Speed: no allocation per value or per block. The pending buffer comes from, and at {@link
 * #close()} goes back to, the thread's {@link WriterBuffers}, and every block is compressed into
 * the thread's one compressed-block array, so a thread writing part after part reuses the same
 * arrays. Not thread-safe (one writer per stream). {@link #close()} does not close the underlying
 * stream.
 */
public final class CompressedBlockWriter implements Closeable {

    /** ClickHouse's default {@code max_compress_block_size}. */
    public static final int DEFAULT_MAX_COMPRESS_BLOCK_SIZE = 1 << 20;

    /** Largest accepted {@code maxCompressBlockSize} (ClickHouse limits blocks to 1 GiB). */
    public static final int MAX_BLOCK_SIZE_LIMIT = 1 << 30;

    /** Size of the per-block checksum. */
    public static final int CHECKSUM_SIZE = 16;

    /** Size of the header after the checksum: method byte + two u32 sizes. */
    public static final int HEADER_SIZE = 9;

    /** The buffer a stream starts with; it doubles up to the block size as data arrives. */
    private static final int INITIAL_BUFFER = 64 * 1024;

    private static final byte[] NO_BYTES = new byte[0];

    private final OutputStream out;
    private final CompressionCodec codec;
    private byte[] buf;
    private final int limit;

    private final HashingOutput fileHash = new HashingOutput();
    private final HashingOutput uncompressedHash = new HashingOutput();
    private final long[] checksum = new long[2];

    private int pos;
    private long compressedOffset;
    private boolean closed;

    /**
     * Creates a writer with the default block size of 1 MiB.
     *
     * @throws NullPointerException if {@code out} or {@code codec} is null
     */
    public CompressedBlockWriter(OutputStream out, CompressionCodec codec) {
        this(out, codec, DEFAULT_MAX_COMPRESS_BLOCK_SIZE);
    }

    /**
     * Creates a writer.
     *
     * @param out where the compressed file bytes go (not closed by {@link #close()})
     * @param codec the codec for every block
     * @param maxCompressBlockSize uncompressed bytes per block at most, 1..2^30
     * @throws IllegalArgumentException if {@code maxCompressBlockSize} is out of range
     * @throws NullPointerException if {@code out} or {@code codec} is null
     */
    public CompressedBlockWriter(
            OutputStream out, CompressionCodec codec, int maxCompressBlockSize) {
        this.out = Objects.requireNonNull(out, "out");
        this.codec = Objects.requireNonNull(codec, "codec");
        if (maxCompressBlockSize < 1 || maxCompressBlockSize > MAX_BLOCK_SIZE_LIMIT) {
            throw new IllegalArgumentException(
                    "maxCompressBlockSize must be in 1.."
                            + MAX_BLOCK_SIZE_LIMIT
                            + ", got "
                            + maxCompressBlockSize);
        }
        this.limit = maxCompressBlockSize;
        // the buffer grows on demand up to the block size: a small part's streams stay small
        this.buf =
                WriterBuffers.local()
                        .takePending(
                                Math.min(maxCompressBlockSize, INITIAL_BUFFER),
                                maxCompressBlockSize);
        long blockCapacity =
                (long) CHECKSUM_SIZE
                        + HEADER_SIZE
                        + codec.maxCompressedLength(maxCompressBlockSize);
        if (blockCapacity > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "maxCompressBlockSize "
                            + maxCompressBlockSize
                            + " is too large for codec "
                            + codec.clickHouseName());
        }
    }

    /** Returns the codec used for every block. */
    public CompressionCodec codec() {
        return codec;
    }

    /** Returns the block size limit in uncompressed bytes. */
    public int maxCompressBlockSize() {
        return limit;
    }

    /**
     * Writes {@code b[off, off+len)}, emitting a block whenever the buffer becomes full.
     *
     * @throws IOException from the underlying stream
     * @throws IndexOutOfBoundsException if the range is not inside {@code b}
     * @throws IllegalStateException if the writer is closed
     */
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        while (len > 0) {
            if (pos == buf.length) {
                grow();
            }
            int n = Math.min(len, buf.length - pos);
            System.arraycopy(b, off, buf, pos, n);
            pos += n;
            off += n;
            len -= n;
            if (pos == limit) {
                emitBlock();
            }
        }
    }

    /**
     * Writes the low 8 bits of {@code v}.
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void writeByte(int v) throws IOException {
        ensureOpen();
        if (pos == buf.length) {
            grow();
        }
        buf[pos++] = (byte) v;
        if (pos == limit) {
            emitBlock();
        }
    }

    /**
     * Writes the low 16 bits of {@code v} little-endian.
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void writeShortLE(int v) throws IOException {
        if (buf.length - pos > 2) {
            ensureOpen();
            LittleEndian.putShort(buf, pos, (short) v);
            pos += 2;
        } else {
            writeBytesLE(v, 2);
        }
    }

    /**
     * Writes {@code v} as 4 little-endian bytes.
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void writeIntLE(int v) throws IOException {
        if (buf.length - pos > 4) {
            ensureOpen();
            LittleEndian.putInt(buf, pos, v);
            pos += 4;
        } else {
            writeBytesLE(v, 4);
        }
    }

    /**
     * Writes {@code v} as 8 little-endian bytes.
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void writeLongLE(long v) throws IOException {
        if (buf.length - pos > 8) {
            ensureOpen();
            LittleEndian.putLong(buf, pos, v);
            pos += 8;
        } else {
            writeBytesLE(v, 8);
        }
    }

    /**
     * Writes {@code v}, read as an unsigned 64-bit number, as ClickHouse {@code VarUInt} (unsigned
     * LEB128: 7 bits per byte, least significant group first, 1 to 10 bytes).
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void writeVarUInt(long v) throws IOException {
        if (buf.length - pos > 10) {
            ensureOpen();
            while ((v & ~0x7FL) != 0) {
                buf[pos++] = (byte) (v | 0x80);
                v >>>= 7;
            }
            buf[pos++] = (byte) v;
        } else {
            while ((v & ~0x7FL) != 0) {
                writeByte((int) (v | 0x80));
                v >>>= 7;
            }
            writeByte((int) v);
        }
    }

    /**
     * Emits the pending bytes as one block; does nothing if none are pending (blocks are never
     * empty). After it, {@link #uncompressedOffsetInBlock()} is 0 and {@link #compressedOffset()}
     * is the start of the next block.
     *
     * @throws IOException from the underlying stream
     * @throws IllegalStateException if the writer is closed
     */
    public void flushBlock() throws IOException {
        ensureOpen();
        if (pos > 0) {
            emitBlock();
        }
    }

    /** Returns the number of bytes of the file written so far: the start of the next block. */
    public long compressedOffset() {
        return compressedOffset;
    }

    /** Returns the number of pending uncompressed bytes: the offset in the current block. */
    public int uncompressedOffsetInBlock() {
        return pos;
    }

    /** Returns the number of pending (not yet emitted) uncompressed bytes. */
    public int pendingBytes() {
        return pos;
    }

    /**
     * Emits the pending bytes, if any, and flushes (but does not close) the underlying stream.
     * Idempotent; after it only the accessors may be used.
     *
     * @throws IOException from the underlying stream
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        if (pos > 0) {
            emitBlock();
        }
        closed = true;
        out.flush();
        byte[] done = buf;
        buf = NO_BYTES;
        WriterBuffers.local().givePending(done);
    }

    /** Returns the file size (bytes of all emitted blocks); final after {@link #close()}. */
    public long fileSize() {
        return compressedOffset;
    }

    /**
     * Returns the HashingWriteBuffer hash of the emitted file bytes ({@code checksums.txt} {@code
     * hash}); complete after {@link #close()}.
     */
    public Hash128 fileHash() {
        return fileHash.finish();
    }

    /**
     * Returns the total number of uncompressed bytes of the emitted blocks ({@code uncompressed
     * size}); complete after {@link #close()}.
     */
    public long uncompressedSize() {
        return uncompressedHash.count();
    }

    /**
     * Returns the HashingWriteBuffer hash of the uncompressed bytes of the emitted blocks ({@code
     * uncompressed hash}); complete after {@link #close()}.
     */
    public Hash128 uncompressedHash() {
        return uncompressedHash.finish();
    }

    /** Slow path of the fixed-width writes: byte by byte, emitting blocks when full. */
    private void writeBytesLE(long v, int n) throws IOException {
        for (int i = 0; i < n; i++) {
            writeByte((int) (v >>> (8 * i)));
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("CompressedBlockWriter is closed");
        }
    }

    private void grow() {
        byte[] smaller = buf;
        buf = Arrays.copyOf(smaller, (int) Math.min(limit, 2L * smaller.length));
        WriterBuffers.local().givePending(smaller);
    }

    private void emitBlock() throws IOException {
        int need = CHECKSUM_SIZE + HEADER_SIZE + codec.maxCompressedLength(pos);
        WriterBuffers buffers = WriterBuffers.local();
        byte[] blockBuf = buffers.takeCompressed(need);
        int payload = codec.compress(buf, 0, pos, blockBuf, CHECKSUM_SIZE + HEADER_SIZE);
        int compressedSize = HEADER_SIZE + payload;
        blockBuf[CHECKSUM_SIZE] = codec.methodByte();
        LittleEndian.putInt(blockBuf, CHECKSUM_SIZE + 1, compressedSize);
        LittleEndian.putInt(blockBuf, CHECKSUM_SIZE + 5, pos);
        CityHash102.cityHash128(blockBuf, CHECKSUM_SIZE, compressedSize, checksum);
        LittleEndian.putLong(blockBuf, 0, checksum[0]);
        LittleEndian.putLong(blockBuf, 8, checksum[1]);
        int total = CHECKSUM_SIZE + compressedSize;
        out.write(blockBuf, 0, total);
        fileHash.update(blockBuf, 0, total);
        uncompressedHash.update(buf, 0, pos);
        buffers.giveCompressed(blockBuf);
        compressedOffset += total;
        pos = 0;
    }
}
