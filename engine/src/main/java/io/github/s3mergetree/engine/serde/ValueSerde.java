package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;

/**
 * ClickHouse's single-value binary form ({@code serializeBinary}), used by {@code primary.idx},
 * {@code partition.dat}, {@code minmax_*.idx} and, row after row, by the RowBinary format: numbers
 * little-endian, String as VarUInt length + bytes, Nullable as a flag byte (1 = NULL) + value,
 * Array/Map as VarUInt count + elements, Tuple as its elements, LowCardinality(T) as T, an
 * AggregateFunction state as the function serializes it (no length prefix).
 */
public final class ValueSerde {
    private ValueSerde() {}

    /** Writes row {@code row} of {@code column} (of {@code type}) to {@code out}. */
    public static void write(DataType type, Column column, int row, ByteSink out) {
        if (type instanceof LowCardinalityType lc) {
            write(lc.nested(), column, row, out);
            return;
        }
        if (type instanceof NullableType n) {
            NullableColumn nc = (NullableColumn) column;
            if (nc.isNull(row)) {
                out.writeByte(1);
            } else {
                out.writeByte(0);
                write(n.nested(), nc.nested(), row, out);
            }
            return;
        }
        if (type instanceof MapType m) {
            write(m.storageType(), column, row, out);
            return;
        }
        if (type instanceof ArrayType a) {
            ArrayColumn ac = (ArrayColumn) column;
            int s = ac.start(row);
            int e = ac.end(row);
            out.writeVarUInt(e - s);
            for (int i = s; i < e; i++) {
                write(a.element(), ac.elements(), i, out);
            }
            return;
        }
        if (type instanceof TupleType t) {
            TupleColumn tc = (TupleColumn) column;
            for (int i = 0; i < tc.arity(); i++) {
                write(t.elements().get(i), tc.element(i), row, out);
            }
            return;
        }
        if (type instanceof AggregateFunctionType) {
            // a state is its own serialization, without a length prefix
            StringColumn sc = (StringColumn) column;
            out.write(sc.bytes(), sc.start(row), sc.end(row) - sc.start(row));
            return;
        }
        switch (type.physicalType()) {
            case BYTE -> out.writeByte(((ByteColumn) column).get(row));
            case SHORT -> out.writeShortLE(((ShortColumn) column).get(row));
            case INT -> out.writeIntLE(((IntColumn) column).get(row));
            case LONG -> out.writeLongLE(((LongColumn) column).get(row));
            case FLOAT -> out.writeIntLE(Float.floatToRawIntBits(((FloatColumn) column).get(row)));
            case DOUBLE ->
                    out.writeLongLE(Double.doubleToRawLongBits(((DoubleColumn) column).get(row)));
            case FIXED_BYTES -> {
                FixedBytesColumn f = (FixedBytesColumn) column;
                out.write(f.data(), row * f.width(), f.width());
            }
            case STRING -> {
                StringColumn sc = (StringColumn) column;
                int s = sc.start(row);
                out.writeVarUInt(sc.end(row) - s);
                out.write(sc.bytes(), s, sc.end(row) - s);
            }
            default -> throw new IllegalArgumentException("cannot serialize " + type.name());
        }
    }

    /** Writes the default value of {@code type} (zero bytes, empty string, NULL, empty array). */
    public static void writeDefault(DataType type, ByteSink out) {
        Column c = io.github.s3mergetree.engine.column.Columns.create(type, 1);
        io.github.s3mergetree.engine.column.Columns.appendDefault(type, c);
        write(type, c, 0, out);
    }

    /** Reads one value of {@code type} from {@code in} and appends it to {@code column}. */
    public static void read(DataType type, ByteSource in, Column column) {
        if (type instanceof LowCardinalityType lc) {
            read(lc.nested(), in, column);
            return;
        }
        if (type instanceof NullableType n) {
            NullableColumn nc = (NullableColumn) column;
            if (in.readByte() != 0) {
                nc.addNull();
            } else {
                read(n.nested(), in, nc.nested());
                nc.addNotNull();
            }
            return;
        }
        if (type instanceof MapType m) {
            read(m.storageType(), in, column);
            return;
        }
        if (type instanceof ArrayType a) {
            ArrayColumn ac = (ArrayColumn) column;
            long n = in.readVarUInt();
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("array size " + n + " is too large");
            }
            for (long i = 0; i < n; i++) {
                read(a.element(), in, ac.elements());
            }
            ac.endRow();
            return;
        }
        if (type instanceof TupleType t) {
            TupleColumn tc = (TupleColumn) column;
            for (int i = 0; i < tc.arity(); i++) {
                read(t.elements().get(i), in, tc.element(i));
            }
            return;
        }
        if (type instanceof AggregateFunctionType af) {
            byte[] state = StateFunctions.of(af).readState(in);
            ((StringColumn) column).add(state, 0, state.length);
            return;
        }
        switch (type.physicalType()) {
            case BYTE -> ((ByteColumn) column).add((byte) in.readByte());
            case SHORT -> ((ShortColumn) column).add((short) in.readShortLE());
            case INT -> ((IntColumn) column).add(in.readIntLE());
            case LONG -> ((LongColumn) column).add(in.readLongLE());
            case FLOAT -> ((FloatColumn) column).add(Float.intBitsToFloat(in.readIntLE()));
            case DOUBLE -> ((DoubleColumn) column).add(Double.longBitsToDouble(in.readLongLE()));
            case FIXED_BYTES -> {
                FixedBytesColumn f = (FixedBytesColumn) column;
                byte[] tmp = new byte[f.width()];
                in.readFully(tmp, 0, tmp.length);
                f.add(tmp, 0);
            }
            case STRING -> {
                StringColumn sc = (StringColumn) column;
                long len = in.readVarUInt();
                if (len < 0 || len > Integer.MAX_VALUE - 16) {
                    throw new IllegalArgumentException("string length " + len + " is too large");
                }
                byte[] b = sc.reserveBytes((int) len);
                in.readFully(b, sc.totalBytes(), (int) len);
                sc.commitRow((int) len);
            }
            default -> throw new IllegalArgumentException("cannot deserialize " + type.name());
        }
    }
}
