package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.FloatingPoint;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.List;

/**
 * {@code TYPE minmax}: per index granule and index column the smallest and the largest value
 * (ClickHouse's {@code MergeTreeIndexMinMax}, format version 2, file {@code .idx2}).
 *
 * <p>As ClickHouse computes them: per data granule the extremes of the column with NaNs skipped
 * (all NaN: NaN) and, for a Nullable column, NULL as the greatest value (a granule with a NULL has
 * maximum NULL; all NULL: both NULL); the granules of an index granule are combined with {@code
 * accurateLess}, which orders NaN after every number (and NULL after everything). Each bound is
 * written as the type's binary serialization of the value ({@code serializeBinary(Field)}; NULL is
 * the Nullable flag 1).
 */
final class MinMaxSkipIndex extends SkipIndex {
    MinMaxSkipIndex(SkipIndexDefinition definition, EvaluationContext evaluation) {
        super(definition, evaluation);
    }

    @Override
    public String fileExtension() {
        return ".idx2";
    }

    @Override
    public Aggregator newAggregator() {
        return new MinMaxAggregator(types());
    }

    /** A bound: a value (a row of the accumulator column), NaN, or NULL (+infinity). */
    private enum Kind {
        VALUE,
        NAN,
        NULL
    }

    private static final class MinMaxAggregator implements Aggregator {
        private final List<DataType> types;
        private final Column[] values;
        private final Kind[] minKind;
        private final Kind[] maxKind;
        private final int[] minRow;
        private final int[] maxRow;
        private boolean empty = true;

        MinMaxAggregator(List<DataType> types) {
            this.types = types;
            int n = types.size();
            values = new Column[n];
            minKind = new Kind[n];
            maxKind = new Kind[n];
            minRow = new int[n];
            maxRow = new int[n];
            for (int i = 0; i < n; i++) {
                values[i] = Columns.create(types.get(i), 16);
            }
        }

        @Override
        public boolean isEmpty() {
            return empty;
        }

        @Override
        public void update(List<Column> columns, int from, int to) {
            for (int i = 0; i < types.size(); i++) {
                updateColumn(i, columns.get(i), from, to);
            }
            empty = false;
        }

        private void updateColumn(int i, Column column, int from, int to) {
            DataType type = types.get(i);
            // NULL is the greatest value (getExtremesNullLast), LowCardinality(Nullable) included
            boolean nullLast =
                    (type instanceof LowCardinalityType lc ? lc.nested() : type)
                            instanceof NullableType;
            RowComparator cmp = RowComparators.forColumn(type, column);
            int nulls = 0;
            int min = -1;
            int max = -1;
            for (int r = from; r < to; r++) {
                if (column instanceof NullableColumn nc && nc.isNull(r)) {
                    nulls++;
                    continue;
                }
                if (FloatingPoint.isNaN(type, nested(column), r)) {
                    continue;
                }
                if (min < 0) {
                    min = r;
                    max = r;
                } else if (cmp.compare(r, min) < 0) {
                    min = r;
                } else if (cmp.compare(r, max) > 0) {
                    max = r;
                }
            }
            Kind fMin;
            Kind fMax;
            int base = values[i].size();
            if (nulls == to - from) {
                fMin = Kind.NULL;
                fMax = Kind.NULL;
            } else {
                if (min < 0) {
                    fMin = Kind.NAN;
                    fMax = Kind.NAN;
                } else {
                    fMin = Kind.VALUE;
                    fMax = Kind.VALUE;
                    values[i].appendFrom(column, min);
                    values[i].appendFrom(column, max);
                }
                if (nulls > 0 && nullLast) {
                    fMax = Kind.NULL;
                }
            }
            if (empty) {
                minKind[i] = fMin;
                minRow[i] = base;
                maxKind[i] = fMax;
                maxRow[i] = base + 1;
                return;
            }
            // left = accurateLess(left, fieldMin) ? left : fieldMin, and the other way for right
            RowComparator acc = RowComparators.forColumn(type, values[i]);
            if (!less(acc, minKind[i], minRow[i], fMin, base)) {
                minKind[i] = fMin;
                minRow[i] = base;
            }
            if (less(acc, maxKind[i], maxRow[i], fMax, base + 1)) {
                maxKind[i] = fMax;
                maxRow[i] = base + 1;
            }
            compact(i);
        }

        /** Keeps the accumulator column at the two current bounds when it grows. */
        private void compact(int i) {
            if (values[i].size() < 1024) {
                return;
            }
            Column c = values[i].newEmpty(16);
            c.appendFrom(values[i], minKind[i] == Kind.VALUE ? minRow[i] : 0);
            c.appendFrom(values[i], maxKind[i] == Kind.VALUE ? maxRow[i] : 0);
            values[i] = c;
            minRow[i] = 0;
            maxRow[i] = 1;
        }

        private static boolean less(RowComparator cmp, Kind a, int ra, Kind b, int rb) {
            if (a == Kind.NULL) {
                return false;
            }
            if (b == Kind.NULL) {
                return true;
            }
            // accurateLess orders NaN after every number
            if (a == Kind.NAN) {
                return false;
            }
            if (b == Kind.NAN) {
                return true;
            }
            return cmp.compare(ra, rb) < 0;
        }

        private static Column nested(Column column) {
            return column instanceof NullableColumn nc ? nc.nested() : column;
        }

        @Override
        public void serialize(ByteSink out) {
            for (int i = 0; i < types.size(); i++) {
                write(types.get(i), minKind[i], minRow[i], values[i], out);
                write(types.get(i), maxKind[i], maxRow[i], values[i], out);
            }
        }

        private static void write(DataType type, Kind kind, int row, Column values, ByteSink out) {
            switch (kind) {
                case VALUE -> ValueSerde.write(type, values, row, out);
                case NULL -> out.writeByte(1);
                case NAN -> {
                    DataType t = type instanceof LowCardinalityType lc ? lc.nested() : type;
                    if (t instanceof NullableType n) {
                        out.writeByte(0);
                        t = n.nested();
                    }
                    // the quiet NaN ClickHouse's getExtremes returns for a column of NaNs
                    if (t.kind() == TypeKind.FLOAT32) {
                        out.writeIntLE(Float.floatToRawIntBits(Float.NaN));
                    } else {
                        out.writeLongLE(Double.doubleToRawLongBits(Double.NaN));
                    }
                }
            }
        }
    }
}
