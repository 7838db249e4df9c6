package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.ddl.ProjectionDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.projection.ProjectionAggregation;
import io.github.s3mergetree.engine.sort.KeySorter;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A table's projection ready to be computed from a part's rows: its {@link ProjectionDefinition}
 * and the context its expressions are evaluated in (ClickHouse's {@code
 * ProjectionDescription::calculate}).
 *
 * <p>Why: a part's projection is derived from the part's rows alone — the stored columns sorted by
 * the projection's ORDER BY (normal), or one row of aggregate states per GROUP BY key (aggregating)
 * — so the part writer computes it from the rows it wrote, for inserted and merged parts alike.
 */
public final class PartProjection {
    private final ProjectionDefinition definition;
    private final EvaluationContext evaluation;

    /** The rows of a projection part and their primary key (the projection's sorting key). */
    public record Rows(Block block, Block primaryKey) {}

    public PartProjection(ProjectionDefinition definition, EvaluationContext evaluation) {
        this.definition = Objects.requireNonNull(definition);
        this.evaluation = Objects.requireNonNull(evaluation);
    }

    public ProjectionDefinition definition() {
        return definition;
    }

    /** The columns of the parent part the projection reads. */
    public Set<String> sourceColumns() {
        Set<String> out = new LinkedHashSet<>();
        if (!definition.aggregating()) {
            out.addAll(definition.columns());
            return out;
        }
        out.addAll(definition.sortingKey().requiredColumns());
        for (ProjectionDefinition.Aggregate a : definition.aggregates()) {
            if (a.argument() != null) {
                out.addAll(a.argument().requiredColumns());
            }
        }
        return out;
    }

    /**
     * The projection's rows for a part whose rows are {@code part} (which holds at least {@link
     * #sourceColumns()}), sorted by the projection's key; rows with equal keys keep their order in
     * the part.
     */
    public Rows compute(Block part) {
        KeyExpression key = definition.sortingKey();
        if (definition.aggregating()) {
            Block aggregated = ProjectionAggregation.aggregate(definition, part, evaluation);
            List<Column> keys = new ArrayList<>();
            for (int i = 0; i < key.size(); i++) {
                keys.add(aggregated.column(i));
            }
            return sorted(aggregated, key, keys);
        }
        List<String> names = definition.columns();
        List<DataType> types = new ArrayList<>(names.size());
        List<Column> columns = new ArrayList<>(names.size());
        for (String n : names) {
            int i = part.indexOf(n);
            if (i < 0) {
                throw new IllegalArgumentException(
                        "projection "
                                + definition.name()
                                + " reads column "
                                + n
                                + ", which the part's rows do not have");
            }
            types.add(part.types().get(i));
            columns.add(part.column(i));
        }
        Block stored = new Block(names, types, columns);
        return sorted(stored, key, key.evaluate(stored, evaluation));
    }

    private static Rows sorted(Block block, KeyExpression key, List<Column> keyColumns) {
        int n = block.rows();
        int[] identity = new int[n];
        for (int i = 0; i < n; i++) {
            identity[i] = i;
        }
        int[] perm = key.isEmpty() ? identity : KeySorter.sort(key.types(), keyColumns, identity);
        List<Column> sortedKey = new ArrayList<>(keyColumns.size());
        for (Column c : keyColumns) {
            sortedKey.add(c.permute(perm, n));
        }
        return new Rows(
                block.permute(perm, n), new Block(key.columnNames(), key.types(), sortedKey));
    }
}
