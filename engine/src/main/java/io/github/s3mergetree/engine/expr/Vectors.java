package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TypeKind;

/** Conversions between typed column vectors and flat primitive arrays for the kernels. */
final class Vectors {
    private Vectors() {}

    /** The type without a LowCardinality wrapper (a Nullable inside is kept). */
    static DataType stripLowCardinality(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    /** Whether integers of {@code t} are unsigned (Date and DateTime count as unsigned). */
    static boolean unsigned(DataType t) {
        return switch (t.kind()) {
            case UINT8, UINT16, UINT32, UINT64, BOOL, DATE, DATETIME, IPV4 -> true;
            default -> false;
        };
    }

    /**
     * The values of an integer-like column (physical BYTE/SHORT/INT/LONG) widened to long: sign- or
     * zero-extended by the signedness of {@code t}; UInt64 keeps its bit pattern.
     */
    static long[] longs(Column c, DataType t, int n) {
        long[] out = new long[n];
        boolean u = unsigned(t);
        switch (c.physicalType()) {
            case BYTE -> {
                byte[] d = ((ByteColumn) c).data();
                if (u) {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i] & 0xFFL;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i];
                    }
                }
            }
            case SHORT -> {
                short[] d = ((ShortColumn) c).data();
                if (u) {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i] & 0xFFFFL;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i];
                    }
                }
            }
            case INT -> {
                int[] d = ((IntColumn) c).data();
                if (u) {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i] & 0xFFFFFFFFL;
                    }
                } else {
                    for (int i = 0; i < n; i++) {
                        out[i] = d[i];
                    }
                }
            }
            case LONG -> System.arraycopy(((LongColumn) c).data(), 0, out, 0, n);
            default ->
                    throw new IllegalStateException(
                            "not an integer column: " + c.physicalType() + " for " + t.name());
        }
        return out;
    }

    /** The values of a numeric column as doubles (unsigned 64-bit values converted exactly). */
    static double[] doubles(Column c, DataType t, int n) {
        double[] out = new double[n];
        switch (c.physicalType()) {
            case FLOAT -> {
                float[] d = ((FloatColumn) c).data();
                for (int i = 0; i < n; i++) {
                    out[i] = d[i];
                }
            }
            case DOUBLE -> System.arraycopy(((DoubleColumn) c).data(), 0, out, 0, n);
            default -> {
                long[] l = longs(c, t, n);
                boolean u64 = t.kind() == TypeKind.UINT64;
                for (int i = 0; i < n; i++) {
                    out[i] = u64 ? unsignedToDouble(l[i]) : l[i];
                }
            }
        }
        return out;
    }

    static double unsignedToDouble(long v) {
        if (v >= 0) {
            return v;
        }
        // round-to-nearest-even conversion of the unsigned value, as C++ does
        double d = (double) ((v >>> 1) | (v & 1));
        return d * 2.0;
    }

    /**
     * A column of type {@code t} (integer-like physical form) holding the low bits of {@code v}.
     */
    static Column fromLongs(long[] v, int n, DataType t) {
        PhysicalType p = t.physicalType();
        switch (p) {
            case BYTE -> {
                ByteColumn c = new ByteColumn(n);
                byte[] d = c.reserve(n);
                for (int i = 0; i < n; i++) {
                    d[i] = (byte) v[i];
                }
                c.setSize(n);
                return c;
            }
            case SHORT -> {
                ShortColumn c = new ShortColumn(n);
                short[] d = c.reserve(n);
                for (int i = 0; i < n; i++) {
                    d[i] = (short) v[i];
                }
                c.setSize(n);
                return c;
            }
            case INT -> {
                IntColumn c = new IntColumn(n);
                int[] d = c.reserve(n);
                for (int i = 0; i < n; i++) {
                    d[i] = (int) v[i];
                }
                c.setSize(n);
                return c;
            }
            case LONG -> {
                LongColumn c = new LongColumn(n);
                long[] d = c.reserve(n);
                System.arraycopy(v, 0, d, 0, n);
                c.setSize(n);
                return c;
            }
            default -> throw new IllegalStateException("not an integer type: " + t.name());
        }
    }

    /** A Float32 or Float64 column of {@code v}. */
    static Column fromDoubles(double[] v, int n, DataType t) {
        if (t.physicalType() == PhysicalType.FLOAT) {
            FloatColumn c = new FloatColumn(n);
            float[] d = c.reserve(n);
            for (int i = 0; i < n; i++) {
                d[i] = (float) v[i];
            }
            c.setSize(n);
            return c;
        }
        DoubleColumn c = new DoubleColumn(n);
        double[] d = c.reserve(n);
        System.arraycopy(v, 0, d, 0, n);
        c.setSize(n);
        return c;
    }

    /** The integer type of {@code bytes} width and the given signedness. */
    static DataType integerType(int bytes, boolean signed) {
        return switch (bytes) {
            case 1 -> signed ? DataTypes.INT8 : DataTypes.UINT8;
            case 2 -> signed ? DataTypes.INT16 : DataTypes.UINT16;
            case 4 -> signed ? DataTypes.INT32 : DataTypes.UINT32;
            default -> signed ? DataTypes.INT64 : DataTypes.UINT64;
        };
    }

    /** Narrows {@code v} to the integer type {@code t}, sign- or zero-extending back to long. */
    static long wrap(long v, DataType t) {
        return switch (t.kind()) {
            case INT8 -> (byte) v;
            case UINT8, BOOL -> v & 0xFF;
            case INT16 -> (short) v;
            case UINT16, DATE -> v & 0xFFFF;
            case INT32, DATE32 -> (int) v;
            case UINT32, DATETIME -> v & 0xFFFFFFFFL;
            default -> v;
        };
    }
}
