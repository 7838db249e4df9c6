package io.github.s3mergetree.engine.index;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.TupleType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code TYPE set(max_rows)}: per index granule the distinct values (tuples of the index columns)
 * in the order of their first row, or nothing once there are more than {@code max_rows} of them
 * (ClickHouse's {@code MergeTreeIndexSet}, file {@code .idx}; {@code set(0)} has no limit).
 *
 * <p>Serialized as ClickHouse does: the number of values as UInt64 (0 for a granule over the
 * limit), then each index column's values in the column-stream ("bulk") serialization, every
 * substream into the same buffer. As ClickHouse, the limit is checked before each data granule, so
 * the granule that crosses it is added whole.
 */
final class SetSkipIndex extends SkipIndex {
    private final long maxRows;

    SetSkipIndex(SkipIndexDefinition definition, EvaluationContext evaluation) {
        super(definition, evaluation);
        this.maxRows = Long.parseLong(definition.arguments().get(0));
    }

    @Override
    public String fileExtension() {
        return ".idx";
    }

    @Override
    public Aggregator newAggregator() {
        return new SetAggregator(types(), maxRows);
    }

    private static final class SetAggregator implements Aggregator {
        private final List<DataType> types;
        private final long maxRows;
        private final List<Column> values = new ArrayList<>();
        private final Set<ByteBuffer> seen = new HashSet<>();
        private final ByteArraySink key = new ByteArraySink(64);

        SetAggregator(List<DataType> types, long maxRows) {
            this.types = types;
            this.maxRows = maxRows;
            for (DataType t : types) {
                values.add(Columns.create(t, 64));
            }
        }

        @Override
        public boolean isEmpty() {
            return seen.isEmpty();
        }

        private boolean overLimit() {
            return maxRows != 0 && seen.size() > maxRows;
        }

        @Override
        public void update(List<Column> columns, int from, int to) {
            if (overLimit()) {
                return;
            }
            for (int r = from; r < to; r++) {
                // equal values are equal bytes: ClickHouse's set compares keys bit for bit
                key.reset();
                for (int c = 0; c < types.size(); c++) {
                    ValueSerde.write(types.get(c), columns.get(c), r, key);
                }
                if (seen.add(ByteBuffer.wrap(key.toByteArray()))) {
                    for (int c = 0; c < types.size(); c++) {
                        values.get(c).appendFrom(columns.get(c), r);
                    }
                }
            }
        }

        @Override
        public void serialize(ByteSink out) {
            if (overLimit()) {
                out.writeLongLE(0);
                return;
            }
            int rows = seen.size();
            out.writeLongLE(rows);
            for (int c = 0; c < types.size(); c++) {
                BulkSerialization.forColumn("x", types.get(c)).writePrefix(stream -> out);
                writeValues(types.get(c), values.get(c), 0, rows, out);
            }
        }

        /**
         * The bulk serialization without position-independent encoding, as the set index writes it:
         * an Array's offsets are the column's own cumulative ends (UInt64), not sizes; every
         * substream goes to {@code out} in ClickHouse's order (the prefixes first, by the caller).
         */
        private static void writeValues(
                DataType type, Column column, int from, int to, ByteSink out) {
            if (type instanceof MapType m) {
                writeValues(m.storageType(), column, from, to, out);
            } else if (type instanceof ArrayType a) {
                ArrayColumn ac = (ArrayColumn) column;
                for (int r = from; r < to; r++) {
                    out.writeLongLE(ac.end(r));
                }
                if (to > from) {
                    writeValues(a.element(), ac.elements(), ac.start(from), ac.end(to - 1), out);
                }
            } else if (type instanceof TupleType t) {
                TupleColumn tc = (TupleColumn) column;
                for (int i = 0; i < tc.arity(); i++) {
                    writeValues(t.elements().get(i), tc.element(i), from, to, out);
                }
            } else {
                BulkSerialization.forIndexGranule(type).serialize(column, from, to, stream -> out);
            }
        }
    }
}
