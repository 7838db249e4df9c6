package io.github.s3mergetree.sink.mergetree.input;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.DefaultKind;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The table columns an input does not provide, computed over a block the way ClickHouse fills an
 * INSERT: an absent Array column of a Nested structure ({@code n.b} beside a provided {@code n.a})
 * gets arrays of defaults of the structure's sizes (the first provided column's); then {@code
 * DEFAULT expr} and {@code MATERIALIZED expr} are evaluated (in dependency order, a default may
 * read another computed column); other absent columns keep the type's default the converter
 * appended while filling the block.
 */
final class ComputedColumns {
    private final List<Integer> columns = new ArrayList<>();
    private final List<Expr> expressions = new ArrayList<>();

    /** Pairs {absent Nested column, the provided column of its structure giving the sizes}. */
    private final List<int[]> nestedFills = new ArrayList<>();

    private final EvaluationContext evaluation;

    /**
     * @param absent indices (into the block's columns) of the columns the input does not provide
     */
    ComputedColumns(InputContext ctx, List<Integer> absent) {
        this.evaluation = EvaluationContext.of(ctx.serverZone());
        List<String> names = ctx.layout().columnNames();
        if (ctx.layout().partFormat().shareNestedOffsets()) {
            List<DataType> types = ctx.layout().columnTypes();
            for (int c : absent) {
                int sizes = providedColumnOfStructure(names, types, absent, c);
                if (sizes >= 0) {
                    nestedFills.add(new int[] {c, sizes});
                }
            }
        }
        List<Integer> pending = new ArrayList<>();
        for (int c : absent) {
            ColumnDefinition def = ctx.schema().column(names.get(c)).orElseThrow();
            if ((def.defaultKind() == DefaultKind.DEFAULT
                            || def.defaultKind() == DefaultKind.MATERIALIZED)
                    && def.defaultExpression().isPresent()) {
                pending.add(c);
            }
        }
        // dependency order: a column is computed once no other pending column it reads is left
        Set<String> left = new HashSet<>();
        for (int c : pending) {
            left.add(names.get(c));
        }
        while (!pending.isEmpty()) {
            boolean progress = false;
            for (int i = 0; i < pending.size(); i++) {
                int c = pending.get(i);
                Expr e = ctx.schema().column(names.get(c)).orElseThrow().defaultExpression().get();
                Set<String> reads = new HashSet<>(e.requiredColumns());
                reads.remove(names.get(c));
                reads.retainAll(left);
                if (reads.isEmpty()) {
                    DataType target = ctx.layout().columnTypes().get(c);
                    if (!sameColumnShape(e.resultType(), target)) {
                        throw new IllegalArgumentException(
                                "the default of column "
                                        + names.get(c)
                                        + " ("
                                        + e.toSql()
                                        + ") has type "
                                        + e.resultType()
                                        + ", not "
                                        + target);
                    }
                    columns.add(c);
                    expressions.add(e);
                    left.remove(names.get(c));
                    pending.remove(i);
                    progress = true;
                    break;
                }
            }
            if (!progress) {
                throw new IllegalArgumentException("cyclic column defaults among " + left);
            }
        }
    }

    /**
     * The first provided Array column of absent column {@code c}'s Nested structure, or -1 when
     * {@code c} is not an Array of a Nested structure or none of the structure is provided.
     */
    private static int providedColumnOfStructure(
            List<String> names, List<DataType> types, List<Integer> absent, int c) {
        Optional<String> structure = NestedOffsets.structureOf(names.get(c));
        if (!(types.get(c) instanceof ArrayType) || structure.isEmpty()) {
            return -1;
        }
        for (int o = 0; o < names.size(); o++) {
            if (types.get(o) instanceof ArrayType
                    && !absent.contains(o)
                    && structure.equals(NestedOffsets.structureOf(names.get(o)))) {
                return o;
            }
        }
        return -1;
    }

    private static boolean sameColumnShape(DataType a, DataType b) {
        DataType x = a instanceof LowCardinalityType l ? l.nested() : a;
        DataType y = b instanceof LowCardinalityType l ? l.nested() : b;
        return x.equals(y);
    }

    boolean isEmpty() {
        return columns.isEmpty() && nestedFills.isEmpty();
    }

    /**
     * The block with the absent Nested columns sized as their structure and the computed columns
     * replaced by their expressions' values.
     */
    Block apply(Block block) {
        if (isEmpty() || block.rows() == 0) {
            return block;
        }
        List<Column> cols = new ArrayList<>(block.columns());
        for (int[] fill : nestedFills) {
            cols.set(
                    fill[0],
                    NestedOffsets.defaultsSizedLike(
                            (ArrayType) block.types().get(fill[0]),
                            (ArrayColumn) block.column(fill[1])));
        }
        Block current = new Block(block.names(), block.types(), cols);
        for (int i = 0; i < columns.size(); i++) {
            Column computed = expressions.get(i).evaluate(current, evaluation);
            cols.set(columns.get(i), computed);
            current = new Block(block.names(), block.types(), cols);
        }
        return current;
    }
}
