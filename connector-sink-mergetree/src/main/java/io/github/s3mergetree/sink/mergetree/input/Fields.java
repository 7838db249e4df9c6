package io.github.s3mergetree.sink.mergetree.input;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;

/**
 * Positional access to the fields of a {@link RowData} or the elements of an {@link ArrayData}
 * through one type, so that one set of value writers serves top-level fields, array elements, map
 * keys/values and tuple elements. Instances are mutable views ({@link Rows#of}, {@link Arrays#of})
 * reused for every record: no allocation per value.
 */
abstract class Fields {
    abstract boolean isNullAt(int i);

    abstract boolean getBoolean(int i);

    abstract byte getByte(int i);

    abstract short getShort(int i);

    abstract int getInt(int i);

    abstract long getLong(int i);

    abstract float getFloat(int i);

    abstract double getDouble(int i);

    abstract StringData getString(int i);

    abstract DecimalData getDecimal(int i, int precision, int scale);

    abstract TimestampData getTimestamp(int i, int precision);

    abstract byte[] getBinary(int i);

    abstract ArrayData getArray(int i);

    abstract MapData getMap(int i);

    abstract RowData getRow(int i, int arity);

    /** A view of a {@link RowData}'s fields. */
    static final class Rows extends Fields {
        private RowData row;

        Rows of(RowData r) {
            this.row = r;
            return this;
        }

        @Override
        boolean isNullAt(int i) {
            return row.isNullAt(i);
        }

        @Override
        boolean getBoolean(int i) {
            return row.getBoolean(i);
        }

        @Override
        byte getByte(int i) {
            return row.getByte(i);
        }

        @Override
        short getShort(int i) {
            return row.getShort(i);
        }

        @Override
        int getInt(int i) {
            return row.getInt(i);
        }

        @Override
        long getLong(int i) {
            return row.getLong(i);
        }

        @Override
        float getFloat(int i) {
            return row.getFloat(i);
        }

        @Override
        double getDouble(int i) {
            return row.getDouble(i);
        }

        @Override
        StringData getString(int i) {
            return row.getString(i);
        }

        @Override
        DecimalData getDecimal(int i, int precision, int scale) {
            return row.getDecimal(i, precision, scale);
        }

        @Override
        TimestampData getTimestamp(int i, int precision) {
            return row.getTimestamp(i, precision);
        }

        @Override
        byte[] getBinary(int i) {
            return row.getBinary(i);
        }

        @Override
        ArrayData getArray(int i) {
            return row.getArray(i);
        }

        @Override
        MapData getMap(int i) {
            return row.getMap(i);
        }

        @Override
        RowData getRow(int i, int arity) {
            return row.getRow(i, arity);
        }
    }

    /** A view of an {@link ArrayData}'s elements. */
    static final class Arrays extends Fields {
        private ArrayData array;

        Arrays of(ArrayData a) {
            this.array = a;
            return this;
        }

        int size() {
            return array.size();
        }

        @Override
        boolean isNullAt(int i) {
            return array.isNullAt(i);
        }

        @Override
        boolean getBoolean(int i) {
            return array.getBoolean(i);
        }

        @Override
        byte getByte(int i) {
            return array.getByte(i);
        }

        @Override
        short getShort(int i) {
            return array.getShort(i);
        }

        @Override
        int getInt(int i) {
            return array.getInt(i);
        }

        @Override
        long getLong(int i) {
            return array.getLong(i);
        }

        @Override
        float getFloat(int i) {
            return array.getFloat(i);
        }

        @Override
        double getDouble(int i) {
            return array.getDouble(i);
        }

        @Override
        StringData getString(int i) {
            return array.getString(i);
        }

        @Override
        DecimalData getDecimal(int i, int precision, int scale) {
            return array.getDecimal(i, precision, scale);
        }

        @Override
        TimestampData getTimestamp(int i, int precision) {
            return array.getTimestamp(i, precision);
        }

        @Override
        byte[] getBinary(int i) {
            return array.getBinary(i);
        }

        @Override
        ArrayData getArray(int i) {
            return array.getArray(i);
        }

        @Override
        MapData getMap(int i) {
            return array.getMap(i);
        }

        @Override
        RowData getRow(int i, int arity) {
            return array.getRow(i, arity);
        }
    }
}
