package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.hash.CityHash102;
import io.github.s3mergetree.engine.hash.Hash128;
import io.github.s3mergetree.engine.io.CorruptDataException;
import io.github.s3mergetree.engine.io.LittleEndian;
import java.util.Objects;

/**
 * Reads a ClickHouse compressed stream (spec §2) held in a {@code byte[]} and exposes its
 * decompressed content as one continuous stream, with seeks to marks.
 *
 * <p>Every block is validated before its data is used: header sizes (compressed size 9..1 GiB and
 * inside the file, uncompressed size non-zero), the CityHash128 checksum of header + payload, a
 * supported method byte, and that the payload decodes to exactly the announced size. Any violation
 * throws {@link CorruptDataException} naming the file, the block's offset in the file and the
 * expected versus actual value; so does reading past the end of the stream.
 *
 * <p>A mark {@code (offsetInCompressedFile, offsetInDecompressedBlock)} is followed with {@link
 * #seek}. Offsets are relative to the start of the stream given to the constructor, which for a
 * whole file is the file offset; offsets in error messages are indexes into the array.
 *
 * <p>Not thread-safe. Blocks with method NONE are read in place; other blocks are decompressed into
 * one reused buffer. After a {@link CorruptDataException} from a damaged block the position stays
 * in front of that block: further reads fail the same way, a {@link #seek} elsewhere works.
 */
public final class CompressedBlockReader {

    /** Largest {@code compressed_size} a reader accepts ({@code DBMS_MAX_COMPRESSED_SIZE}). */
    public static final int MAX_COMPRESSED_SIZE = 1 << 30;

    private static final int HEADER =
            CompressedBlockWriter.CHECKSUM_SIZE + CompressedBlockWriter.HEADER_SIZE;

    private final byte[] file;
    private final int start;
    private final int end;
    private final String fileName;
    private final long[] hash = new long[2];

    private byte[] decompressBuf = new byte[0];

    /** Array holding the current block's decompressed bytes (the file itself for NONE blocks). */
    private byte[] cur = decompressBuf;

    private int curStart;
    private int curPos;
    private int curEnd;

    /** Array index of the current block, or -1 if none is loaded. */
    private int curBlock = -1;

    /** Array index of the next block to load. */
    private int next;

    /**
     * Reads the whole array as one compressed stream.
     *
     * @param file the compressed file content (not copied; must not change while in use)
     * @param fileName name used in error messages
     */
    public CompressedBlockReader(byte[] file, String fileName) {
        this(file, 0, file.length, fileName);
    }

    /**
     * Reads {@code data[off, off+len)} as one compressed stream (e.g. the body of {@code
     * checksums.txt} after its first line).
     *
     * @throws IndexOutOfBoundsException if the range is not inside {@code data}
     */
    public CompressedBlockReader(byte[] data, int off, int len, String fileName) {
        Objects.checkFromIndexSize(off, len, data.length);
        this.file = data;
        this.start = off;
        this.end = off + len;
        this.fileName = Objects.requireNonNull(fileName, "fileName");
        this.next = off;
    }

    /**
     * Decompresses and validates a whole compressed file into one array; used to recompute {@code
     * uncompressed_size/hash} of {@code checksums.txt}.
     *
     * @throws CorruptDataException if any block is invalid
     * @throws IllegalArgumentException if the decompressed content exceeds the maximum array size
     */
    public static byte[] decompressAll(byte[] file, String fileNameForErrors) {
        return decompressAll(file, 0, file.length, fileNameForErrors);
    }

