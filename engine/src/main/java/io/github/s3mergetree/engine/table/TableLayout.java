package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.merge.MergeSpec;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.ttl.TableTtl;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything the table layer needs to know about a MergeTree table, resolved once from its DDL:
 * columns, keys, codecs, the engine's merging mode, the part format and the table settings.
 *
 * @param ddl the table's CREATE TABLE statement (stored in the table directory; a table opened with
 *     another DDL is refused)
 * @param ttl the table's TTL rules ({@link TableTtl#NONE} without TTL)
 */
public record TableLayout(
        String ddl,
        String tableName,
        List<String> columnNames,
        List<DataType> columnTypes,
        Map<String, CompressionCodec> columnCodecs,
        KeyExpression partitionKey,
        KeyExpression sortingKey,
        int primaryKeySize,
        MergingMode mergingMode,
        PartWriterOptions partFormat,
        TableSettings settings,
        EvaluationContext evaluation,
        TableTtl ttl) {

    /** The layout of a table without TTL. */
    public TableLayout(
            String ddl,
            String tableName,
            List<String> columnNames,
            List<DataType> columnTypes,
            Map<String, CompressionCodec> columnCodecs,
            KeyExpression partitionKey,
            KeyExpression sortingKey,
            int primaryKeySize,
            MergingMode mergingMode,
            PartWriterOptions partFormat,
            TableSettings settings,
            EvaluationContext evaluation) {
        this(
                ddl,
                tableName,
                columnNames,
                columnTypes,
                columnCodecs,
                partitionKey,
                sortingKey,
                primaryKeySize,
                mergingMode,
                partFormat,
                settings,
                evaluation,
                TableTtl.NONE);
    }

    public TableLayout {
        java.util.Objects.requireNonNull(ttl, "ttl");
        columnNames = List.copyOf(columnNames);
        columnTypes = List.copyOf(columnTypes);
        columnCodecs = Map.copyOf(columnCodecs);
        if (columnNames.size() != columnTypes.size()) {
            throw new IllegalArgumentException("column names and types differ in count");
        }
        if (primaryKeySize > sortingKey.size()) {
            throw new IllegalArgumentException(
                    "primary key size "
                            + primaryKeySize
                            + " > sorting key size "
                            + sortingKey.size());
        }
    }

    /** The columns the partition expression reads (the {@code minmax_*.idx} files). */
    public List<String> minmaxColumns() {
        return new ArrayList<>(partitionKey.requiredColumns());
    }

    /** What a merge of this table's parts needs (without TTL: see {@link #mergeSpec(long)}). */
    public MergeSpec mergeSpec() {
        return new MergeSpec(
                columnNames,
                columnTypes,
                sortingKey,
                primaryKeySize,
                minmaxColumns(),
                partitionKey.types(),
                columnCodecs,
                mergingMode,
                settings.mergeMaxBlockSize(),
                evaluation);
    }

    /** What a merge at {@code timeOfMerge} (epoch seconds) needs, the table's TTL included. */
    public MergeSpec mergeSpec(long timeOfMerge) {
        return new MergeSpec(
                columnNames,
                columnTypes,
                sortingKey,
                primaryKeySize,
                minmaxColumns(),
                partitionKey.types(),
                columnCodecs,
                mergingMode,
                settings.mergeMaxBlockSize(),
                evaluation,
                ttl,
                timeOfMerge);
    }
}
