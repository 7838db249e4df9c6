package io.github.s3mergetree.sink.mergetree.input;

import io.github.s3mergetree.engine.column.Block;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Turns the sink's input records into rows of an insert block: appends to the columns of a {@link
 * Block} shaped like the table's stored columns (names and types in table order), then completes
 * the block ({@code DEFAULT} / {@code MATERIALIZED} columns) before it is written. One converter
 * per writer; not thread-safe.
 *
 * @param <IN> the sink's input type
 */
@PublicEvolving
public interface InputConverter<IN> {
    /**
     * Appends {@code record} (one row, or many for a columnar input) to {@code target}.
     *
     * @throws io.github.s3mergetree.engine.convert.ConversionException naming the column, the value
     *     and the record when a value cannot be stored
     */
    void append(IN record, Block target);

    /**
     * Computes the columns the input does not provide ({@code DEFAULT} expressions and {@code
     * MATERIALIZED} columns) over a block of appended rows and returns the complete block.
     */
    Block complete(Block block);

    /**
     * Whether records are whole blocks that the writer keeps by reference ({@link #toBlock})
     * instead of appending their rows into its own block: columnar input skips one copy of every
     * value.
     */
    default boolean columnar() {
        return false;
    }

    /**
     * For a {@link #columnar()} converter: {@code record} as a complete block of the table's
     * columns (table order, {@code DEFAULT} and {@code MATERIALIZED} columns computed). The writer
     * keeps it in its insert block until that block is written, so neither the record's columns nor
     * the returned block may be modified afterwards.
     */
    default Block toBlock(IN record) {
        throw new UnsupportedOperationException(getClass().getName() + " appends rows");
    }
}