    /**
     * Decompresses and validates the compressed stream {@code data[off, off+len)} into one array.
     *
     * @throws CorruptDataException if any block is invalid
     * @throws IllegalArgumentException if the decompressed content exceeds the maximum array size
     * @throws IndexOutOfBoundsException if the range is not inside {@code data}
     */
    public static byte[] decompressAll(byte[] data, int off, int len, String fileNameForErrors) {
        CompressedBlockReader r = new CompressedBlockReader(data, off, len, fileNameForErrors);
        // First pass: validate headers and sum the sizes, so the result is allocated once.
        long total = 0;
        for (int p = off; p < r.end; ) {
            total += r.checkHeader(p);
            p += CompressedBlockWriter.CHECKSUM_SIZE + (int) r.u32(p + 17);
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "decompressed content of "
                            + fileNameForErrors
                            + " is "
                            + total
                            + " bytes, more than a byte[] holds");
        }
        byte[] out = new byte[(int) total];
        int o = 0;
        for (int p = off; p < r.end; ) {
            int uncompressed = r.checkHeader(p);
            r.verifyAndDecompress(p, out, o, uncompressed);
            o += uncompressed;
            p += CompressedBlockWriter.CHECKSUM_SIZE + (int) r.u32(p + 17);
        }
        return out;
    }

    /**
     * Positions the stream at a mark: the block starting at {@code offsetInCompressedFile}
     * (relative to the stream start), {@code offsetInDecompressedBlock} bytes into its decompressed
     * data. A mark at the very end of a block, or {@code (streamLength, 0)}, is valid and leaves
     * the stream at that position (which is {@link #eof()} if nothing follows).
     *
     * @throws CorruptDataException if there is no valid block at that offset or the block is
     *     shorter than {@code offsetInDecompressedBlock}
     * @throws IllegalArgumentException if an offset is negative
     */
    public void seek(long offsetInCompressedFile, int offsetInDecompressedBlock) {
        if (offsetInCompressedFile < 0 || offsetInDecompressedBlock < 0) {
            throw new IllegalArgumentException(
                    "mark offsets must be >= 0, got ("
                            + offsetInCompressedFile
                            + ", "
                            + offsetInDecompressedBlock
                            + ")");
        }
        long abs = start + offsetInCompressedFile;
        if (abs == end && offsetInDecompressedBlock == 0) {
            cur = decompressBuf;
            curBlock = -1;
            curStart = curPos = curEnd = 0;
            next = end;
            return;
        }
        if (abs >= end) {
            throw new CorruptDataException(
                    fileName,
                    abs,
                    "mark points past the end of the stream",
                    "compressed offset < " + (end - start),
                    String.valueOf(offsetInCompressedFile));
        }
        if (curBlock != (int) abs) {
            loadBlock((int) abs);
        }
        int size = curEnd - curStart;
        if (offsetInDecompressedBlock > size) {
            throw new CorruptDataException(
                    fileName,
                    abs,
                    "mark points past the end of its block",
                    "offset in decompressed block <= " + size,
                    String.valueOf(offsetInDecompressedBlock));
        }
        curPos = curStart + offsetInDecompressedBlock;
    }

    /**
     * The number of decompressed bytes readable without crossing into the next block; loads (and
     * verifies) the next block when the current one is used up. 0 only at the end of the stream.
     */
    public int available() {
        if (curPos == curEnd && next < end) {
            loadBlock(next);
        }
        return curEnd - curPos;
    }

    /**
     * Returns true when every byte of the stream has been read. Does not load or validate the next
     * block.
     */
    public boolean eof() {
        return curPos == curEnd && next >= end;
    }

    /** Returns the offset (relative to the stream start) of the block holding the position. */
    public long currentBlockOffset() {
        return curBlock < 0 ? next - start : curBlock - start;
    }

    /** Returns the offset of the position inside its block's decompressed data. */
    public int offsetInBlock() {
        return curPos - curStart;
    }

    /**
     * Reads exactly {@code len} bytes into {@code dst[off, off+len)}, crossing blocks as needed.
     *
     * @throws CorruptDataException if the stream ends first or a block is invalid
     * @throws IndexOutOfBoundsException if the range is not inside {@code dst}
     */
    public void readFully(byte[] dst, int off, int len) {
        Objects.checkFromIndexSize(off, len, dst.length);
        while (len > 0) {
            if (curPos == curEnd) {
                nextBlock(len);
            }
            int n = Math.min(len, curEnd - curPos);
            System.arraycopy(cur, curPos, dst, off, n);
            curPos += n;
            off += n;
            len -= n;
        }
    }

    /**
     * Reads one byte as an unsigned value 0..255.
     *
     * @throws CorruptDataException if the stream ends or a block is invalid
     */
    public int readByte() {
        if (curPos == curEnd) {
            nextBlock(1);
        }
        return cur[curPos++] & 0xff;
    }

    /**
     * Reads a little-endian 16-bit value.
     *
     * @throws CorruptDataException if the stream ends first or a block is invalid
     */
    public short readShortLE() {
        if (curEnd - curPos >= 2) {
            short v = LittleEndian.getShort(cur, curPos);
            curPos += 2;
            return v;
        }
        return (short) readBytesLE(2);
    }

    /**
     * Reads a little-endian 32-bit value.
     *
     * @throws CorruptDataException if the stream ends first or a block is invalid
     */
    public int readIntLE() {
        if (curEnd - curPos >= 4) {
            int v = LittleEndian.getInt(cur, curPos);
            curPos += 4;
            return v;
        }
        return (int) readBytesLE(4);
    }

    /**
     * Reads a little-endian 64-bit value.
     *
     * @throws CorruptDataException if the stream ends first or a block is invalid
     */
    public long readLongLE() {
        if (curEnd - curPos >= 8) {
            long v = LittleEndian.getLong(cur, curPos);
            curPos += 8;
            return v;
        }
        return readBytesLE(8);
    }

    /**
     * Reads a ClickHouse {@code VarUInt} (unsigned LEB128, at most 10 bytes) as an unsigned 64-bit
     * value.
     *
     * @throws CorruptDataException if the stream ends first, the value has more than 10 bytes, or a
     *     block is invalid
     */
    public long readVarUInt() {
        long v = 0;
        for (int i = 0; i < 10; i++) {
            int b = readByte();
            v |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new CorruptDataException(
                fileName,
                currentBlockOffset() + start,
                "VarUInt too long",
                "at most 10 bytes",
                "more than 10 bytes ending at decompressed offset " + offsetInBlock());
    }

    private long readBytesLE(int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v |= (long) readByte() << (8 * i);
        }
        return v;
    }

    /** Moves to the next block; {@code wanted} is only for the end-of-stream message. */
    private void nextBlock(int wanted) {
        if (next >= end) {
            throw new CorruptDataException(
                    fileName,
                    end,
                    "unexpected end of compressed stream",
                    wanted + " more decompressed byte(s)",
                    "end of stream");
        }
        loadBlock(next);
    }

    private void loadBlock(int p) {
        // Until the block is valid, the position is "before the block at p": reads retry (and
        // fail again), eof() is false.
        cur = decompressBuf;
        curStart = curPos = curEnd = 0;
        curBlock = -1;
        next = p;
        int uncompressed = checkHeader(p);
        int compressedSize = (int) u32(p + 17);
        if (file[p + 16] == CompressionCodecs.METHOD_NONE) {
            verifyChecksum(p, compressedSize);
            if (compressedSize - CompressedBlockWriter.HEADER_SIZE != uncompressed) {
                throw new CorruptDataException(
                        fileName,
                        p,
                        "NONE block payload size",
                        String.valueOf(uncompressed),
                        String.valueOf(compressedSize - CompressedBlockWriter.HEADER_SIZE));
            }
            cur = file;
            curStart = p + HEADER;
        } else {
            if (decompressBuf.length < uncompressed) {
                long grown = Math.max(uncompressed, 2L * decompressBuf.length);
                decompressBuf = new byte[(int) Math.min(grown, Integer.MAX_VALUE - 8)];
            }
            verifyAndDecompress(p, decompressBuf, 0, uncompressed);
            cur = decompressBuf;
            curStart = 0;
        }
        curPos = curStart;
        curEnd = curStart + uncompressed;
        curBlock = p;
        next = p + CompressedBlockWriter.CHECKSUM_SIZE + compressedSize;
    }

    /**
     * Validates the header of the block at array index {@code p} and returns its uncompressed size.
     */
    private int checkHeader(int p) {
        if (end - p < HEADER) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "truncated block header",
                    HEADER + " bytes (checksum + header)",
                    (end - p) + " bytes before end of stream");
        }
        long compressedSize = u32(p + 17);
        long uncompressedSize = u32(p + 21);
        if (uncompressedSize == 0 || compressedSize == 0) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "block header is corrupt (empty block)",
                    "non-zero compressed and decompressed sizes",
                    "compressed size "
                            + compressedSize
                            + ", decompressed size "
                            + uncompressedSize);
        }
        if (compressedSize < CompressedBlockWriter.HEADER_SIZE
                || compressedSize > MAX_COMPRESSED_SIZE) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "block header is corrupt (compressed size)",
                    "compressed size in "
                            + CompressedBlockWriter.HEADER_SIZE
                            + ".."
                            + MAX_COMPRESSED_SIZE,
                    String.valueOf(compressedSize));
        }
        if (uncompressedSize > Integer.MAX_VALUE - 8) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "block header is corrupt (decompressed size)",
                    "decompressed size <= " + (Integer.MAX_VALUE - 8),
                    String.valueOf(uncompressedSize));
        }
        long available = (long) end - p - CompressedBlockWriter.CHECKSUM_SIZE;
        if (compressedSize > available) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "truncated block",
                    compressedSize + " bytes after the checksum",
                    available + " bytes before end of stream");
        }
        return (int) uncompressedSize;
    }

    /** Verifies the checksum of the block at {@code p} (header already checked). */
    private void verifyChecksum(int p, int compressedSize) {
        CityHash102.cityHash128(
                file, p + CompressedBlockWriter.CHECKSUM_SIZE, compressedSize, hash);
        long low = LittleEndian.getLong(file, p);
        long high = LittleEndian.getLong(file, p + 8);
        if (low != hash[0] || high != hash[1]) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "block checksum mismatch (size of compressed block " + compressedSize + ")",
                    new Hash128(low, high).toHex(),
                    new Hash128(hash[0], hash[1]).toHex());
        }
    }

    /** Verifies the block at {@code p} and decompresses it into {@code dst[dstOff]}. */
    private void verifyAndDecompress(int p, byte[] dst, int dstOff, int uncompressed) {
        int compressedSize = (int) u32(p + 17);
        verifyChecksum(p, compressedSize);
        byte method = file[p + 16];
        CompressionCodec codec;
        try {
            codec = CompressionCodecs.forMethodByte(method);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "unsupported compression method",
                    CompressionCodecs.SUPPORTED_METHODS,
                    CompressionCodecs.methodName(method),
                    e);
        }
        try {
            codec.decompress(
                    file,
                    p + HEADER,
                    compressedSize - CompressedBlockWriter.HEADER_SIZE,
                    dst,
                    dstOff,
                    uncompressed);
        } catch (IllegalArgumentException e) {
            throw new CorruptDataException(
                    fileName,
                    p,
                    "cannot decompress block with method " + CompressionCodecs.methodName(method),
                    uncompressed + " decompressed bytes",
                    e.getMessage(),
                    e);
        }
    }

    private long u32(int i) {
        return LittleEndian.getInt(file, i) & 0xffffffffL;
    }
}
