package io.github.s3mergetree.engine.ddl;

/**
 * A {@code CREATE TABLE} statement that is malformed or that ClickHouse itself would reject (an
 * unknown type, column or setting, a primary key that is not a prefix of the sorting key, a
 * Nullable key column without {@code allow_nullable_key}, ...).
 *
 * <p>Why a dedicated exception: the message names the offending construct and where it is — the
 * 1-based {@link #line()} and {@link #column()} in the statement text — so a user can fix the DDL
 * without guessing.
 */
public class DdlParseException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int line;
    private final int column;
    private final String detail;

    /**
     * @param detail what is wrong, naming the construct
     * @param line 1-based line of the construct, or 0 if not tied to a place
     * @param column 1-based column of the construct, or 0
     */
    public DdlParseException(String detail, int line, int column) {
        super(line > 0 ? detail + " (at line " + line + ", column " + column + ")" : detail);
        this.detail = detail;
        this.line = line;
        this.column = column;
    }

    /** The 1-based line of the offending construct, or 0. */
    public int line() {
        return line;
    }

    /** The 1-based column of the offending construct, or 0. */
    public int column() {
        return column;
    }

    /** The message without the position. */
    public String detail() {
        return detail;
    }
}
