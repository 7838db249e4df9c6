package io.github.s3mergetree.engine.serde;

/**
 * Two Array columns of one Nested structure ({@code n.a}, {@code n.b}) have different sizes in a
 * row, which their shared {@code n.size0} stream cannot hold: ClickHouse refuses such an insert
 * with {@code SIZES_OF_ARRAYS_DONT_MATCH}, and so does the engine. The message is ClickHouse's,
 * followed by the row and both sizes.
 */
public final class NestedSizesMismatchException extends IllegalArgumentException {
    private final String structure;
    private final long row;

    public NestedSizesMismatchException(
            String firstColumn,
            String otherColumn,
            String structure,
            long row,
            int firstSize,
            int otherSize) {
        super(
                problem(firstColumn, otherColumn, structure)
                        + ": row "
                        + row
                        + " of the block has "
                        + firstSize
                        + " and "
                        + otherSize
                        + " elements");
        this.structure = structure;
        this.row = row;
    }

    /**
     * ClickHouse's sentence for arrays of different sizes in columns {@code firstColumn} and {@code
     * otherColumn} of Nested structure {@code structure}, with its error name.
     */
    public static String problem(String firstColumn, String otherColumn, String structure) {
        return "Elements '"
                + firstColumn
                + "' and '"
                + otherColumn
                + "' of Nested data structure '"
                + structure
                + "' (Array columns) have different array sizes (SIZES_OF_ARRAYS_DONT_MATCH)";
    }

    /** The Nested structure's name ({@code n} of {@code n.a}). */
    public String structure() {
        return structure;
    }

    /** The row of the block (0-based) where the sizes differ. */
    public long row() {
        return row;
    }
}
