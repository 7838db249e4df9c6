package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.List;

/**
 * A growable, typed column vector: the engine's in-memory form of one column of an insert block.
 * Values live in primitive arrays (strings as offsets + bytes), never as per-row objects, so that
 * sorting, serialization and compression run over flat memory.
 *
 * <p>A column knows only its {@link PhysicalType}; the logical {@link
 * io.github.s3mergetree.engine.types.DataType} travels beside it in a {@link Block}. Columns are
 * not thread-safe.
 */
public interface Column {
    /** Number of rows. */
    int size();

    /** The in-memory representation. */
    PhysicalType physicalType();

    /**
     * An empty column of the same shape (nested columns included) with room for {@code capacity}.
     */
    Column newEmpty(int capacity);

    /** Appends rows {@code [from, to)} of {@code src}, a column of the same shape. */
    void appendRange(Column src, int from, int to);

    /** Appends row {@code row} of {@code src}, a column of the same shape. */
    default void appendFrom(Column src, int row) {
        appendRange(src, row, row + 1);
    }

    /** Appends the default value (zero, empty string, empty array, ...). */
    void appendDefault();

    /** A new column holding rows {@code perm[0], perm[1], ...} of this one. */
    Column permute(int[] perm, int length);

    /**
     * A new column of this shape holding, for {@code i} in {@code [0, length)}, row {@code
     * rowOf[i]} of {@code chunks.get(chunkOf[i])}: a permutation over several columns of the same
     * shape at once (an insert block kept as the blocks it was built from is sorted this way, one
     * copy of every value instead of a concatenation and then a permutation). This column's own
     * rows are not read.
     */
    default Column gather(List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        Column out = newEmpty(length);
        for (int i = 0; i < length; i++) {
            out.appendFrom(chunks.get(chunkOf[i]), rowOf[i]);
        }
        return out;
    }

    /** Uncompressed in-memory size in bytes, as ClickHouse's {@code Block::bytes()} counts it. */
    long byteSize();

    /** Drops all rows, keeping the allocated capacity. */
    void clear();

    /**
     * Keeps the first {@code rows} rows and drops the rest (ClickHouse's {@code popBack}): a reader
     * that fails in the middle of a row takes back the values it already appended to some columns.
     * Read-only columns refuse.
     *
     * @throws IllegalArgumentException if {@code rows} is negative or more than {@link #size()}
     */
    default void truncate(int rows) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " is read-only");
    }
}
