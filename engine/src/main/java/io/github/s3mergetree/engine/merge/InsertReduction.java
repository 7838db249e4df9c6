package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.expr.KeyExpression;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * ClickHouse's {@code optimize_on_insert}: applies the engine's merge semantics (replace, sum,
 * collapse, collapse by version) to one sorted insert block before it becomes a part, exactly as a
 * merge would, so a ReplacingMergeTree part never holds two rows with one key.
 */
public final class InsertReduction {
    private InsertReduction() {}

    /**
     * Reduces a block sorted by {@code sortingKey}; {@code keys} are its evaluated sorting key
     * columns. Returns the block itself for plain MergeTree.
     */
    public static Block reduce(
            Block sorted, List<Column> keys, MergingMode mode, KeyExpression sortingKey) {
        if (mode.kind() == MergingMode.Kind.ORDINARY) {
            return sorted;
        }
        Block out = sorted.newEmpty(Math.max(16, sorted.rows() / 4));
        RowReducer reducer = RowReducer.create(mode, sortingKey, sorted.rows(), out::appendRange);
        try {
            reducer.accept(sorted, keys, 0, sorted.rows());
            reducer.finish();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
