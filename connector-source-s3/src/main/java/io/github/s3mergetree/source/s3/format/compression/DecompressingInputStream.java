package io.github.s3mergetree.source.s3.format.compression;

import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.annotation.Internal;

/**
 * A decompressor's output whose failures name the codec, the object and the compressed offset
 * (ClickHouse: "corrupt data in object at offset"); failures of the download below pass through.
 */
@Internal
public final class DecompressingInputStream extends InputStream {
    private final InputStream in;
    private final Compression codec;
    private final String object;
    private final CountingInputStream counted;

    DecompressingInputStream(
            InputStream in, Compression codec, String object, CountingInputStream counted) {
        this.in = in;
        this.codec = codec;
        this.object = object;
        this.counted = counted;
    }

    static IOException corrupt(
            Compression codec, String object, CountingInputStream counted, Throwable e) {
        if (counted.failure() != null && isCause(e, counted.failure())) {
            return counted.failure();
        }
        String reason =
                e instanceof EOFException || String.valueOf(e.getMessage()).contains("end of")
                        ? "the stream is truncated (" + e.getMessage() + ")"
                        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return new ObjectFormatException(
                "corrupt "
                        + codec.codecName()
                        + " data in object "
                        + object
                        + " at compressed offset "
                        + counted.count()
                        + ": "
                        + reason,
                e);
    }

    private static boolean isCause(Throwable e, Throwable cause) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t == cause) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int read() throws IOException {
        try {
            return in.read();
        } catch (IOException | RuntimeException e) {
            throw corrupt(codec, object, counted, e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return in.read(b, off, len);
        } catch (IOException | RuntimeException e) {
            throw corrupt(codec, object, counted, e);
        }
    }

    /**
     * Reads the rest of the compressed stream, to tell whether a parse error was caused by corrupt
     * compressed data (a gzip CRC is checked only at the end): the corruption error, or null if the
     * stream is sound.
     */
    public IOException verifyRest() {
        byte[] sink = new byte[64 * 1024];
        try {
            while (read(sink, 0, sink.length) >= 0) {
                // drain
            }
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
