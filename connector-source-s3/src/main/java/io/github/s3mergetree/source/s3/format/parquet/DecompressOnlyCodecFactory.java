package io.github.s3mergetree.source.s3.format.parquet;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.brotli.dec.BrotliInputStream;
import org.xerial.snappy.Snappy;

/**
 * Parquet page decompression without Hadoop codecs: UNCOMPRESSED, SNAPPY (snappy-java), GZIP (JDK),
 * BROTLI (org.brotli:dec), ZSTD (zstd-jni), LZ4_RAW and the deprecated LZ4 (lz4-java: Hadoop frames
 * or a bare block, see {@link #legacyLz4}), which covers what ClickHouse, Spark, parquet-mr, Arrow
 * and DuckDB write; LZO (which ClickHouse does not read either) is refused. Why: parquet-hadoop's
 * default factory instantiates Hadoop codec classes that need a full Hadoop runtime.
 */
final class DecompressOnlyCodecFactory implements CompressionCodecFactory {
    static final DecompressOnlyCodecFactory INSTANCE = new DecompressOnlyCodecFactory();

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
        throw new UnsupportedOperationException("the S3 source only reads Parquet");
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        return new BytesInputDecompressor() {
            @Override
            public BytesInput decompress(BytesInput bytes, int uncompressedSize)
                    throws IOException {
                if (codec == CompressionCodecName.UNCOMPRESSED) {
                    return bytes;
                }
                // into the page buffer the reader lent for this data page (PageScratch), else a new
                // array
                ByteBuffer b = bytes.toByteBuffer();
                byte[] out = PageScratch.outputFor(uncompressedSize);
                if (b.hasArray()) {
                    decompressArray(
                            codec,
                            b.array(),
                            b.arrayOffset() + b.position(),
                            b.remaining(),
                            out,
                            uncompressedSize);
                } else {
                    byte[] in = bytes.toByteArray();
                    decompressArray(codec, in, 0, in.length, out, uncompressedSize);
                }
                return BytesInput.from(out, 0, uncompressedSize);
            }

            @Override
            public void decompress(
                    ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                    throws IOException {
                byte[] in = new byte[compressedSize];
                input.duplicate().get(in);
                byte[] out =
                        codec == CompressionCodecName.UNCOMPRESSED
                                ? in
                                : decompressArray(codec, in, 0, in.length, uncompressedSize);
                output.put(out, 0, uncompressedSize);
            }

            @Override
            public void release() {}
        };
    }

    static byte[] decompressArray(
            CompressionCodecName codec, byte[] in, int off, int len, int uncompressedSize)
            throws IOException {
        return decompressArray(codec, in, off, len, new byte[uncompressedSize], uncompressedSize);
    }

    /** Decompresses into {@code out[0, uncompressedSize)} ({@code out} may be longer). */
    static byte[] decompressArray(
            CompressionCodecName codec,
            byte[] in,
            int off,
            int len,
            byte[] out,
            int uncompressedSize)
            throws IOException {
        switch (codec) {
            case SNAPPY -> {
                int n = Snappy.uncompress(in, off, len, out, 0);
                check(codec, n, uncompressedSize);
            }
            case ZSTD -> {
                long n = Zstd.decompressByteArray(out, 0, uncompressedSize, in, off, len);
                if (Zstd.isError(n)) {
                    throw new IOException(
                            "ZSTD page decompression failed: " + Zstd.getErrorName(n));
                }
                check(codec, (int) n, uncompressedSize);
            }
            case GZIP -> {
                try (GZIPInputStream g =
                        new GZIPInputStream(new ByteArrayInputStream(in, off, len))) {
                    int n = g.readNBytes(out, 0, uncompressedSize);
                    check(codec, n, uncompressedSize);
                }
            }
            case LZ4_RAW -> {
                LZ4SafeDecompressor d = LZ4Factory.fastestInstance().safeDecompressor();
                int n = d.decompress(in, off, len, out, 0, uncompressedSize);
                check(codec, n, uncompressedSize);
            }
            case LZ4 ->
                    check(codec, legacyLz4(in, off, len, out, uncompressedSize), uncompressedSize);
            case BROTLI -> {
                try (BrotliInputStream b =
                        new BrotliInputStream(new ByteArrayInputStream(in, off, len))) {
                    int n = b.readNBytes(out, 0, uncompressedSize);
                    check(codec, n, uncompressedSize);
                }
            }
            default ->
                    throw new IOException(
                            "Parquet compression codec "
                                    + codec
                                    + " is not supported (UNCOMPRESSED, SNAPPY, GZIP, BROTLI,"
                                    + " ZSTD, LZ4_RAW and LZ4 are)");
        }
        return out;
    }

    /**
     * The deprecated codec LZ4 (Parquet codec 5), read as Arrow and ClickHouse read it: as written
     * by parquet-mr through Hadoop's Lz4Codec, a sequence of frames of a big-endian uncompressed
     * size, a big-endian compressed size and an LZ4 block; or, as older Arrow versions wrote it
     * under the same codec id, one bare LZ4 block (tried when the frames do not add up).
     *
     * @return the bytes decompressed into {@code out}
     */
    static int legacyLz4(byte[] in, int off, int len, byte[] out, int uncompressedSize)
            throws IOException {
        LZ4SafeDecompressor d = LZ4Factory.fastestInstance().safeDecompressor();
        int n = hadoopLz4(d, in, off, len, out, uncompressedSize);
        if (n >= 0) {
            return n;
        }
        try {
            return d.decompress(in, off, len, out, 0, uncompressedSize);
        } catch (RuntimeException e) {
            throw new IOException(
                    "LZ4 page decompression failed (neither Hadoop-framed nor a bare LZ4 block): "
                            + e.getMessage(),
                    e);
        }
    }

    /** Hadoop's LZ4 frames, or -1 when the input is not made of them. */
    private static int hadoopLz4(
            LZ4SafeDecompressor d, byte[] in, int off, int len, byte[] out, int uncompressedSize) {
        int at = off;
        int end = off + len;
        int written = 0;
        while (end - at >= 8) {
            int raw = readIntBigEndian(in, at);
            int packed = readIntBigEndian(in, at + 4);
            at += 8;
            if (raw < 0 || packed < 0 || packed > end - at || raw > uncompressedSize - written) {
                return -1;
            }
            try {
                int n = d.decompress(in, at, packed, out, written, raw);
                if (n != raw) {
                    return -1;
                }
            } catch (RuntimeException e) {
                return -1;
            }
            at += packed;
            written += raw;
        }
        return at == end ? written : -1;
    }

    private static int readIntBigEndian(byte[] b, int at) {
        return (b[at] & 0xFF) << 24
                | (b[at + 1] & 0xFF) << 16
                | (b[at + 2] & 0xFF) << 8
                | (b[at + 3] & 0xFF);
    }

    private static void check(CompressionCodecName codec, int got, int expected)
            throws IOException {
        if (got != expected) {
            throw new IOException(
                    codec + " page decompressed to " + got + " bytes, expected " + expected);
        }
    }

    @Override
    public void release() {}
}
