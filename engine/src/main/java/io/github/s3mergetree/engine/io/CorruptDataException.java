package io.github.s3mergetree.engine.io;

/**
 * Thrown when bytes of a file contradict the format or their own checksums: a compressed block
 * whose CityHash128 does not match, an impossible block header, a stream that ends too early, a
 * size that differs from {@code checksums.txt}, ...
 *
 * <p>Why a dedicated unchecked type: callers (readers, verifiers, merge code) need to tell "this
 * part is damaged, quarantine it" apart from I/O failures and programming errors, and operators
 * need to see exactly where: the exception carries the {@link #file() file name}, the {@link
 * #offset() byte offset} in that file, and what was {@link #expected() expected} versus what was
 * {@link #actual() found}; the message names all of them.
 */
public class CorruptDataException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final long offset;
    private final String expected;
    private final String actual;

    /**
     * Creates the exception; the message reads {@code Corrupt data in file '<file>' at offset
     * <offset>: expected <expected>, actual <actual>}.
     *
     * @param file name of the damaged file (for example {@code a.bin}), may include the part
     * @param offset byte offset in that file where the problem was detected, or -1 when not
     *     applicable
     * @param expected what was expected there, rendered for humans
     * @param actual what was actually found, rendered for humans
     */
    public CorruptDataException(String file, long offset, String expected, String actual) {
        super(message(file, offset, null, expected, actual));
        this.file = file;
        this.offset = offset;
        this.expected = expected;
        this.actual = actual;
    }

    /**
     * Creates the exception with a description of the violated property; the message reads {@code
     * Corrupt data in file '<file>' at offset <offset>: <what>: expected <expected>, actual
     * <actual>}.
     *
     * @param file name of the damaged file (for example {@code a.bin}), may include the part
     * @param offset byte offset in that file where the problem was detected (e.g. the start of the
     *     damaged block), or -1 when not applicable
     * @param what short description of the violated property, e.g. {@code "block checksum
     *     mismatch"}
     * @param expected the expected value, rendered for humans
     * @param actual the value actually found, rendered for humans
     */
    public CorruptDataException(
            String file, long offset, String what, String expected, String actual) {
        this(file, offset, what, expected, actual, null);
    }

    /**
     * Creates the exception with an underlying cause (e.g. a decoder error).
     *
     * @param file name of the damaged file
     * @param offset byte offset in that file, or -1 when not applicable
     * @param what short description of the violated property
     * @param expected the expected value, rendered for humans
     * @param actual the value actually found, rendered for humans
     * @param cause the underlying exception, may be null
     */
    public CorruptDataException(
            String file,
            long offset,
            String what,
            String expected,
            String actual,
            Throwable cause) {
        super(message(file, offset, what, expected, actual), cause);
        this.file = file;
        this.offset = offset;
        this.expected = expected;
        this.actual = actual;
    }

    /** Re-reports {@code e} (same message and values) as a more specific type. */
    protected CorruptDataException(CorruptDataException e) {
        super(e.getMessage(), e);
        this.file = e.file;
        this.offset = e.offset;
        this.expected = e.expected;
        this.actual = e.actual;
    }

    private static String message(
            String file, long offset, String what, String expected, String actual) {
        return "Corrupt data in file '"
                + file
                + "' at offset "
                + offset
                + ": "
                + (what == null ? "" : what + ": ")
                + "expected "
                + expected
                + ", actual "
                + actual;
    }

    /** Returns the name of the damaged file. */
    public String file() {
        return file;
    }

    /** Returns the byte offset in {@link #file()} where the problem was detected, or -1. */
    public long offset() {
        return offset;
    }

    /** Returns the expected value as rendered in the message. */
    public String expected() {
        return expected;
    }

    /** Returns the value actually found as rendered in the message. */
    public String actual() {
        return actual;
    }
}
