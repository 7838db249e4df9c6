package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.ttl.TableTtl;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;
import java.util.Map;

/**
 * What a merge needs to know about the table: its columns, sorting and primary keys, the columns
 * the partition expression reads (for {@code minmax_*.idx}), codecs, the engine's merging mode,
 * {@code merge_max_block_size}, and the table's TTL with the time of the merge (epoch seconds, from
 * the table's clock) against which it is applied.
 */
public record MergeSpec(
        List<String> columnNames,
        List<DataType> columnTypes,
        KeyExpression sortingKey,
        int primaryKeySize,
        List<String> minmaxColumns,
        List<DataType> partitionKeyTypes,
        Map<String, CompressionCodec> columnCodecs,
        MergingMode mode,
        int mergeMaxBlockSize,
        EvaluationContext evaluation,
        TableTtl ttl,
        long timeOfMerge) {

    /** The spec of a table without TTL. */
    public MergeSpec(
            List<String> columnNames,
            List<DataType> columnTypes,
            KeyExpression sortingKey,
            int primaryKeySize,
            List<String> minmaxColumns,
            List<DataType> partitionKeyTypes,
            Map<String, CompressionCodec> columnCodecs,
            MergingMode mode,
            int mergeMaxBlockSize,
            EvaluationContext evaluation) {
        this(
                columnNames,
                columnTypes,
                sortingKey,
                primaryKeySize,
                minmaxColumns,
                partitionKeyTypes,
                columnCodecs,
                mode,
                mergeMaxBlockSize,
                evaluation,
                TableTtl.NONE,
                0);
    }

    public MergeSpec {
        java.util.Objects.requireNonNull(ttl, "ttl");
        if (mergeMaxBlockSize <= 0) {
            throw new IllegalArgumentException(
                    "merge_max_block_size must be positive, got " + mergeMaxBlockSize);
        }
        if (primaryKeySize > sortingKey.size()) {
            throw new IllegalArgumentException(
                    "primary key of "
                            + primaryKeySize
                            + " elements is longer than the sorting key "
                            + sortingKey.toSql());
        }
    }
}
