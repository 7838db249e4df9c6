package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TupleType;

/** Creates columns for data types and appends type-aware default values. */
public final class Columns {
    private Columns() {}

    /** An empty column able to hold values of {@code type}. */
    /** Whether {@link #create} makes a plain {@link StringColumn} for {@code type}. */
    public static boolean isStringColumn(DataType type) {
        if (type instanceof LowCardinalityType lc) {
            return isStringColumn(lc.nested());
        }
        return !(type instanceof NullableType
                        || type instanceof MapType
                        || type instanceof ArrayType
                        || type instanceof TupleType)
                && type.physicalType() == PhysicalType.STRING;
    }

    public static Column create(DataType type, int capacity) {
        if (type instanceof LowCardinalityType lc) {
            return create(lc.nested(), capacity);
        }
        if (type instanceof NullableType n) {
            return new NullableColumn(new ByteColumn(capacity), create(n.nested(), capacity));
        }
        if (type instanceof MapType m) {
            return create(m.storageType(), capacity);
        }
        if (type instanceof ArrayType a) {
            return new ArrayColumn(create(a.element(), capacity), capacity);
        }
        if (type instanceof TupleType t) {
            Column[] e = new Column[t.elements().size()];
            for (int i = 0; i < e.length; i++) {
                e[i] = create(t.elements().get(i), capacity);
            }
            return new TupleColumn(e);
        }
        return switch (type.physicalType()) {
            case BYTE -> new ByteColumn(capacity);
            case SHORT -> new ShortColumn(capacity);
            case INT -> new IntColumn(capacity);
            case LONG -> new LongColumn(capacity);
            case FLOAT -> new FloatColumn(capacity);
            case DOUBLE -> new DoubleColumn(capacity);
            case FIXED_BYTES -> new FixedBytesColumn(type.fixedWidth(), capacity);
            case STRING -> new StringColumn(capacity);
            default -> throw new IllegalArgumentException("no column for type " + type.name());
        };
    }

    /**
     * Appends ClickHouse's default value of {@code type}: zero / empty / NULL, for an Enum its
     * smallest element (an Enum column may not hold a value that names no element), for an
     * AggregateFunction the empty state.
     */
    public static void appendDefault(DataType type, Column column) {
        if (type instanceof EnumType e) {
            if (column instanceof ByteColumn b) {
                b.add((byte) e.defaultValue());
            } else {
                ((ShortColumn) column).add((short) e.defaultValue());
            }
            return;
        }
        if (type instanceof TupleType t) {
            TupleColumn tc = (TupleColumn) column;
            for (int i = 0; i < tc.arity(); i++) {
                appendDefault(t.elements().get(i), tc.element(i));
            }
            return;
        }
        if (type instanceof AggregateFunctionType af) {
            byte[] empty = StateFunctions.of(af).emptyState();
            ((StringColumn) column).add(empty, 0, empty.length);
            return;
        }
        column.appendDefault();
    }
}
