package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.SimpleAggregateFunction;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Consumes the merged row stream in sorted order and emits what the engine keeps: everything
 * (MergeTree), or one result per group of equal sorting keys (Replacing, Summing, Collapsing), with
 * ClickHouse's rules:
 *
 * <ul>
 *   <li>ReplacingMergeTree: the row with the greatest version, the last one on ties; without a
 *       version column the last row (newest part).
 *   <li>SummingMergeTree: the first row with the summed columns replaced by their sums (integers
 *       wrap around); a row whose sums are all zero is dropped.
 *   <li>AggregatingMergeTree: the first row, each {@code SimpleAggregateFunction(f, T)} column
 *       outside the sorting key replaced by {@code f} over the group ({@link SimpleAggregation}),
 *       each {@code AggregateFunction(f, T…)} column's states merged ({@link StateMerging}).
 *   <li>CollapsingMergeTree: with p rows of sign +1 and n of sign −1, the first −1 row if n ≥ p and
 *       the last +1 row if p ≥ n, but nothing when p = n and the group ends with a −1 row.
 *   <li>VersionedCollapsingMergeTree (the sorting key ends with the version, so a group is one key
 *       and one version): ClickHouse's VersionedCollapsingAlgorithm, a queue of rows of one sign
 *       where a row of another sign cancels the newest queued row; what remains is kept in order,
 *       and a queue grown to {@code min(max(3, max block rows), 8192) − 1} rows first lets its
 *       oldest row out.
 * </ul>
 *
 * The same reducer serves {@code optimize_on_insert} inside one insert block.
 */
abstract class RowReducer {
    /** Where reduced rows go. */
    interface RowSink {
        void append(Block src, int from, int to) throws IOException;
    }

    protected final MergingMode mode;
    protected final KeyExpression sortingKey;
    protected final RowSink out;

    RowReducer(MergeSpec spec, RowSink out) {
        this(spec.mode(), spec.sortingKey(), out);
    }

    RowReducer(MergingMode mode, KeyExpression sortingKey, RowSink out) {
        this.mode = mode;
        this.sortingKey = sortingKey;
        this.out = out;
    }

    static RowReducer create(MergeSpec spec, RowSink out) {
        return create(spec.mode(), spec.sortingKey(), spec.mergeMaxBlockSize(), out);
    }

    /**
     * @param maxBlockRows the block size of the merge ({@code merge_max_block_size}, or an insert
     *     block's rows), which bounds VersionedCollapsingMergeTree's queue as in ClickHouse
     */
    static RowReducer create(
            MergingMode mode, KeyExpression sortingKey, int maxBlockRows, RowSink out) {
        return switch (mode.kind()) {
            case ORDINARY -> new Ordinary(mode, sortingKey, out);
            case REPLACING, SUMMING, COLLAPSING, VERSIONED_COLLAPSING, AGGREGATING ->
                    new Grouping(mode, sortingKey, maxBlockRows, out);
        };
    }

    /**
     * Rows {@code [from, to)} of {@code block} come next in sorted order; {@code keys} are the
     * block's evaluated sorting key columns. A caller passes the same {@code keys} list instance
     * for the same block.
     */
    abstract void accept(Block block, List<Column> keys, int from, int to) throws IOException;

    abstract void finish() throws IOException;

    /** MergeTree: every row. */
    static final class Ordinary extends RowReducer {
        Ordinary(MergingMode mode, KeyExpression sortingKey, RowSink out) {
            super(mode, sortingKey, out);
        }

        @Override
        void accept(Block block, List<Column> keys, int from, int to) throws IOException {
            out.append(block, from, to);
        }

        @Override
        void finish() {}
    }

    /** Engines that reduce groups of equal keys. */
    static final class Grouping extends RowReducer {
        private Block group;
        private List<Column> prevKeys;
        private int prevRow = -1;
        private List<Column> withinKeys;
        private RowComparator within;

        /** VersionedCollapsingAlgorithm's {@code max_rows_in_queue}. */
        private final int maxRowsInQueue;

