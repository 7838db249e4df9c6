package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;
import java.util.Set;

/**
 * A data-skipping index as the part writer builds it (ClickHouse's {@code IMergeTreeIndex}): the
 * file it is stored in, the expression it evaluates over the part's rows, and a fresh {@link
 * Aggregator} per index granule.
 *
 * <p>Why: every part of a table with {@code INDEX ... TYPE ...} must carry the index, written the
 * way ClickHouse writes it, or ClickHouse refuses or misreads the part. The writer ({@code
 * PartWriter}) feeds the index one data granule at a time and writes one serialized index granule
 * per {@link #granularity()} data granules.
 */
public abstract sealed class SkipIndex
        permits MinMaxSkipIndex, SetSkipIndex, BloomFilterSkipIndex, TextBloomFilterSkipIndex {
    private final SkipIndexDefinition definition;
    private final EvaluationContext evaluation;

    SkipIndex(SkipIndexDefinition definition, EvaluationContext evaluation) {
        this.definition = definition;
        this.evaluation = evaluation;
    }

    /**
     * The index of {@code definition}, evaluating its expression in {@code evaluation}.
     *
     * @throws IllegalArgumentException naming the index if its type is not one this engine writes
     */
    public static SkipIndex of(SkipIndexDefinition definition, EvaluationContext evaluation) {
        return switch (definition.type()) {
            case "minmax" -> new MinMaxSkipIndex(definition, evaluation);
            case "set" -> new SetSkipIndex(definition, evaluation);
            case "bloom_filter" -> new BloomFilterSkipIndex(definition, evaluation);
            case "tokenbf_v1", "ngrambf_v1" -> new TextBloomFilterSkipIndex(definition, evaluation);
            default ->
                    throw new IllegalArgumentException(
                            "Skip index `"
                                    + definition.name()
                                    + "` of type "
                                    + definition.type()
                                    + " is not supported by this engine");
        };
    }

    /** The index as declared. */
    public SkipIndexDefinition definition() {
        return definition;
    }

    /** The index name. */
    public String name() {
        return definition.name();
    }

    /** Data granules per index granule ({@code GRANULARITY}). */
    public int granularity() {
        return definition.granularity();
    }

    /** The stream name of the index files: {@code skp_idx_<name>}. */
    public String streamName() {
        return "skp_idx_" + definition.name();
    }

    /** The extension of the index data file ({@code .idx}, {@code .idx2} for minmax). */
    public abstract String fileExtension();

    /** The table columns the expression reads. */
    public Set<String> requiredColumns() {
        return definition.expression().requiredColumns();
    }

    /** The types of the index columns (the expression's elements). */
    public List<DataType> types() {
        return definition.expression().types();
    }

    /** Evaluates the index columns over {@code block}, which holds the required columns. */
    public List<Column> evaluate(Block block) {
        return definition.expression().evaluate(block, evaluation);
    }

    /** An empty aggregator for the next index granule. */
    public abstract Aggregator newAggregator();

    /**
     * The state of one index granule being built (ClickHouse's {@code IMergeTreeIndexAggregator}).
     */
    public interface Aggregator {
        /** Adds rows {@code [from, to)} of the index columns (one data granule). */
        void update(List<Column> columns, int from, int to);

        /** Whether no rows were added since the granule started. */
        boolean isEmpty();

        /** Writes the granule as ClickHouse serializes it ({@code serializeBinary}). */
        void serialize(ByteSink out);
    }

    @Override
    public String toString() {
        return definition.toSql();
    }
}
