package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TypeKind;

/**
 * ClickHouse's {@code SingleValueData}, the state of any/anyLast/min/max and both halves of
 * argMin/argMax: at most one value of T. Serialized as a String's {@code Int32} size counting a
 * trailing zero byte ({@code -1}: no value), the bytes and the zero byte; for every other T as a
 * has-value flag byte followed, when set, by the value's single-value binary form.
 *
 * <p>The value is held in its single-value binary form ({@link ArgumentValues}), or null.
 */
final class SingleValue {
    private final DataType type;

    SingleValue(DataType type) {
        this.type = type;
    }

    DataType type() {
        return type;
    }

    byte[] read(ByteSource in) {
        if (type.kind() == TypeKind.STRING) {
            int size = in.readIntLE();
            if (size < 0) {
                return null;
            }
            if (size == 0 || size > (1 << 30)) {
                throw new IllegalArgumentException(
                        "String value size " + size + " in an aggregate state is invalid");
            }
            byte[] bytes = new byte[size - 1];
            in.readFully(bytes, 0, bytes.length);
            in.readByte();
            ByteArraySink v = new ByteArraySink(bytes.length + 2);
            v.writeVarUInt(bytes.length);
            v.write(bytes, 0, bytes.length);
            return v.toByteArray();
        }
        int flag = in.readByte();
        if (flag == 0) {
            return null;
        }
        if (flag != 1) {
            throw new IllegalArgumentException(
                    "has-value flag " + flag + " of an aggregate state is neither 0 nor 1");
        }
        return ArgumentValues.read(type, in);
    }

    void write(byte[] value, ByteSink out) {
        if (type.kind() == TypeKind.STRING) {
            if (value == null) {
                out.writeIntLE(-1);
                return;
            }
            int prefix = 0;
            while ((value[prefix] & 0x80) != 0) {
                prefix++;
            }
            prefix++;
            int len = value.length - prefix;
            out.writeIntLE(len + 1);
            out.write(value, prefix, len);
            out.writeByte(0);
            return;
        }
        if (value == null) {
            out.writeByte(0);
            return;
        }
        out.writeByte(1);
        out.write(value, 0, value.length);
    }

    /**
     * Whether {@code candidate} is less than {@code current} (true when there is no current). As
     * ClickHouse's {@code nan_direction_hint}: a NaN never replaces a value, and any number
     * replaces a NaN.
     */
    boolean less(byte[] candidate, byte[] current) {
        return replaces(candidate, current, -1);
    }

    /** Whether {@code candidate} is greater than {@code current}; NaN as in {@link #less}. */
    boolean greater(byte[] candidate, byte[] current) {
        return replaces(candidate, current, 1);
    }

    private boolean replaces(byte[] candidate, byte[] current, int sign) {
        if (current == null) {
            return true;
        }
        if (isNaN(candidate)) {
            return false;
        }
        if (isNaN(current)) {
            return true;
        }
        return Integer.signum(ArgumentValues.compare(type, candidate, current)) == sign;
    }

    private boolean isNaN(byte[] v) {
        return switch (type.kind()) {
            case FLOAT32 -> Float.isNaN(Float.intBitsToFloat((int) ArgumentValues.le(v, 4)));
            case FLOAT64 -> Double.isNaN(Double.longBitsToDouble(ArgumentValues.le(v, 8)));
            default -> false;
        };
    }
}
