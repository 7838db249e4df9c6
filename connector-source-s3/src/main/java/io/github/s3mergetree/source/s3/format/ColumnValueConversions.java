package io.github.s3mergetree.source.s3.format;

import org.apache.flink.annotation.Internal;

/**
 * Conversions of decoded column values shared by the Parquet and Arrow decoders: half-precision
 * floats and the rescaling of fixed-point values (decimals, time units) to a column's precision.
 */
@Internal
public final class ColumnValueConversions {
    private ColumnValueConversions() {}

    /** An IEEE 754 half-precision value (its 16 bits in {@code h}) as a float, exactly. */
    public static float halfToFloat(int h) {
        int sign = (h & 0x8000) << 16;
        int exp = (h >>> 10) & 0x1F;
        int mant = h & 0x3FF;
        if (exp == 0) {
            float v = mant * 0x1p-24f; // zero or subnormal
            return sign != 0 ? -v : v;
        }
        if (exp == 31) {
            return Float.intBitsToFloat(sign | 0x7F800000 | mant << 13); // infinity or NaN
        }
        return Float.intBitsToFloat(sign | (exp + 112) << 23 | mant << 13);
    }

    /**
     * {@code v}, a decimal with {@code fromDigits} fractional digits, with {@code toDigits}: exact
     * when widening (overflow throws), floored when narrowing (as ClickHouse truncates sub-unit
     * ticks toward minus infinity).
     */
    public static long rescale(long v, int fromDigits, int toDigits) {
        if (toDigits >= fromDigits) {
            return Math.multiplyExact(v, pow10(toDigits - fromDigits));
        }
        return Math.floorDiv(v, pow10(fromDigits - toDigits));
    }

    /** 10 to the power {@code n}, for {@code n} in 0..18. */
    public static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }
}