        Grouping(MergingMode mode, KeyExpression sortingKey, int maxBlockRows, RowSink out) {
            super(mode, sortingKey, out);
            this.maxRowsInQueue = Math.min(Math.max(3, maxBlockRows), 8192) - 1;
        }

        @Override
        void accept(Block block, List<Column> keys, int from, int to) throws IOException {
            if (group == null) {
                group = block.newEmpty(16);
            }
            int start = from;
            if (prevKeys != null && !equal(prevKeys, prevRow, keys, from)) {
                reduceGroup();
            }
            if (withinKeys != keys) {
                within = comparator(keys, keys);
                withinKeys = keys;
            }
            for (int r = from + 1; r < to; r++) {
                if (within.compare(r - 1, r) != 0) {
                    group.appendRange(block, start, r);
                    reduceGroup();
                    start = r;
                }
            }
            group.appendRange(block, start, to);
            prevKeys = keys;
            prevRow = to - 1;
        }

        private boolean equal(List<Column> a, int ra, List<Column> b, int rb) {
            return comparator(a, b).compare(ra, rb) == 0;
        }

        private RowComparator comparator(List<Column> a, List<Column> b) {
            List<RowComparator> parts = new ArrayList<>();
            List<DataType> types = sortingKey.types();
            for (int k = 0; k < types.size(); k++) {
                parts.add(RowComparators.forColumns(types.get(k), a.get(k), b.get(k)));
            }
            return parts.isEmpty() ? (x, y) -> 0 : RowComparators.lexicographic(parts);
        }

        @Override
        void finish() throws IOException {
            if (group != null && group.rows() > 0) {
                reduceGroup();
            }
        }

        private void reduceGroup() throws IOException {
            int n = group.rows();
            if (n == 0) {
                return;
            }
            switch (mode.kind()) {
                case REPLACING -> out.append(group, replacingWinner(), replacingWinner() + 1);
                case SUMMING -> summing();
                case COLLAPSING -> collapsing();
                case VERSIONED_COLLAPSING -> versionedCollapsing();
                case AGGREGATING -> aggregating();
                default -> throw new IllegalStateException("not a grouping mode");
            }
            group = group.newEmpty(16);
        }

        private int replacingWinner() {
            String ver = mode.versionColumn();
            int n = group.rows();
            if (ver == null) {
                return n - 1;
            }
            int idx = group.indexOf(ver);
            RowComparator cmp = RowComparators.forColumn(group.types().get(idx), group.column(idx));
            int best = 0;
            for (int r = 1; r < n; r++) {
                if (cmp.compare(r, best) >= 0) {
                    best = r;
                }
            }
            return best;
        }

        private void summing() throws IOException {
            Block row = group.newEmpty(1);
            row.appendRange(group, 0, 1);
            boolean anyNonZero = false;
            boolean anySummed = false;
            for (int c = 0; c < group.columnCount(); c++) {
                if (!isSummed(group.names().get(c), group.types().get(c))) {
                    continue;
                }
                anySummed = true;
                anyNonZero |= sumInto(group.column(c), row.column(c));
            }
            if (!anySummed || anyNonZero) {
                out.append(row, 0, 1);
            }
        }

        private boolean isSummed(String name, DataType type) {
            if (sortingKey.requiredColumns().contains(name)) {
                return false;
            }
            List<String> listed = mode.sumColumns();
            if (!listed.isEmpty() && !listed.contains(name)) {
                return false;
            }
            return switch (type.kind()) {
                case UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64, FLOAT32, FLOAT64 ->
                        true;
                case DECIMAL -> type.fixedWidth() <= 8;
                default -> false;
            };
        }

