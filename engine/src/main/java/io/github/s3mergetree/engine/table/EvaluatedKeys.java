package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;

/**
 * The key expressions of a table evaluated over one insert block: partition key elements, sorting
 * key elements (the primary key is a prefix of those), and the columns the partition expression
 * reads (for {@code minmax_*.idx}).
 */
public record EvaluatedKeys(
        List<DataType> partitionTypes,
        List<Column> partitionColumns,
        List<String> minmaxColumns,
        List<String> sortingNames,
        List<DataType> sortingTypes,
        List<Column> sortingColumns,
        int primaryKeySize) {}
