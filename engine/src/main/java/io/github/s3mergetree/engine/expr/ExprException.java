package io.github.s3mergetree.engine.expr;

/**
 * An expression that cannot be parsed, typed or evaluated: a syntax error, an unknown column, a
 * function this engine does not implement, arguments of the wrong types, or a run-time error such
 * as a division by zero.
 *
 * <p>Why one type with a {@link Kind}: the DDL parser turns syntax and type errors into parse
 * errors but unsupported functions into "unsupported" errors, and both need the position of the
 * offending construct, which {@link #position()} gives as a 0-based character offset into the
 * parsed text (or -1 when the error is not tied to a place, e.g. at evaluation time).
 */
public class ExprException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong. */
    public enum Kind {
        /** Malformed text. */
        SYNTAX,
        /** Well-formed, but a column, function or argument type is wrong. */
        INVALID,
        /** Valid ClickHouse, but this engine does not implement it. */
        UNSUPPORTED,
        /** Evaluation failed (e.g. division by zero, unparsable string). */
        EVALUATION
    }

    private final Kind kind;
    private final int position;
    private final String detail;

    /**
     * @param kind what went wrong
     * @param detail the message, naming the offending construct
     * @param position 0-based offset of the construct in the parsed text, or -1
     */
    public ExprException(Kind kind, String detail, int position) {
        super(position >= 0 ? detail + " (at offset " + position + ")" : detail);
        this.kind = kind;
        this.detail = detail;
        this.position = position;
    }

    /** What went wrong. */
    public Kind kind() {
        return kind;
    }

    /** The 0-based offset of the offending construct in the parsed text, or -1. */
    public int position() {
        return position;
    }

    /** The message without the position suffix. */
    public String detail() {
        return detail;
    }

    static ExprException syntax(String detail, int position) {
        return new ExprException(Kind.SYNTAX, detail, position);
    }

    static ExprException invalid(String detail, int position) {
        return new ExprException(Kind.INVALID, detail, position);
    }

    static ExprException unsupported(String detail, int position) {
        return new ExprException(Kind.UNSUPPORTED, detail, position);
    }

    static ExprException evaluation(String detail) {
        return new ExprException(Kind.EVALUATION, detail, -1);
    }
}
