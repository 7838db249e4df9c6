package io.github.s3mergetree.source.s3.format.text;

import java.math.BigInteger;

/**
 * Decimal to double conversion by the Eisel-Lemire algorithm, as in {@code fast_float} (which
 * ClickHouse uses): for a decimal significand of at most 19 digits {@code w} and a power of ten
 * {@code q}, the correctly rounded double from one or two 64x128-bit multiplications with a table
 * of 128-bit powers of five. Exact in every case (Mushtak and Lemire, "Fast number parsing without
 * fallback"), and an order of magnitude faster than {@link Double#parseDouble}.
 */
final class EiselLemire {
    private EiselLemire() {}

    private static final int SMALLEST_POWER = -342;
    private static final int LARGEST_POWER = 308;

    /** 128-bit powers of five, high then low word, for q in [-342, 308]. */
    private static final long[] POW5 = new long[2 * (LARGEST_POWER - SMALLEST_POWER + 1)];

    static {
        BigInteger two128 = BigInteger.ONE.shiftLeft(128);
        BigInteger two127 = BigInteger.ONE.shiftLeft(127);
        BigInteger mask64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
        for (int q = SMALLEST_POWER; q <= LARGEST_POWER; q++) {
            BigInteger c;
            if (q < 0) {
                BigInteger power5 = BigInteger.valueOf(5).pow(-q);
                int z = power5.subtract(BigInteger.ONE).bitLength(); // smallest z: 2^z >= power5
                int b = q >= -27 ? z + 127 : 2 * z + 128;
                c = BigInteger.ONE.shiftLeft(b).divide(power5).add(BigInteger.ONE);
                while (c.compareTo(two128) >= 0) {
                    c = c.shiftRight(1);
                }
            } else {
                c = BigInteger.valueOf(5).pow(q);
                while (c.compareTo(two127) < 0) {
                    c = c.shiftLeft(1);
                }
                while (c.compareTo(two128) >= 0) {
                    c = c.shiftRight(1);
                }
            }
            int i = 2 * (q - SMALLEST_POWER);
            POW5[i] = c.shiftRight(64).longValue();
            POW5[i + 1] = c.and(mask64).longValue();
        }
    }

    private static long unsignedMultiplyHigh(long a, long b) {
        return Math.multiplyHigh(a, b) + ((a >> 63) & b) + ((b >> 63) & a);
    }

    /**
     * The double nearest to {@code w * 10^q} ({@code w} read as unsigned, at most 19 decimal
     * digits), negated if {@code negative}.
     */
    static double toDouble(long w, int q, boolean negative) {
        long bits;
        if (w == 0 || q < SMALLEST_POWER) {
            bits = 0;
        } else if (q > LARGEST_POWER) {
            bits = 0x7FFL << 52;
        } else {
            bits = compute(w, q);
        }
        if (negative) {
            bits |= 1L << 63;
        }
        return Double.longBitsToDouble(bits);
    }

    private static long compute(long w, int q) {
        int lz = Long.numberOfLeadingZeros(w);
        w <<= lz;
        int index = 2 * (q - SMALLEST_POWER);
        long hi = unsignedMultiplyHigh(w, POW5[index]);
        long lo = w * POW5[index];
        long precisionMask = 0xFFFFFFFFFFFFFFFFL >>> 55;
        if ((hi & precisionMask) == precisionMask) {
            long secondHi = unsignedMultiplyHigh(w, POW5[index + 1]);
            lo += secondHi;
            if (Long.compareUnsigned(secondHi, lo) > 0) {
                hi++;
            }
        }
        int upperbit = (int) (hi >>> 63);
        int shift = upperbit + 64 - 52 - 3;
        long mantissa = hi >>> shift;
        int power2 = (((152170 + 65536) * q) >> 16) + 63 + upperbit - lz + 1023;
        if (power2 <= 0) {
            if (-power2 + 1 >= 64) {
                return 0;
            }
            mantissa >>>= -power2 + 1;
            mantissa += mantissa & 1;
            mantissa >>>= 1;
            power2 = mantissa < (1L << 52) ? 0 : 1;
            return ((long) power2 << 52) | (mantissa & ((1L << 52) - 1));
        }
        if (Long.compareUnsigned(lo, 1) <= 0
                && q >= -4
                && q <= 23
                && (mantissa & 3) == 1
                && (mantissa << shift) == hi) {
            mantissa &= ~1L; // exactly halfway with an even base: round down
        }
        mantissa += mantissa & 1;
        mantissa >>>= 1;
        if (mantissa >= (2L << 52)) {
            mantissa = 1L << 52;
            power2++;
        }
        mantissa &= ~(1L << 52);
        if (power2 >= 0x7FF) {
            return 0x7FFL << 52;
        }
        return ((long) power2 << 52) | mantissa;
    }
}
