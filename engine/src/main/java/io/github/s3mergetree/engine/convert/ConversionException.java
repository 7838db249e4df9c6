package io.github.s3mergetree.engine.convert;

/**
 * A value cannot be stored in a column: out of range for its type, too long for a FixedString, a
 * Decimal that overflows its precision, an unknown Enum name, a wrong Java type. The message names
 * the table, the column, the row and the value.
 */
public final class ConversionException extends IllegalArgumentException {
    private final String table;
    private final String column;
    private final long row;
    private final String problem;

    public ConversionException(String table, String column, long row, String problem) {
        super(
                "Cannot insert into table "
                        + table
                        + ", column "
                        + column
                        + ", row "
                        + row
                        + ": "
                        + problem);
        this.table = table;
        this.column = column;
        this.row = row;
        this.problem = problem;
    }

    /**
     * What is wrong with the value, without the table, column and row (for callers whose message
     * names the position in their own terms: object, row group, column).
     */
    public String problem() {
        return problem;
    }

    public String table() {
        return table;
    }

    public String column() {
        return column;
    }

    public long row() {
        return row;
    }
}
