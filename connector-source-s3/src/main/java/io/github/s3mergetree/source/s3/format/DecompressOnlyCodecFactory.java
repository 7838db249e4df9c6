package io.github.s3mergetree.source.s3.format;

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
import org.xerial.snappy.Snappy;

/**
 * Parquet page decompression without Hadoop codecs: UNCOMPRESSED, SNAPPY (snappy-java), GZIP (JDK),
 * ZSTD (zstd-jni) and LZ4_RAW (lz4-java), which covers what ClickHouse, Spark, Arrow and DuckDB
 * write. Why: parquet-hadoop's default factory instantiates Hadoop codec classes that need a full
 * Hadoop runtime.
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
            default ->
                    throw new IOException(
                            "Parquet compression codec "
                                    + codec
                                    + " is not supported (UNCOMPRESSED, SNAPPY, GZIP, ZSTD,"
                                    + " LZ4_RAW are)");
        }
        return out;
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
