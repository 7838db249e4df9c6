package io.github.s3mergetree.engine.compress;

import io.github.s3mergetree.engine.types.DataType;

/**
 * One ClickHouse block codec: turns the uncompressed bytes of a block into the <i>payload</i> that
 * follows the 9-byte block header, and back (spec §2).
 *
 * <p>Why an interface: the block framing (checksum, method byte, sizes) is the same for every codec
 * and lives in {@link CompressedBlockWriter} / {@link CompressedBlockReader}; a codec only knows
 * its payload format and its method byte. Instances come from {@link CompressionCodecs}.
 *
 * <p>Thread safety: every implementation returned by {@link CompressionCodecs} is immutable and
 * safe to share between threads (no per-call state is kept in the instance).
 */
public interface CompressionCodec {

    /**
     * The method byte written at offset 16 of each block: {@code 0x02} NONE, {@code 0x82} LZ4 and
     * LZ4HC, {@code 0x90} ZSTD.
     */
    byte methodByte();

    /**
     * The largest payload {@link #compress} can produce for {@code srcLen} input bytes; size the
     * destination buffer with it.
     *
     * @throws IllegalArgumentException if {@code srcLen} is negative or the bound does not fit an
     *     int
     */
    int maxCompressedLength(int srcLen);

    /**
     * Compresses {@code src[srcOff, srcOff+srcLen)} into {@code dst} starting at {@code dstOff} and
     * returns the payload length. Writes the payload only (no checksum, no header).
     *
     * @throws IllegalArgumentException if {@code dst} has fewer than {@link
     *     #maxCompressedLength(int) maxCompressedLength(srcLen)} bytes after {@code dstOff}
     * @throws IndexOutOfBoundsException if a range is outside its array
     */
    int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff);

    /**
     * Decompresses the payload {@code src[srcOff, srcOff+srcLen)} into exactly {@code
     * uncompressedLen} bytes at {@code dst[dstOff]}.
     *
     * @throws IllegalArgumentException if the payload is malformed or does not decode to exactly
     *     {@code uncompressedLen} bytes (the message says what was found); block readers turn this
     *     into a {@code CorruptDataException} naming the file and offset
     * @throws IndexOutOfBoundsException if a range is outside its array
     */
    void decompress(
            byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int uncompressedLen);

    /**
     * The codec as written inside ClickHouse's {@code CODEC(...)}: {@code NONE}, {@code LZ4},
     * {@code LZ4HC(9)}, {@code ZSTD(3)}; {@link CompressionCodecs#parse} accepts it back.
     */
    String clickHouseName();

    /**
     * The codec for one stream of a column: a declaration with type-dependent codecs ({@link
     * ColumnCodec}) derives their parameters from {@code streamType}, the type of the stream's
     * values, and keeps only its generic codecs for {@code null} (null maps, array sizes,
     * LowCardinality indexes). A plain codec returns itself.
     *
     * @throws IllegalArgumentException if the codec does not apply to {@code streamType}
     */
    default CompressionCodec forStream(DataType streamType) {
        return this;
    }
}
