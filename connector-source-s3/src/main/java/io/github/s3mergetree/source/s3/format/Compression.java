package io.github.s3mergetree.source.s3.format;

import com.github.luben.zstd.ZstdInputStream;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4FrameInputStream;
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

    /** Wraps {@code in} with this decompression. */
    public InputStream decompress(InputStream in) throws IOException {
        return switch (this) {
            case NONE -> in;
            case GZIP -> new GZIPInputStream(in, 64 * 1024);
            case ZSTD -> new ZstdInputStream(new BufferedInputStream(in, 64 * 1024));
            case LZ4 -> new LZ4FrameInputStream(new BufferedInputStream(in, 64 * 1024));
            case XZ -> new XZCompressorInputStream(new BufferedInputStream(in, 64 * 1024), true);
            case BZ2 ->
                    new BZip2CompressorInputStream(new BufferedInputStream(in, 64 * 1024), true);
        };
    }
}
