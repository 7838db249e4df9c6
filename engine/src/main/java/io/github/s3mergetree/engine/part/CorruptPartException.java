package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.io.CorruptDataException;

/**
 * A part file is damaged: its bytes contradict the format or their own checksums (a compressed
 * block whose CityHash128 does not match, an impossible block header, a stream that ends too early,
 * a size that differs from {@code checksums.txt}, ...).
 *
 * <p>Why a dedicated unchecked type: callers (readers, verifiers, merge code) need to tell "this
 * part is damaged, quarantine it" apart from I/O failures and programming errors. The part layer
 * reports every {@link CorruptDataException} of the layers below (decompression) as this type, with
 * the file, offset, expected and actual values.
 */
public class CorruptPartException extends CorruptDataException {

    private static final long serialVersionUID = 1L;

    /** See {@link CorruptDataException#CorruptDataException(String, long, String, String)}. */
    public CorruptPartException(String file, long offset, String expected, String actual) {
        super(file, offset, expected, actual);
    }

    /**
     * See {@link CorruptDataException#CorruptDataException(String, long, String, String, String)}.
     */
    public CorruptPartException(
            String file, long offset, String what, String expected, String actual) {
        super(file, offset, what, expected, actual);
    }

    /** With a cause. */
    public CorruptPartException(
            String file,
            long offset,
            String what,
            String expected,
            String actual,
            Throwable cause) {
        super(file, offset, what, expected, actual, cause);
    }

    private CorruptPartException(CorruptDataException e) {
        super(e);
    }

    /** {@code e} as a damaged part file (the same file, offset, values and message). */
    public static CorruptPartException of(CorruptDataException e) {
        return e instanceof CorruptPartException p ? p : new CorruptPartException(e);
    }
}
