package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Merges the states of one {@code AggregateFunction(f, T…)} column over a group of rows with equal
 * sorting keys into one state, in row order (ClickHouse's {@code AggregatingSortedAlgorithm}
 * merging each state column with f's {@code merge}).
 */
final class StateMerging {
    private StateMerging() {}

    /** A one-row column holding the merge of every state in {@code column}. */
    static Column merge(AggregateFunctionType type, Column column, String columnName) {
        StringColumn c = (StringColumn) column;
        List<byte[]> states = new ArrayList<>(c.size());
        for (int r = 0; r < c.size(); r++) {
            states.add(Arrays.copyOfRange(c.bytes(), c.start(r), c.end(r)));
        }
        byte[] merged = StateFunctions.of(type).mergeStates(states, "column " + columnName);
        StringColumn out = new StringColumn(1);
        out.add(merged, 0, merged.length);
        return out;
    }
}