        /** Sums {@code col} into row 0 of {@code target}; returns whether the sum is non-zero. */
        private static boolean sumInto(Column col, Column target) {
            int n = col.size();
            switch (col.physicalType()) {
                case BYTE -> {
                    byte s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((ByteColumn) col).get(i);
                    }
                    ((ByteColumn) target).set(0, s);
                    return s != 0;
                }
                case SHORT -> {
                    short s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((ShortColumn) col).get(i);
                    }
                    ((ShortColumn) target).set(0, s);
                    return s != 0;
                }
                case INT -> {
                    int s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((IntColumn) col).get(i);
                    }
                    ((IntColumn) target).set(0, s);
                    return s != 0;
                }
                case LONG -> {
                    long s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((LongColumn) col).get(i);
                    }
                    ((LongColumn) target).set(0, s);
                    return s != 0;
                }
                case FLOAT -> {
                    float s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((FloatColumn) col).get(i);
                    }
                    ((FloatColumn) target).set(0, s);
                    return s != 0;
                }
                case DOUBLE -> {
                    double s = 0;
                    for (int i = 0; i < n; i++) {
                        s += ((DoubleColumn) col).get(i);
                    }
                    ((DoubleColumn) target).set(0, s);
                    return s != 0;
                }
                default -> throw new IllegalStateException("cannot sum " + col.physicalType());
            }
        }

        private void aggregating() throws IOException {
            int n = group.rows();
            List<Column> columns = null;
            for (int c = 0; c < group.columnCount(); c++) {
                DataType type = group.types().get(c);
                SimpleAggregateFunction f = type.simpleAggregateFunction();
                boolean states = type instanceof AggregateFunctionType;
                if (f == null && !states
                        || sortingKey.columnNames().contains(group.names().get(c))
                        || n == 1 && (states || SimpleAggregation.isIdentityOnOneRow(f, type))) {
                    continue;
                }
                if (columns == null) {
                    Block first = group.newEmpty(1);
                    first.appendRange(group, 0, 1);
                    columns = new ArrayList<>(first.columns());
                }
                try {
                    columns.set(
                            c,
                            states
                                    ? StateMerging.merge(
                                            (AggregateFunctionType) type,
                                            group.column(c),
                                            group.names().get(c))
                                    : SimpleAggregation.aggregate(f, type, group.column(c)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            e.getMessage()
                                    + " (column "
                                    + group.names().get(c)
                                    + " "
                                    + type.name()
                                    + ")",
                            e);
                }
            }
            if (columns == null) {
                out.append(group, 0, 1);
            } else {
                out.append(new Block(group.names(), group.types(), columns), 0, 1);
            }
        }

        private void collapsing() throws IOException {
            int idx = group.indexOf(mode.signColumn());
            ByteColumn sign = (ByteColumn) group.column(idx);
            int positives = 0;
            int negatives = 0;
            int firstNegative = -1;
            int lastPositive = -1;
            int n = group.rows();
            for (int r = 0; r < n; r++) {
                if (sign.get(r) > 0) {
                    positives++;
                    lastPositive = r;
                } else {
                    negatives++;
                    if (firstNegative < 0) {
                        firstNegative = r;
                    }
                }
            }
            boolean lastIsPositive = sign.get(n - 1) > 0;
            if (!lastIsPositive && positives == negatives) {
                return;
            }
            if (positives <= negatives && firstNegative >= 0) {
                out.append(group, firstNegative, firstNegative + 1);
            }
            if (positives >= negatives && lastPositive >= 0) {
                out.append(group, lastPositive, lastPositive + 1);
            }
        }

        /**
         * ClickHouse's VersionedCollapsingAlgorithm within one group (equal key and version): rows
         * of the queue's sign are queued, a row of another sign cancels the newest queued row (and
         * is dropped), and a queue at its limit lets its oldest row out before the next row.
         */
        private void versionedCollapsing() throws IOException {
            ByteColumn sign = (ByteColumn) group.column(group.indexOf(mode.signColumn()));
            int n = group.rows();
            int[] queue = new int[n];
            int head = 0;
            int tail = 0;
            byte queuedSign = 0;
            for (int r = 0; r < n; r++) {
                if (tail - head >= maxRowsInQueue) {
                    out.append(group, queue[head], queue[head] + 1);
                    head++;
                }
                byte s = sign.get(r);
                if (head == tail) {
                    queuedSign = s;
                    queue[tail++] = r;
                } else if (s == queuedSign) {
                    queue[tail++] = r;
                } else {
                    tail--;
                }
            }
            for (int i = head; i < tail; i++) {
                out.append(group, queue[i], queue[i] + 1);
            }
        }
    }
}
