package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Values of an aggregate function's argument type held as their single-value binary form
 * (ClickHouse's {@code serializeBinary}: numbers little-endian, String as VarUInt length + bytes,
 * Nullable as a flag byte + value, Array as VarUInt count + elements, Tuple as its elements): how
 * far one such value extends in a stream, and the order min/max/argMin/argMax compare values in.
 *
 * <p>Why its own reader: states embed their values in this form, and reading a state must find
 * where each value ends without the serialization layer (which depends on this package).
 */
final class ArgumentValues {
    private ArgumentValues() {}

    /** Reads one value of {@code type} from {@code in} and returns its bytes. */
    static byte[] read(DataType type, ByteSource in) {
        ByteArraySink out = new ByteArraySink(16);
        copy(type, in, out);
        return out.toByteArray();
    }

    private static void copy(DataType type, ByteSource in, ByteArraySink out) {
        if (type instanceof LowCardinalityType lc) {
            copy(lc.nested(), in, out);
            return;
        }
        if (type instanceof NullableType n) {
            int flag = in.readByte();
            out.writeByte(flag);
            if (flag == 0) {
                copy(n.nested(), in, out);
            }
            return;
        }
        if (type instanceof MapType m) {
            copy(m.storageType(), in, out);
            return;
        }
        if (type instanceof ArrayType a) {
            long n = in.readVarUInt();
            out.writeVarUInt(n);
            checkSize(n, "array size");
            for (long i = 0; i < n; i++) {
                copy(a.element(), in, out);
            }
            return;
        }
        if (type instanceof TupleType t) {
            for (DataType e : t.elements()) {
                copy(e, in, out);
            }
            return;
        }
        int width = type.fixedWidth();
        if (width < 0) {
            long n = in.readVarUInt();
            out.writeVarUInt(n);
            width = checkSize(n, "string size");
        }
        byte[] b = new byte[width];
        in.readFully(b, 0, width);
        out.write(b, 0, width);
    }

    static int checkSize(long n, String what) {
        if (n < 0 || n > (1 << 30)) {
            throw new IllegalArgumentException(
                    what + " " + Long.toUnsignedString(n) + " in an aggregate state is too large");
        }
        return (int) n;
    }

    /** Whether a value of a Nullable type in this form is NULL. */
    static boolean isNull(byte[] value) {
        return value[0] != 0;
    }

    /** A Nullable value's nested value (the bytes after the flag). */
    static byte[] nested(byte[] value) {
        return Arrays.copyOfRange(value, 1, value.length);
    }

    /**
     * Compares two values of {@code type} (not Nullable, Array, Tuple or Map) as ClickHouse's
     * {@code operator<} does: numbers by value (any comparison with NaN is false, reported here as
     * 0, "not less and not greater"), strings and fixed-width binary values (UUID, IPv6,
     * FixedString) as unsigned bytes with ClickHouse's UUID/IPv6 orders, Decimal and wide integers
     * numerically.
     */
    static int compare(DataType type, byte[] a, byte[] b) {
        switch (type.kind()) {
            case FLOAT32 -> {
                float x = Float.intBitsToFloat((int) le(a, 4));
                float y = Float.intBitsToFloat((int) le(b, 4));
                return x < y ? -1 : x > y ? 1 : 0;
            }
            case FLOAT64 -> {
                double x = Double.longBitsToDouble(le(a, 8));
                double y = Double.longBitsToDouble(le(b, 8));
                return x < y ? -1 : x > y ? 1 : 0;
            }
            case STRING, FIXED_STRING -> {
                int off = type.fixedWidth() < 0 ? varUIntLength(a) : 0;
                int offB = type.fixedWidth() < 0 ? varUIntLength(b) : 0;
                return Arrays.compareUnsigned(a, off, a.length, b, offB, b.length);
            }
            case UUID -> {
                // two UInt64 halves, high half first
                int c = Long.compareUnsigned(le(a, 8), le(b, 8));
                return c != 0 ? c : Long.compareUnsigned(leAt(a, 8), leAt(b, 8));
            }
            case IPV6 -> {
                return Arrays.compareUnsigned(a, b);
            }
            default -> {
                return integer(type, a).compareTo(integer(type, b));
            }
        }
    }

    /** An integer-like value (integers, Bool, dates, times, Decimal, Enum, IPv4) as a number. */
    static BigInteger integer(DataType type, byte[] v) {
        int w = v.length;
        byte[] be = new byte[w + 1];
        for (int i = 0; i < w; i++) {
            be[w - i] = v[i];
        }
        boolean unsigned =
                type.isUnsigned()
                        || switch (type.kind()) {
                            case UINT8,
                                    UINT16,
                                    UINT32,
                                    UINT64,
                                    UINT128,
                                    UINT256,
                                    BOOL,
                                    DATE,
                                    DATETIME,
                                    IPV4 ->
                                    true;
                            default -> false;
                        };
        if (!unsigned && w > 0 && v[w - 1] < 0) {
            be[0] = (byte) 0xFF;
        }
        return new BigInteger(be);
    }

    private static int varUIntLength(byte[] v) {
        int i = 0;
        while ((v[i] & 0x80) != 0) {
            i++;
        }
        return i + 1;
    }

    static long le(byte[] v, int width) {
        return leAt(v, 0, width);
    }

    private static long leAt(byte[] v, int off) {
        return leAt(v, off, 8);
    }

    private static long leAt(byte[] v, int off, int width) {
        long x = 0;
        for (int i = width - 1; i >= 0; i--) {
            x = (x << 8) | (v[off + i] & 0xFF);
        }
        return x;
    }
}
