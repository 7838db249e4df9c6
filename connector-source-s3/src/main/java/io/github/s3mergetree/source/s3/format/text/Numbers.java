package io.github.s3mergetree.source.s3.format.text;

import java.math.BigInteger;

/**
 * Number parsing straight from the bytes of a {@link TextCursor}, with ClickHouse's rules ({@code
 * readIntText}, {@code readIntTextUnsafe}, {@code readFloatText}, {@code readDigits} of {@code
 * src/IO/ReadHelpers.h}): integers wrap around on overflow as in ClickHouse, a float is the longest
 * run of number characters and must parse whole, a decimal keeps at most {@code precision} digits
 * and drops extra fractional digits.
 */
final class Numbers {
    private Numbers() {}

    /**
     * {@code readIntText}: an optional sign and digits; no digits and no sign reads 0 and consumes
     * nothing, as ClickHouse does. The result wraps modulo 2^64.
     */
    static long readInt(TextCursor in, boolean signed) {
        if (in.eof()) {
            throw TextParseException.afterEof();
        }
        boolean negative = false;
        boolean sign = false;
        boolean number = false;
        long res = 0;
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c >= '0' && c <= '9') {
                number = true;
                res = res * 10 + (c - '0');
            } else if (c == '+' || c == '-') {
                if (number) {
                    break;
                }
                if (sign) {
                    throw new TextParseException(
                            "Cannot parse number with multiple sign (+/-) characters");
                }
                if (c == '-') {
                    if (!signed) {
                        throw new TextParseException("Unsigned type must not contain '-' symbol");
                    }
                    negative = true;
                }
                sign = true;
            } else {
                break;
            }
            in.pos++;
        }
        if (sign && !number) {
            throw new TextParseException("Cannot parse number without any digits");
        }
        return negative ? -res : res;
    }

    /**
     * {@code readIntTextUnsafe} (TabSeparated and literals): an optional {@code -} (signed types
     * only), then a lone {@code 0} or digits; nothing at all reads 0.
     */
    static long readIntUnsafe(TextCursor in, boolean signed) {
        if (in.eof()) {
            throw TextParseException.afterEof();
        }
        boolean negative = false;
        if (signed && in.buf[in.pos] == '-') {
            in.pos++;
            negative = true;
            if (in.eof()) {
                throw TextParseException.afterEof();
            }
        }
        if (in.buf[in.pos] == '0') {
            in.pos++;
            return 0;
        }
        long res = 0;
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c < '0' || c > '9') {
                break;
            }
            res = res * 10 + (c - '0');
            in.pos++;
        }
        return negative ? -res : res;
    }

    /** {@link #readInt}/{@link #readIntUnsafe} for 128- and 256-bit integers (wrapping). */
    static BigInteger readWideInt(TextCursor in, boolean signed, boolean unsafe, int bits) {
        if (in.eof()) {
            throw TextParseException.afterEof();
        }
        boolean negative = false;
        boolean sign = false;
        boolean number = false;
        BigInteger res = BigInteger.ZERO;
        if (unsafe) {
            if (signed && in.at('-')) {
                in.pos++;
                negative = true;
                if (in.eof()) {
                    throw TextParseException.afterEof();
                }
            }
            if (in.at('0')) {
                in.pos++;
                return BigInteger.ZERO;
            }
        }
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c >= '0' && c <= '9') {
                number = true;
                res = res.multiply(BigInteger.TEN).add(BigInteger.valueOf(c - '0'));
            } else if (!unsafe && (c == '+' || c == '-')) {
                if (number) {
                    break;
                }
                if (sign) {
                    throw new TextParseException(
                            "Cannot parse number with multiple sign (+/-) characters");
                }
                if (c == '-') {
                    if (!signed) {
                        throw new TextParseException("Unsigned type must not contain '-' symbol");
                    }
                    negative = true;
                }
                sign = true;
            } else {
                break;
            }
            in.pos++;
        }
        if (sign && !number) {
            throw new TextParseException("Cannot parse number without any digits");
        }
        if (negative) {
            res = res.negate();
        }
        return res.and(BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE));
    }

    static boolean isAsciiLetter(byte c) {
        int l = c | 0x20;
        return l >= 'a' && l <= 'z';
    }

    private static boolean isFloatChar(byte c) {
        return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
    }

    /** ClickHouse parses a float in place when this many bytes follow it, else copies it. */
    private static final int FLOAT_FAST_PATH_BYTES = 316;

    /**
     * {@code readFloatTextPreciseImpl}. ClickHouse has two paths, and this follows both: when at
     * least 316 bytes follow, the longest prefix that is a number ({@code [+-]} then digits with an
     * optional fraction and exponent, or {@code inf}/{@code infinity}/{@code nan}) is taken, as
     * {@code fast_float} does; nearer to the end of the input, any run of signs is consumed (one
     * {@code -} makes it negative), then {@code inf}/{@code nan} or the run of {@code [0-9+-.eE]},
     * which must be a whole number. The two differ only for malformed numbers such as {@code --1}.
     * A value in memory (a CSV field read first) takes the first path, as ClickHouse's {@code
     * ReadBufferFromString} does.
     */
    static double readDouble(TextCursor in, ByteBuf scratch, boolean asFloat32) {
        scratch.clear();
        if (in.eof()) {
            throw new TextParseException("Cannot read floating point value: end of input");
        }
        return in.memory || available(in, FLOAT_FAST_PATH_BYTES)
                ? readDoubleInPlace(in, scratch, asFloat32)
                : readDoubleCopied(in, scratch, asFloat32);
    }

    /** Whether at least {@code n} bytes follow the position (reading ahead if needed). */
    static boolean available(TextCursor in, int n) {
        if (in.end - in.pos >= n) {
            return true;
        }
        in.pin();
        try {
            while (in.end - in.pos < n && in.fill()) {
                // read ahead
            }
            return in.end - in.pos >= n;
        } finally {
            in.unpin();
        }
    }

    private static double readDoubleInPlace(TextCursor in, ByteBuf t, boolean asFloat32) {
        byte[] b = in.buf;
        int p = in.pos;
        int e = in.end;
        boolean negative = false;
        if (b[p] == '+' || b[p] == '-') {
            negative = b[p] == '-';
            p++;
        }
        if (p < e && ((b[p] | 0x20) == 'i' || (b[p] | 0x20) == 'n')) {
            if (matchesIgnoreCase(b, p, e, "infinity")) {
                in.pos = p + 8;
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            if (matchesIgnoreCase(b, p, e, "inf")) {
                in.pos = p + 3;
                return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            }
            if (matchesIgnoreCase(b, p, e, "nan")) {
                in.pos = p + 3;
                return Double.NaN;
            }
            throw new TextParseException("Cannot read floating point value here");
        }
        int start = p;
        int digits = 0;
        while (p < e && b[p] >= '0' && b[p] <= '9') {
            p++;
            digits++;
        }
        if (p < e && b[p] == '.') {
            int q = p + 1;
            int frac = 0;
            while (q < e && b[q] >= '0' && b[q] <= '9') {
                q++;
                frac++;
            }
            if (digits + frac > 0) {
                p = q;
                digits += frac;
            }
        }
        if (digits == 0) {
            throw new TextParseException(
                    "Cannot read floating point value here: '" + in.snippet(20) + "'");
        }
        if (p < e && (b[p] == 'e' || b[p] == 'E')) {
            int q = p + 1;
            if (q < e && (b[q] == '+' || b[q] == '-')) {
                q++;
            }
            int ed = 0;
            while (q < e && b[q] >= '0' && b[q] <= '9') {
                q++;
                ed++;
            }
            if (ed > 0) {
                p = q;
            }
        }
        t.add(b, start, p - start);
        in.pos = p;
        double v = parse(t, asFloat32);
        return negative ? -v : v;
    }

    private static boolean matchesIgnoreCase(byte[] b, int p, int e, String w) {
        if (e - p < w.length()) {
            return false;
        }
        for (int i = 0; i < w.length(); i++) {
            if ((b[p + i] | 0x20) != w.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static double readDoubleCopied(TextCursor in, ByteBuf scratch, boolean asFloat32) {
        boolean negative = false;
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            if (c == '+') {
                in.pos++;
            } else if (c == '-') {
                negative = true;
                in.pos++;
            } else {
                break;
            }
        }
        int c = in.peek();
        if (c == 'i' || c == 'I') {
            while ((in.pos < in.end || in.fill()) && isAsciiLetter(in.buf[in.pos])) {
                scratch.add(in.buf[in.pos] | 0x20);
                in.pos++;
            }
            if (!scratch.equalsAscii("inf") && !scratch.equalsAscii("infinity")) {
                throw new TextParseException("Cannot parse infinity");
            }
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (c == 'n' || c == 'N') {
            for (char x : new char[] {'a', 'n'}) {
                in.pos++;
                int d = in.peek();
                if (d != x && d != Character.toUpperCase(x)) {
                    throw new TextParseException("Cannot parse NaN");
                }
            }
            in.pos++;
            return Double.NaN;
        }
        while ((in.pos < in.end || in.fill()) && isFloatChar(in.buf[in.pos])) {
            scratch.add(in.buf[in.pos]);
            in.pos++;
        }
        if (!isDecimalNumber(scratch)) {
            throw new TextParseException(
                    "Cannot read floating point value here: '" + scratch.describe() + "'");
        }
        double v = parse(scratch, asFloat32);
        return negative ? -v : v;
    }

    private static final double[] POW10 = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
        1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    };

    /**
     * The value of a validated decimal number {@code t}, correctly rounded: by Clinger's fast path
     * when the digits fit 53 bits (24 for Float32) and the power of ten is exact, else by
     * Eisel-Lemire for up to 19 significant digits, else by the JDK's parser.
     */
    private static double parse(ByteBuf t, boolean asFloat32) {
        byte[] b = t.b;
        int n = t.len;
        long mantissa = 0;
        int digits = 0;
        int exp10 = 0;
        int i = 0;
        boolean simple = true;
        boolean point = false;
        for (; i < n && b[i] != 'e' && b[i] != 'E'; i++) {
            byte c = b[i];
            if (c == '.') {
                point = true;
                continue;
            }
            if (digits == 0 && c == '0') {
                if (point) {
                    exp10--;
                }
                continue;
            }
            if (digits >= 19) {
                simple = false;
                break;
            }
            mantissa = mantissa * 10 + (c - '0');
            digits++;
            if (point) {
                exp10--;
            }
        }
        if (simple && i < n) {
            int sign = 1;
            int j = i + 1;
            if (b[j] == '+' || b[j] == '-') {
                sign = b[j] == '-' ? -1 : 1;
                j++;
            }
            int e = 0;
            for (; j < n; j++) {
                e = e * 10 + (b[j] - '0');
                if (e > 10000) {
                    simple = false;
                    break;
                }
            }
            exp10 += sign * e;
        }
        if (simple && !asFloat32) {
            if (mantissa >= 0 && mantissa < (1L << 53) && exp10 >= -22 && exp10 <= 22) {
                double m = mantissa;
                return exp10 < 0 ? m / POW10[-exp10] : m * POW10[exp10];
            }
            return EiselLemire.toDouble(mantissa, exp10, false);
        }
        if (simple && mantissa >= 0 && mantissa < (1L << 24) && exp10 >= -10 && exp10 <= 10) {
            float m = mantissa;
            float p = (float) POW10[Math.abs(exp10)];
            return exp10 < 0 ? m / p : m * p;
        }
        String s = new String(b, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1);
        return asFloat32 ? Float.parseFloat(s) : Double.parseDouble(s);
    }

    /** digits [. digits] | . digits, then an optional exponent e[+-]digits. */
    private static boolean isDecimalNumber(ByteBuf t) {
        int i = 0;
        int n = t.len;
        byte[] b = t.b;
        int intDigits = 0;
        while (i < n && b[i] >= '0' && b[i] <= '9') {
            i++;
            intDigits++;
        }
        int fracDigits = 0;
        if (i < n && b[i] == '.') {
            i++;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
                fracDigits++;
            }
        }
        if (intDigits + fracDigits == 0) {
            return false;
        }
        if (i < n && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < n && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int e = 0;
            while (i < n && b[i] >= '0' && b[i] <= '9') {
                i++;
                e++;
            }
            if (e == 0) {
                return false;
            }
        }
        return i == n;
    }

    /** Skips a number (for unknown JSON fields); false if there is none. */
    static boolean skipFloat(TextCursor in) {
        ByteBuf scratch = new ByteBuf();
        try {
            readDouble(in, scratch, false);
            return true;
        } catch (TextParseException e) {
            return false;
        }
    }

    /**
     * ClickHouse's {@code readDecimalText}: the unscaled value at {@code scale} of a decimal with
     * {@code precision} digits; more integer digits than fit fail, extra fractional digits are cut.
     */
    static BigInteger readDecimal(TextCursor in, int precision, int scale) {
        if (in.eof()) {
            throw TextParseException.afterEof();
        }
        int sign = 1;
        if (in.buf[in.pos] == '-') {
            sign = -1;
            in.pos++;
        } else if (in.buf[in.pos] == '+') {
            in.pos++;
        }
        long small = 0;
        BigInteger big = null;
        boolean wide = precision > 18;
        int digits = 0;
        int places = 0;
        int exponent = 0;
        boolean leadingZeroes = true;
        boolean afterPoint = false;
        loop:
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            switch (c) {
                case '.' -> {
                    afterPoint = true;
                    leadingZeroes = false;
                }
                case '0', '1', '2', '3', '4', '5', '6', '7', '8', '9' -> {
                    if (c == '0' && leadingZeroes) {
                        break;
                    }
                    if (c == '0' && afterPoint) {
                        places++;
                        break;
                    }
                    leadingZeroes = false;
                    places++;
                    if (digits + places > precision) {
                        if (afterPoint) {
                            break; // cut excessive digits
                        }
                        throw new TextParseException(
                                "Too many digits ("
                                        + (digits + places)
                                        + " > "
                                        + precision
                                        + ") in decimal value");
                    }
                    digits += places;
                    if (afterPoint) {
                        exponent -= places;
                    }
                    if (wide) {
                        BigInteger base = big == null ? BigInteger.valueOf(small) : big;
                        big =
                                base.multiply(BigInteger.TEN.pow(places))
                                        .add(BigInteger.valueOf(c - '0'));
                    } else {
                        small = small * pow10(places) + (c - '0');
                    }
                    places = 0;
                }
                case 'e', 'E' -> {
                    in.pos++;
                    long e;
                    try {
                        if (in.eof()) {
                            throw new TextParseException("eof");
                        }
                        int p0 = in.pos;
                        e = readInt(in, true);
                        if (in.pos == p0) {
                            throw new TextParseException("no digits");
                        }
                    } catch (TextParseException x) {
                        throw new TextParseException("Cannot parse exponent while reading decimal");
                    }
                    exponent += (int) e;
                    break loop;
                }
                default -> {
                    break loop;
                }
            }
            in.pos++;
        }
        BigInteger x = big != null ? big : BigInteger.valueOf(small);
        if (sign < 0) {
            x = x.negate();
        }
        if (digits + exponent > precision - scale) {
            throw new TextParseException(
                    "Decimal value is too big: "
                            + digits
                            + " digits were read: "
                            + x
                            + "e"
                            + exponent
                            + ". Expected to read decimal with scale "
                            + scale
                            + " and precision "
                            + precision);
        }
        if (scale + exponent < 0) {
            int divisorExp = -exponent - scale;
            int maxDigits10 = precision <= 9 ? 9 : precision <= 18 ? 18 : precision <= 38 ? 38 : 76;
            if (divisorExp >= maxDigits10) {
                return BigInteger.ZERO;
            }
            return x.divide(BigInteger.TEN.pow(divisorExp));
        }
        return x.multiply(BigInteger.TEN.pow(scale + exponent));
    }

    private static long pow10(int n) {
        long r = 1;
        for (int i = 0; i < n; i++) {
            r *= 10;
        }
        return r;
    }
}
