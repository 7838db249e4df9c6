package io.github.s3mergetree.source.s3.format.text;

import org.apache.flink.annotation.Internal;

/**
 * A row of text input that ClickHouse would refuse: the reason only, as ClickHouse words it; the
 * row reader adds the object, line, byte offset and column. Unchecked and without a stack trace,
 * because with {@code input_format_allow_errors_num} a parser may throw one per skipped row.
 */
@Internal
public final class TextParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final boolean skippable;

    public TextParseException(String reason) {
        this(reason, true);
    }

    /**
     * @param skippable whether {@code input_format_allow_errors_*} may skip the row: ClickHouse's
     *     {@code isParseError} codes may, an end of input inside a value ({@code
     *     ATTEMPT_TO_READ_AFTER_EOF}) may not
     */
    public TextParseException(String reason, boolean skippable) {
        super(reason, null, false, false);
        this.skippable = skippable;
    }

    public boolean skippable() {
        return skippable;
    }

    /** ClickHouse's {@code ATTEMPT_TO_READ_AFTER_EOF}, which no allowed error count skips. */
    static TextParseException afterEof() {
        return new TextParseException("Attempt to read after eof", false);
    }

    /** ClickHouse's {@code Cannot parse input: expected 'x' before: '...'}. */
    static TextParseException expected(String what, TextCursor in) {
        String rest = in.snippet(40);
        return new TextParseException(
                "Cannot parse input: expected '"
                        + TextCursor.escape(
                                what.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                0,
                                what.length())
                        + "'"
                        + (rest == null ? " at end of stream" : " before: '" + rest + "'"));
    }
}
