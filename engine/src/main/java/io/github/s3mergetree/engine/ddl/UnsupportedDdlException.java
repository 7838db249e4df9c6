package io.github.s3mergetree.engine.ddl;

/**
 * A valid ClickHouse {@code CREATE TABLE} that uses something this engine cannot honour: secondary
 * indexes, projections, constraints, TTL, SAMPLE BY, replicated or other engines, data types or
 * functions it does not implement, and so on.
 *
 * <p>Why separate from {@link DdlParseException}: the statement is not wrong — ClickHouse would
 * accept it — but writing parts for it here would silently produce wrong parts, so it is refused
 * with a message that names the construct ({@link #construct()}) and its position.
 */
public class UnsupportedDdlException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String construct;
    private final int line;
    private final int column;

    /**
     * @param construct the unsupported construct, e.g. {@code INDEX} or {@code TTL}
     * @param detail an explanation, naming the construct
     * @param line 1-based line, or 0
     * @param column 1-based column, or 0
     */
    public UnsupportedDdlException(String construct, String detail, int line, int column) {
        super(line > 0 ? detail + " (at line " + line + ", column " + column + ")" : detail);
        this.construct = construct;
        this.line = line;
        this.column = column;
    }

    /** The unsupported construct, e.g. {@code INDEX}, {@code TTL}, {@code ENGINE Log}. */
    public String construct() {
        return construct;
    }

    /** The 1-based line of the construct, or 0. */
    public int line() {
        return line;
    }

    /** The 1-based column of the construct, or 0. */
    public int column() {
        return column;
    }
}
