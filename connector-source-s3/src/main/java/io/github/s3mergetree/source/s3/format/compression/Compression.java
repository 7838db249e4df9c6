package io.github.s3mergetree.source.s3.format.compression;

import com.github.luben.zstd.ZstdInputStream;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Whole-object compression of line formats, chosen by file extension ({@code compression_method =
 * auto}) or by name, as ClickHouse does: gz, zst, lz4 (frame), xz, bz2, none. A compressed object
 * cannot be split by byte ranges.
 */
@PublicEvolving
public enum Compression {
    NONE,
    GZIP,
    ZSTD,
    LZ4,
    XZ,
    BZ2;

    /** The compression named {@code method} ({@code auto}: by the key's extension). */
    public static Compression of(String method, String key) {
        String m = method == null ? "auto" : method.toLowerCase(Locale.ROOT);
        return switch (m) {
            case "auto" -> byExtension(key);
            case "none", "" -> NONE;
            case "gzip", "gz", "deflate" -> GZIP;
            case "zstd", "zst" -> ZSTD;
            case "lz4" -> LZ4;
            case "xz", "lzma" -> XZ;
            case "bz2", "bzip2" -> BZ2;
            default ->
                    throw new IllegalArgumentException(
                            "unknown compression_method '"
                                    + method
                                    + "' (auto, none, gzip, zstd, lz4, xz, bz2)");
        };
    }

    /** The compression implied by the key's extension. */
    public static Compression byExtension(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        if (k.endsWith(".gz") || k.endsWith(".gzip")) {
            return GZIP;
        } else if (k.endsWith(".zst") || k.endsWith(".zstd")) {
            return ZSTD;
        } else if (k.endsWith(".lz4")) {
            return LZ4;
        } else if (k.endsWith(".xz")) {
            return XZ;
        } else if (k.endsWith(".bz2")) {
            return BZ2;
        }
        return NONE;
    }

    /** The codec's name in messages. */
    public String codecName() {
        return switch (this) {
            case NONE -> "uncompressed";
            case GZIP -> "gzip";
            case ZSTD -> "zstd";
            case LZ4 -> "lz4";
            case XZ -> "xz";
            case BZ2 -> "bz2";
        };
    }

    /**
     * Wraps {@code compressed}, the bytes of {@code object}, with this decompression; a corrupt or
     * truncated stream fails with an {@link ObjectFormatException} saying "corrupt <codec> data in
     * object X at compressed offset Y", never as a bad value further on. Errors of {@code
     * compressed} itself (the download) pass through unchanged.
     */
    public InputStream decompress(InputStream compressed, String object) throws IOException {
        if (this == NONE) {
            return compressed;
        }
        CountingInputStream counted = new CountingInputStream(compressed);
        InputStream d;
        try {
            d = decompress(counted);
        } catch (IOException | RuntimeException e) {
            throw DecompressingInputStream.corrupt(this, object, counted, e);
        }
        return new DecompressingInputStream(d, this, object, counted);
    }

    /**
     * Like {@link #decompress(InputStream, String)} for an object of {@code size} bytes: a gzip
     * object within {@link NativeGzip}'s limits is read whole and decompressed by libdeflate where
     * libdeflate accepts the stream exactly and the JVM's direct memory can spare its buffers;
     * anything else (and every other codec) takes the streaming path, over the same bytes, with the
     * same results and errors.
     */
    public InputStream decompress(InputStream compressed, String object, long size)
            throws IOException {
        if (this != GZIP
                || !NativeGzip.available()
                || size <= 0
                || size > NativeGzip.MAX_COMPRESSED) {
            return decompress(compressed, object);
        }
        ByteBuffer in = NativeGzip.take((int) size);
        if (in == null) { // no direct memory to spare: the JDK streams it
            return decompress(compressed, object);
        }
        int n = 0;
        try (InputStream c = compressed) { // a failed download fails here, as it is
            byte[] chunk = new byte[(int) Math.min(size, 256 * 1024)];
            while (n < size) {
                int k = c.read(chunk, 0, (int) Math.min(chunk.length, size - n));
                if (k <= 0) {
                    break; // a short object: the JDK reports the truncation below
                }
                in.put(n, chunk, 0, k);
                n += k;
            }
        } catch (IOException | RuntimeException e) {
            NativeGzip.give(in);
            throw e;
        }
        NativeGzip.Output out = NativeGzip.decompress(in, n);
        if (out == null) { // the JDK decides: its data, errors and lenience, as before
            return decompress(new PooledBytesInputStream(in, n), object);
        }
        NativeGzip.give(in);
        return new DecompressingInputStream(
                new PooledBytesInputStream(out.bytes(), out.length()),
                this,
                object,
                new CountingInputStream(InputStream.nullInputStream()));
    }

    /** Wraps {@code in} with this decompression. */
    public InputStream decompress(InputStream in) throws IOException {
        return switch (this) {
            case NONE -> in;
            case GZIP -> new GZIPInputStream(in, 64 * 1024);
            case ZSTD -> new ZstdInputStream(new BufferedInputStream(in, 64 * 1024));
            case LZ4 -> new Lz4FrameInputStream(new BufferedInputStream(in, 64 * 1024));
            case XZ -> new XZCompressorInputStream(new BufferedInputStream(in, 64 * 1024), true);
            case BZ2 ->
                    new BZip2CompressorInputStream(new BufferedInputStream(in, 64 * 1024), true);
        };
    }
}
