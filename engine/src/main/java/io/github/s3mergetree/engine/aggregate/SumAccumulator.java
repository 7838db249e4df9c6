package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DecimalType;
import java.math.BigInteger;

/**
 * The running total of sum and of avg's numerator, in the sum type ClickHouse picks for the
 * argument type: (U)Int8…64 and Bool → (U)Int64, Float32/64 → Float64, Decimal32/64/128 →
 * Decimal128, Decimal256 and (U)Int128/256 → their own width. Integer totals wrap around as
 * ClickHouse's do; the state is the total's little-endian bytes.
 */
final class SumAccumulator {
    private final DataType argument;
    private final int width;
    private final boolean floating;
    private long longValue;
    private double doubleValue;
    private BigInteger wideValue = BigInteger.ZERO;

    SumAccumulator(DataType argument) {
        this.argument = argument;
        this.floating =
                switch (argument.kind()) {
                    case FLOAT32, FLOAT64 -> true;
                    default -> false;
                };
        this.width = sumWidth(argument);
    }

    private static int sumWidth(DataType t) {
        return switch (t.kind()) {
            case UINT128, INT128 -> 16;
            case UINT256, INT256 -> 32;
            case DECIMAL -> ((DecimalType) t).precision() > 38 ? 32 : 16;
            default -> 8;
        };
    }

    /** Adds one argument value in its single-value binary form. */
    void add(byte[] value) {
        if (floating) {
            doubleValue +=
                    value.length == 4
                            ? Float.intBitsToFloat((int) ArgumentValues.le(value, 4))
                            : Double.longBitsToDouble(ArgumentValues.le(value, 8));
        } else if (width == 8) {
            longValue += ArgumentValues.integer(argument, value).longValue();
        } else {
            wideValue = wideValue.add(ArgumentValues.integer(argument, value));
        }
    }

    void merge(SumAccumulator other) {
        doubleValue += other.doubleValue;
        longValue += other.longValue;
        wideValue = wideValue.add(other.wideValue);
    }

    void read(ByteSource in) {
        if (floating) {
            doubleValue = Double.longBitsToDouble(in.readLongLE());
        } else if (width == 8) {
            longValue = in.readLongLE();
        } else {
            byte[] b = new byte[width];
            in.readFully(b, 0, width);
            byte[] be = new byte[width];
            for (int i = 0; i < width; i++) {
                be[width - 1 - i] = b[i];
            }
            wideValue = new BigInteger(be);
        }
    }

    void write(ByteSink out) {
        if (floating) {
            out.writeLongLE(Double.doubleToRawLongBits(doubleValue));
        } else if (width == 8) {
            out.writeLongLE(longValue);
        } else {
            byte[] be = wideValue.toByteArray();
            byte pad = wideValue.signum() < 0 ? (byte) 0xFF : 0;
            for (int i = 0; i < width; i++) {
                int j = be.length - 1 - i;
                out.writeByte(j >= 0 ? be[j] : pad);
            }
        }
    }
}
