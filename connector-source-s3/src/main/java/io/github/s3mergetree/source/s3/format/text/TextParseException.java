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

    public TextParseException(String reason) {
        super(reason, null, false, false);
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
