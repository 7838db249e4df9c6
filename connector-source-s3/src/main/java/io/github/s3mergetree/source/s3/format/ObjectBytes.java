package io.github.s3mergetree.source.s3.format;

import java.util.Arrays;
import org.apache.flink.annotation.Internal;

/**
 * Bytes of an object range held in memory: the first {@code length} bytes of {@code array}, which
 * may be longer (an array from a {@link DownloadBuffers} pool is reused for ranges of other sizes).
 *
 * @param array the bytes; only {@code [0, length)} belong to the range
 * @param length the range's length
 * @param pooled whether {@code array} came from (and may go back to) the context's pool
 */
@Internal
public record ObjectBytes(byte[] array, int length, boolean pooled) {
    public ObjectBytes {
        if (length < 0 || length > array.length) {
            throw new IllegalArgumentException(
                    "length " + length + " outside an array of " + array.length + " bytes");
        }
    }

    /** An exact array, not from a pool. */
    public static ObjectBytes of(byte[] exact) {
        return new ObjectBytes(exact, exact.length, false);
    }

    /** The range as an array of exactly {@code length} bytes (a copy if the array is longer). */
    byte[] exact() {
        return array.length == length ? array : Arrays.copyOf(array, length);
    }
}
