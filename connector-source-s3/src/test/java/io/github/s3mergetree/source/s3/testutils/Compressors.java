package io.github.s3mergetree.source.s3.testutils;

import com.github.luben.zstd.ZstdOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;

/** Compresses test data like the tools that write objects: gz, zst, lz4 (frame), xz, bz2. */
public final class Compressors {
    private Compressors() {}

    /** {@code data} compressed for the extension {@code ext} (without dot; "" = as is). */
    public static byte[] compress(String ext, byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out =
                switch (ext) {
                    case "gz" -> new GZIPOutputStream(bytes);
                    case "zst" -> new ZstdOutputStream(bytes);
                    case "lz4" -> new LZ4FrameOutputStream(bytes);
                    case "xz" -> new XZCompressorOutputStream(bytes);
                    case "bz2" -> new BZip2CompressorOutputStream(bytes);
                    case "" -> bytes;
                    default -> throw new IllegalArgumentException("unknown extension " + ext);
                }) {
            out.write(data);
        }
        return bytes.toByteArray();
    }
}
