package io.github.s3mergetree.engine.projection;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.ddl.ProjectionDefinition;
import io.github.s3mergetree.engine.ddl.ProjectionStateTypes;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.KeySorter;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes the rows of an aggregating projection part from a part's rows: one row per distinct
 * GROUP BY key, in key order, holding the keys and, per aggregate, its state serialized as
 * ClickHouse serializes it (ClickHouse's projection {@code calculate} at {@code
 * WithMergeableState}):
 *
 * <ul>
 *   <li>{@code count()} / {@code count(x)}: the number of rows, VarUInt ({@code
 *       AggregateFunctionCount::serialize});
 *   <li>{@code sum(x)}: the sum in UInt64, Int64 (wrapping as ClickHouse's) or Float64,
 *       little-endian ({@code AggregateFunctionSumData});
 *   <li>{@code min(x)} / {@code max(x)}: a flag byte 1 then the value little-endian ({@code
 *       SingleValueDataFixed::write}).
 * </ul>
 *
 * <p>Scope: a small serializer for exactly these states, kept to projection parts. It must move
 * onto the engine's {@code AggregateFunction} states (engine/types, engine/merge) once they land.
 * Float sums are added row by row; ClickHouse adds a column in several lanes, so a Float64 sum may
 * differ from its own in the last bits.
 */
public final class ProjectionAggregation {
    private ProjectionAggregation() {}

    /**
     * The projection's rows for {@code part}: the GROUP BY keys, then one {@link
     * ProjectionStateType} column per aggregate; rows sorted by the keys.
     */
    public static Block aggregate(
            ProjectionDefinition projection, Block part, EvaluationContext evaluation) {
        KeyExpression key = projection.sortingKey();
        int n = part.rows();
        List<Column> keys = key.evaluate(part, evaluation);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        if (!key.isEmpty()) {
            order = KeySorter.sort(key.types(), keys, order);
        }
        List<RowComparator> parts = new ArrayList<>();
        for (int c = 0; c < key.size(); c++) {
            parts.add(RowComparators.forColumn(key.types().get(c), keys.get(c)));
        }
        RowComparator same = RowComparators.lexicographic(parts);
        // group boundaries in key order: group g spans order[starts[g] .. starts[g + 1])
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (i == 0 || (!key.isEmpty() && same.compare(order[i - 1], order[i]) != 0)) {
                starts.add(i);
            }
        }
        starts.add(n);
        int groups = starts.size() - 1;

        List<String> names = new ArrayList<>(key.columnNames());
        List<DataType> types = new ArrayList<>(key.types());
        List<Column> columns = new ArrayList<>();
        for (int c = 0; c < key.size(); c++) {
            Column out = Columns.create(key.types().get(c), groups);
            for (int g = 0; g < groups; g++) {
                out.appendFrom(keys.get(c), order[starts.get(g)]);
            }
            columns.add(out);
        }
        for (ProjectionDefinition.Aggregate a : projection.aggregates()) {
            Column argument = a.argument() == null ? null : a.argument().evaluate(part, evaluation);
            StringColumn states = new StringColumn(groups);
            ByteArraySink state = new ByteArraySink(32);
            ByteArraySink value = new ByteArraySink(16);
            for (int g = 0; g < groups; g++) {
                state.reset();
                writeState(a, argument, order, starts.get(g), starts.get(g + 1), state, value);
                states.add(state.buffer(), 0, state.size());
            }
            names.add(a.columnName());
            types.add(new ProjectionStateType(a.stateTypeName()));
            columns.add(states);
        }
        return new Block(names, types, columns);
    }

    private static void writeState(
            ProjectionDefinition.Aggregate a,
            Column argument,
            int[] order,
            int from,
            int to,
            ByteArraySink state,
            ByteArraySink value) {
        switch (a.function()) {
            case COUNT -> state.writeVarUInt(to - from);
            case SUM -> writeSum(a.argumentType(), argument, order, from, to, state, value);
            case MIN, MAX -> {
                DataType t = a.argumentType();
                RowComparator cmp = RowComparators.forColumn(t, argument);
                int best = order[from];
                for (int i = from + 1; i < to; i++) {
                    int c = cmp.compare(order[i], best);
                    if (a.function() == ProjectionDefinition.AggregateFunction.MIN
                            ? c < 0
                            : c > 0) {
                        best = order[i];
                    }
                }
                state.writeByte(1);
                ValueSerde.write(t, argument, best, state);
            }
        }
    }

    private static void writeSum(
            DataType t,
            Column argument,
            int[] order,
            int from,
            int to,
            ByteArraySink state,
            ByteArraySink value) {
        DataType result = ProjectionStateTypes.sumResultType(t);
        int width = t.fixedWidth();
        boolean floating = result.name().equals("Float64");
        long integer = 0;
        double real = 0;
        for (int i = from; i < to; i++) {
            value.reset();
            ValueSerde.write(t, argument, order[i], value);
            long bits = 0;
            byte[] b = value.buffer();
            for (int k = 0; k < width; k++) {
                bits |= (b[k] & 0xffL) << (8 * k);
            }
            if (floating) {
                real +=
                        width == 4
                                ? Float.intBitsToFloat((int) bits)
                                : Double.longBitsToDouble(bits);
            } else {
                if (!t.isUnsigned() && width < 8) {
                    int shift = 64 - 8 * width;
                    bits = (bits << shift) >> shift; // sign-extend
                }
                integer += bits;
            }
        }
        long out = floating ? Double.doubleToRawLongBits(real) : integer;
        for (int k = 0; k < 8; k++) {
            state.writeByte((int) (out >>> (8 * k)));
        }
    }
}
