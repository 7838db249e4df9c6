package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;

/** {@link ValueReader}s of the scalar types, each after its ClickHouse {@code Serialization*}. */
final class ScalarReaders {
    private ScalarReaders() {}

    /** {@code readBoolTextWord}: {@code true} or {@code false} exactly. */
    static boolean boolWord(TextCursor in) {
        if (in.at('t')) {
            TextStrings.expectWord(in, "true");
            return true;
        }
        if (in.at('f')) {
            TextStrings.expectWord(in, "false");
            return false;
        }
        throw new TextParseException("Unexpected Bool value");
    }

    /** (U)Int8..64 ({@code SerializationNumber}): wrapping on overflow, as ClickHouse. */
    static final class IntReader extends ValueReader {
        private final boolean signed;
        private final int width;

        IntReader(DataType type, Scratch s) {
            super(type, s);
            this.signed = !type.isUnsigned();
            this.width = type.fixedWidth();
        }

        void store(Column c, long v) {
            switch (width) {
                case 1 -> ((ByteColumn) c).add((byte) v);
                case 2 -> ((ShortColumn) c).add((short) v);
                case 4 -> ((IntColumn) c).add((int) v);
                default -> ((LongColumn) c).add(v);
            }
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            store(c, Numbers.readIntUnsafe(in, signed));
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            if (in.eof()) {
                throw TextParseException.afterEof();
            }
            byte q = in.buf[in.pos];
            boolean quoted = q == '\'' || q == '"';
            if (quoted) {
                in.pos++;
            }
            long v = Numbers.readInt(in, signed);
            if (quoted) {
                in.expect((char) q);
            }
            store(c, v);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            boolean quoted = in.check('"');
            long v;
            if (!quoted && in.at('n')) {
                TextStrings.expectWord(in, "null");
                v = 0;
            } else {
                if (in.eof()) {
                    throw TextParseException.afterEof();
                }
                if (in.at('t') || in.at('f')) {
                    v = boolWord(in) ? 1 : 0;
                } else {
                    v = Numbers.readInt(in, signed);
                }
                if (quoted) {
                    in.expect('"');
                }
            }
            store(c, v);
        }
    }

    /** (U)Int128/256, little-endian in a fixed-bytes column. */
    static final class WideIntReader extends ValueReader {
        private final boolean signed;
        private final int width;

        WideIntReader(DataType type, Scratch s) {
            super(type, s);
            this.signed = type.kind() == TypeKind.INT128 || type.kind() == TypeKind.INT256;
            this.width = type.fixedWidth();
        }

        void store(Column c, BigInteger v) {
            byte[] le = new byte[width];
            byte[] be = v.toByteArray();
            for (int i = 0; i < width && i < be.length; i++) {
                le[i] = be[be.length - 1 - i];
            }
            ((FixedBytesColumn) c).add(le, 0);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            store(c, Numbers.readWideInt(in, signed, true, width * 8));
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            if (in.eof()) {
                throw TextParseException.afterEof();
            }
            byte q = in.buf[in.pos];
            boolean quoted = q == '\'' || q == '"';
            if (quoted) {
                in.pos++;
            }
            BigInteger v = Numbers.readWideInt(in, signed, false, width * 8);
            if (quoted) {
                in.expect((char) q);
            }
            store(c, v);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            boolean quoted = in.check('"');
            BigInteger v;
            if (!quoted && in.at('n')) {
                TextStrings.expectWord(in, "null");
                v = BigInteger.ZERO;
            } else {
                if (in.at('t') || in.at('f')) {
                    v = boolWord(in) ? BigInteger.ONE : BigInteger.ZERO;
                } else {
                    v = Numbers.readWideInt(in, signed, false, width * 8);
                }
                if (quoted) {
                    in.expect('"');
                }
            }
            store(c, v);
        }
    }

    /** Float32/Float64. */
    static final class FloatReader extends ValueReader {
        private final boolean f32;

        FloatReader(DataType type, Scratch s) {
            super(type, s);
            this.f32 = type.kind() == TypeKind.FLOAT32;
        }

        void store(Column c, double v) {
            if (f32) {
                ((FloatColumn) c).add((float) v);
            } else {
                ((DoubleColumn) c).add(v);
            }
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            store(c, Numbers.readDouble(in, scratch.bytes, f32));
        }

        @Override
        void readJson(TextCursor in, Column c) {
            boolean quoted = in.check('"');
            double v;
            if (!quoted && in.at('n')) {
                TextStrings.expectWord(in, "null");
                v = Double.NaN;
            } else {
                if (in.eof()) {
                    throw TextParseException.afterEof();
                }
                if (in.at('t') || in.at('f')) {
                    v = boolWord(in) ? 1 : 0;
                } else {
                    v = Numbers.readDouble(in, scratch.bytes, f32);
                }
                if (quoted) {
                    in.expect('"');
                }
            }
            store(c, v);
        }
    }

    /** Decimal(P, S) of any width. */
    static final class DecimalReader extends ValueReader {
        private final DecimalType dt;

        DecimalReader(DecimalType type, Scratch s) {
            super(type, s);
            this.dt = type;
        }

        void store(Column c, BigInteger v) {
            switch (dt.fixedWidth()) {
                case 4 -> ((IntColumn) c).add(v.intValue());
                case 8 -> ((LongColumn) c).add(v.longValue());
                default -> {
                    int w = dt.fixedWidth();
                    byte[] le = new byte[w];
                    byte[] be = v.toByteArray();
                    byte fill = (byte) (v.signum() < 0 ? 0xFF : 0);
                    java.util.Arrays.fill(le, fill);
                    for (int i = 0; i < w && i < be.length; i++) {
                        le[i] = be[be.length - 1 - i];
                    }
                    ((FixedBytesColumn) c).add(le, 0);
                }
            }
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            store(c, Numbers.readDecimal(in, dt.precision(), dt.scale()));
        }

        @Override
        void readJson(TextCursor in, Column c) {
            boolean quoted = in.check('"');
            BigInteger v = Numbers.readDecimal(in, dt.precision(), dt.scale());
            if (quoted) {
                in.expect('"');
            }
            store(c, v);
        }
    }

    /** Bool: {@code true/false, t/f, yes/no, y/n, on/off, enable(d)/disable(d), 1/0}. */
    static final class BoolReader extends ValueReader {
        BoolReader(DataType type, Scratch s) {
            super(type, s);
        }

        private void readWord(TextCursor in, Column c, byte d1, byte d2, byte d3) {
            ByteBuf w = scratch.bytes;
            w.clear();
            while (in.pos < in.end || in.fill()) {
                byte b = in.buf[in.pos];
                if (b == d1 || b == d2 || b == d3) {
                    break;
                }
                w.add(b);
                in.pos++;
            }
            String s =
                    new String(w.b, 0, w.len, StandardCharsets.ISO_8859_1)
                            .toLowerCase(java.util.Locale.ROOT);
            boolean v =
                    switch (s) {
                        case "true", "t", "yes", "y", "on", "enable", "enabled", "1" -> true;
                        case "false", "f", "no", "n", "off", "disable", "disabled", "0" -> false;
                        default ->
                                throw new TextParseException(
                                        "Cannot parse boolean value here: '"
                                                + w.describe()
                                                + "', should be true/false, t/f, yes/no, y/n,"
                                                + " on/off, enable/disable, enabled/disabled"
                                                + " or 1/0");
                    };
            ((ByteColumn) c).add(v ? (byte) 1 : 0);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            readWord(in, c, (byte) '\t', (byte) '\n', (byte) '\t');
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            readWord(in, c, (byte) ',', (byte) ']', (byte) ')');
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            readWord(in, c, (byte) settings().delimiter(), (byte) '\n', (byte) '\r');
        }

        @Override
        void readJson(TextCursor in, Column c) {
            int f = in.peek();
            if (f < 0) {
                throw new TextParseException("Cannot parse boolean value: end of input");
            }
            boolean v;
            if (f == 't' || f == 'f') {
                v = boolWord(in);
            } else if (f == '1' || f == '0') {
                in.pos++;
                v = f == '1';
            } else {
                throw new TextParseException(
                        "Invalid boolean value, should be true/false, 1/0, but it starts with the"
                                + " '"
                                + in.snippet(1)
                                + "' character");
            }
            ((ByteColumn) c).add(v ? (byte) 1 : 0);
        }
    }

    /** String: the bytes as they are, escapes resolved; never decoded. */
    static final class StringReader extends ValueReader {
        StringReader(DataType type, Scratch s) {
            super(type, s);
        }

        @Override
        boolean isStringLike() {
            return true;
        }

        void store(Column c, ByteBuf b) {
            ((StringColumn) c).add(b.b, 0, b.len);
        }

        @Override
        void readWhole(ByteBuf text, Column c) {
            store(c, text);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            // Fast path: the value is in the buffer without escapes.
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            while (p < e) {
                byte x = b[p];
                if (x == '\t' || x == '\n') {
                    ((StringColumn) c).add(b, in.pos, p - in.pos);
                    in.pos = p;
                    return;
                }
                if (x == '\\') {
                    break;
                }
                p++;
            }
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readEscaped(in, v);
            store(c, v);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readQuoted(in, v, '\'', true);
            store(c, v);
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            if (!readCsvInPlace(in, (StringColumn) c)) {
                ByteBuf v = scratch.bytes;
                v.clear();
                TextStrings.readCsv(in, v, settings());
                store(c, v);
            }
        }

        /**
         * The common CSV field, copied once: wholly in the buffer, quoted without a doubled quote
         * or unquoted up to the delimiter or {@code \n}. False (nothing consumed) otherwise.
         */
        private boolean readCsvInPlace(TextCursor in, StringColumn c) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            if (p >= e) {
                return false;
            }
            byte delimiter = (byte) settings().delimiter();
            byte q = b[p];
            if (q == '"' && settings().allowDoubleQuotes()) {
                int k = p + 1;
                while (k < e && b[k] != '"') {
                    k++;
                }
                if (k + 1 >= e || b[k + 1] == '"') {
                    return false; // the end is not in the buffer, or a doubled quote
                }
                c.add(b, p + 1, k - p - 1);
                in.pos = k + 1;
                return true;
            }
            if (q == '\'' && settings().allowSingleQuotes()) {
                return false;
            }
            int k = p;
            while (k < e) {
                byte x = b[k];
                if (x == delimiter || x == '\n') {
                    break;
                }
                if (x == '\r') {
                    return false;
                }
                k++;
            }
            if (k == e) {
                return false;
            }
            int t = k;
            while (t > p && (b[t - 1] == ' ' || b[t - 1] == '\t')) {
                t--;
            }
            c.add(b, p, t - p);
            in.pos = k;
            return true;
        }

        @Override
        void readJson(TextCursor in, Column c) {
            if (in.pos < in.end && in.buf[in.pos] == '"') {
                // the common case in place: no escape before the closing quote
                byte[] b = in.buf;
                int k = in.pos + 1;
                while (k < in.end && b[k] != '"' && b[k] != '\\') {
                    k++;
                }
                if (k < in.end && b[k] == '"') {
                    ((StringColumn) c).add(b, in.pos + 1, k - in.pos - 1);
                    in.pos = k + 1;
                    return;
                }
            }
            ByteBuf v = scratch.bytes;
            v.clear();
            readJsonString(in, v);
            store(c, v);
        }

        /**
         * A String column's JSON value: a string, or (as ClickHouse's {@code
         * input_format_json_read_objects/arrays/bools/numbers_as_strings}) the text of an object,
         * array, boolean or number.
         */
        static void readJsonString(TextCursor in, ByteBuf v) {
            int f = in.peek();
            if (f == '{') {
                TextStrings.readJsonRaw(in, v, '{', '}');
            } else if (f == '[') {
                TextStrings.readJsonRaw(in, v, '[', ']');
            } else if (f == 't' || f == 'f') {
                boolean b = boolWord(in);
                byte[] w = (b ? "true" : "false").getBytes(StandardCharsets.US_ASCII);
                v.add(w, 0, w.length);
            } else if ((f >= '0' && f <= '9') || f == '-') {
                while (in.pos < in.end || in.fill()) {
                    byte x = in.buf[in.pos];
                    if (x == ',' || x == '}' || x == ']' || x == ' ' || x == '\t' || x == '\n'
                            || x == '\r') {
                        break;
                    }
                    v.add(x);
                    in.pos++;
                }
                TextCursor t = TextCursor.over(v.b, 0, v.len);
                boolean ok;
                try {
                    Numbers.readDouble(t, new ByteBuf(), false);
                    ok = t.eof();
                } catch (TextParseException e) {
                    ok = false;
                }
                if (!ok) {
                    throw new TextParseException(
                            "Cannot parse JSON String value here: " + v.describe());
                }
            } else if (f == '"') {
                TextStrings.readJson(in, v);
            } else {
                throw new TextParseException(
                        "Cannot read JSON field here: '"
                                + (f < 0 ? "" : in.snippet(10))
                                + "'. Unexpected symbol");
            }
        }
    }

    /** FixedString(N): at most N bytes, zero-padded. */
    static final class FixedStringReader extends ValueReader {
        private final int n;

        FixedStringReader(FixedStringType type, Scratch s) {
            super(type, s);
            this.n = type.length();
        }

        @Override
        boolean isStringLike() {
            return true;
        }

        void store(Column c, ByteBuf b) {
            if (b.len > n) {
                throw new TextParseException(
                        "Too large value for FixedString(" + n + "): " + b.len + " bytes");
            }
            ((FixedBytesColumn) c).addPadded(b.b, 0, b.len);
        }

        @Override
        void readWhole(ByteBuf text, Column c) {
            store(c, text);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readEscaped(in, v);
            store(c, v);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readQuoted(in, v, '\'', true);
            store(c, v);
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readCsv(in, v, settings());
            store(c, v);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readJson(in, v);
            store(c, v);
        }
    }

    /** Date (UInt16 days, saturating) and Date32 (Int32 days, 1900..2299). */
    static final class DateReader extends ValueReader {
        private final boolean date32;

        DateReader(DataType type, Scratch s) {
            super(type, s);
            this.date32 = type.kind() == TypeKind.DATE32;
        }

        void storeYmd(Column c, DateTimes.YMD d) {
            storeYmd(c, d, DateTimes.LUT_FIRST_DAY);
        }

        /**
         * {@code date32ErrorDay}: the Date32 of an impossible date (or a year before 1900): the
         * LUT's first day, 1900-01-01, except in CSV, where ClickHouse's reader makes it 0
         * (1970-01-01).
         */
        void storeYmd(Column c, DateTimes.YMD d, long date32ErrorDay) {
            if (date32) {
                long v = DateTimes.makeDayNum(d.year(), d.month(), d.day(), date32ErrorDay);
                ((IntColumn) c).add((int) v);
            } else {
                long v = DateTimes.makeDayNum(d.year(), d.month(), d.day(), 0);
                ((ShortColumn) c).add((short) Math.max(0, Math.min(0xFFFF, v)));
            }
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            storeYmd(c, DateTimes.readDate(in));
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            if (in.eof()) {
                throw TextParseException.afterEof();
            }
            byte q = in.buf[in.pos];
            if (q == '\'' || q == '"') {
                in.pos++;
                DateTimes.YMD d = DateTimes.readDate(in);
                in.expect((char) q);
                storeYmd(c, d, 0);
            } else {
                storeYmd(c, DateTimes.readDate(in), 0);
            }
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            in.expect('\'');
            DateTimes.YMD d = DateTimes.readDate(in);
            in.expect('\'');
            storeYmd(c, d);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            if (in.check('"')) {
                DateTimes.YMD d = DateTimes.readDate(in);
                in.expect('"');
                storeYmd(c, d);
                return;
            }
            long v =
                    in.at('t') || in.at('f') ? (boolWord(in) ? 1 : 0) : Numbers.readInt(in, date32);
            if (date32) {
                ((IntColumn) c).add((int) v);
            } else {
                ((ShortColumn) c).add((short) v);
            }
        }
    }

    /** DateTime (precision 0, UInt32 seconds, saturating) and DateTime64(P). */
    static final class DateTimeReader extends ValueReader {
        private final ZoneId zone;
        private final int precision;
        private final boolean dt64;
        private final long multiplier;
        private final TextCursor field = TextCursor.inMemory();

        DateTimeReader(DataType type, ZoneId zone, int precision, Scratch s) {
            super(type, s);
            this.zone = zone;
            this.precision = precision;
            this.dt64 = type.kind() == TypeKind.DATETIME64;
            long m = 1;
            for (int i = 0; i < precision; i++) {
                m *= 10;
            }
            this.multiplier = m;
        }

        /** {@code readText} with {@code date_time_input_format}. */
        private void parse(TextCursor in) {
            DateTimes.Parsed p = scratch.parsed;
            switch (settings().dateTimeInputFormat()) {
                case BASIC -> {
                    try {
                        DateTimes.readBasic(in, zone, dt64, p);
                    } catch (TextParseException e) {
                        if (!dt64 || !in.at('.')) {
                            throw e;
                        }
                        // as ClickHouse: a DateTime64 whose seconds fail before a '.' is 0.fraction
                        p.seconds = 0;
                    }
                    if (dt64 && in.at('.')) {
                        in.pos++;
                        long f = 0;
                        int digits = 0;
                        while ((in.pos < in.end || in.fill())
                                && in.buf[in.pos] >= '0'
                                && in.buf[in.pos] <= '9') {
                            if (digits < 18) {
                                f = f * 10 + (in.buf[in.pos] - '0');
                                digits++;
                            }
                            in.pos++;
                        }
                        p.fraction = f;
                        p.fractionDigits = digits;
                    } else if (dt64 && p.seconds >= DateTimes.SCALED_TICKS_FROM) {
                        p.scaledTicks = true;
                    }
                }
                case BEST_EFFORT -> DateTimes.readBestEffort(in, zone, false, dt64, p);
                case BEST_EFFORT_US -> DateTimes.readBestEffort(in, zone, true, dt64, p);
            }
        }

        private void store(Column c) {
            DateTimes.Parsed p = scratch.parsed;
            if (!dt64) {
                long s = Math.max(0, Math.min(0xFFFFFFFFL, p.seconds));
                ((IntColumn) c).add((int) s);
                return;
            }
            long f = p.fraction;
            int digits = p.fractionDigits;
            while (digits > precision) {
                f /= 10;
                digits--;
            }
            while (digits < precision) {
                f *= 10;
                digits++;
            }
            ((LongColumn) c).add(p.scaledTicks ? p.seconds : ticks(p.seconds, f, p));
        }

        /**
         * ClickHouse's {@code decimalFromComponents} as its text readers use it: the fraction
         * counts forward from the (floor) second a date-time's text names, so {@code 1921-01-03
         * 06:08:46.045} is {@code seconds * 10^P + fraction} although its seconds are negative;
         * only a unix timestamp written with a minus sign counts its fraction away from zero
         * ({@code -1.5}: -1.5 s; {@code -0.5}: +0.5 s, as ClickHouse reads it). A value past the
         * Int64 ticks is refused as ClickHouse refuses it.
         */
        private long ticks(long seconds, long fraction, DateTimes.Parsed p) {
            try {
                long whole = Math.multiplyExact(seconds, multiplier);
                return p.negativeTimestamp && seconds < 0
                        ? Math.subtractExact(whole, fraction)
                        : Math.addExact(whole, fraction);
            } catch (ArithmeticException e) {
                throw new TextParseException(
                        "Decimal math overflow: "
                                + seconds
                                + " seconds do not fit DateTime64("
                                + precision
                                + ")");
            }
        }

        /**
         * A date-time given as a bare number ({@code readDateTimeAsNumber}): DateTime seconds
         * (saturating), DateTime64 ticks, an integer either way.
         */
        private void readNumber(TextCursor in, Column c) {
            long v = Numbers.readInt(in, true);
            if (dt64) {
                ((LongColumn) c).add(v);
            } else {
                ((IntColumn) c).add((int) Math.max(0, Math.min(0xFFFFFFFFL, v)));
            }
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            parse(in);
            store(c);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            if (in.check('\'')) {
                parse(in);
                in.expect('\'');
                store(c);
            } else {
                readNumber(in, c);
            }
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            if (in.eof()) {
                throw TextParseException.afterEof();
            }
            byte q = in.buf[in.pos];
            if (q == '\'' || q == '"') {
                in.pos++;
                parse(in);
                in.expect((char) q);
            } else if (settings().delimiter() != ','
                    || settings().dateTimeInputFormat() == TextSettings.DateTimeInputFormat.BASIC) {
                parse(in);
            } else {
                ByteBuf v = scratch.bytes2;
                v.clear();
                TextStrings.readCsv(in, v, settings());
                TextCursor t = field.reset(v.b, 0, v.len);
                parse(t);
                if (!t.eof()) {
                    throw new TextParseException(
                            "Unexpected data '"
                                    + TextCursor.escape(v.b, t.pos, v.len - t.pos)
                                    + "' after parsed DateTime value '"
                                    + TextCursor.escape(v.b, 0, t.pos)
                                    + "'");
                }
            }
            store(c);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            if (in.check('"')) {
                parse(in);
                in.expect('"');
                store(c);
            } else {
                readNumber(in, c);
            }
        }
    }

    /** UUID: 36 characters with dashes or 32 hex digits. */
    static final class UuidReader extends ValueReader {
        UuidReader(DataType type, Scratch s) {
            super(type, s);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            byte[] s = new byte[36];
            int n = 0;
            while (n < 32 && !in.eof()) {
                s[n++] = in.buf[in.pos++];
            }
            if (n == 32 && s[8] == '-') {
                while (n < 36 && !in.eof()) {
                    s[n++] = in.buf[in.pos++];
                }
                if (n != 36) {
                    throw new TextParseException("Cannot parse uuid " + TextCursor.escape(s, 0, n));
                }
            } else if (n != 32) {
                throw new TextParseException("Cannot parse uuid " + TextCursor.escape(s, 0, n));
            }
            byte[] hex = new byte[32];
            if (n == 36) {
                int[][] parts = {{0, 8}, {9, 4}, {14, 4}, {19, 4}, {24, 12}};
                int k = 0;
                for (int[] p : parts) {
                    System.arraycopy(s, p[0], hex, k, p[1]);
                    k += p[1];
                }
            } else {
                System.arraycopy(s, 0, hex, 0, 32);
            }
            for (byte h : hex) {
                if (TextStrings.unhex(h) == 0xFF) {
                    throw new TextParseException("Cannot parse uuid " + TextCursor.escape(s, 0, n));
                }
            }
            long msb = 0;
            long lsb = 0;
            for (int i = 0; i < 16; i++) {
                msb = (msb << 4) | TextStrings.unhex(hex[i]);
                lsb = (lsb << 4) | TextStrings.unhex(hex[16 + i]);
            }
            byte[] b = new byte[16];
            for (int i = 0; i < 8; i++) {
                b[i] = (byte) (msb >>> (8 * i));
                b[8 + i] = (byte) (lsb >>> (8 * i));
            }
            ((FixedBytesColumn) c).add(b, 0);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            in.expect('\'');
            readEscaped(in, c);
            in.expect('\'');
        }

        @Override
        void readJson(TextCursor in, Column c) {
            in.expect('"');
            readEscaped(in, c);
            in.expect('"');
        }
    }

    /** IPv4: four decimal octets. */
    static final class Ipv4Reader extends ValueReader {
        Ipv4Reader(DataType type, Scratch s) {
            super(type, s);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            long start = in.offset();
            long result = 0;
            for (int octet = 0; octet < 4; octet++) {
                int value = 0;
                int len = 0;
                while (len <= 3 && (in.pos < in.end || in.fill())) {
                    byte b = in.buf[in.pos];
                    if (b < '0' || b > '9') {
                        break;
                    }
                    value = value * 10 + (b - '0');
                    len++;
                    in.pos++;
                }
                if (len == 0 || value > 255 || (octet < 3 && !in.check('.'))) {
                    throw new TextParseException("Cannot parse IPv4 at byte offset " + start);
                }
                result = (result << 8) | value;
            }
            ((IntColumn) c).add((int) result);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            in.expect('\'');
            readEscaped(in, c);
            in.expect('\'');
        }

        @Override
        void readJson(TextCursor in, Column c) {
            in.expect('"');
            readEscaped(in, c);
            in.expect('"');
        }
    }

    /** IPv6 (an IPv4 literal is stored as {@code ::ffff:a.b.c.d}, as in ClickHouse). */
    static final class Ipv6Reader extends ValueReader {
        Ipv6Reader(DataType type, Scratch s) {
            super(type, s);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            ByteBuf t = scratch.bytes;
            t.clear();
            while (in.pos < in.end || in.fill()) {
                byte b = in.buf[in.pos];
                if (!((b >= '0' && b <= '9')
                        || (b >= 'a' && b <= 'f')
                        || (b >= 'A' && b <= 'F')
                        || b == ':'
                        || b == '.')) {
                    break;
                }
                t.add(b);
                in.pos++;
            }
            byte[] out = parseIpv6(new String(t.b, 0, t.len, StandardCharsets.US_ASCII));
            if (out == null) {
                throw new TextParseException("Cannot parse IPv6 " + t.describe());
            }
            ((FixedBytesColumn) c).add(out, 0);
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            in.expect('\'');
            readEscaped(in, c);
            in.expect('\'');
        }

        @Override
        void readJson(TextCursor in, Column c) {
            in.expect('"');
            readEscaped(in, c);
            in.expect('"');
        }

        /**
         * The 16 bytes of an IPv6 text (groups of 1..4 hex digits, at most one {@code ::}, an
         * optional dotted IPv4 tail), or of an IPv4 text as {@code ::ffff:a.b.c.d}; null if it is
         * neither.
         */
        static byte[] parseIpv6(String s) {
            byte[] out = new byte[16];
            if (s.indexOf(':') < 0) {
                byte[] v4 = parseIpv4(s);
                if (v4 == null) {
                    return null;
                }
                out[10] = (byte) 0xFF;
                out[11] = (byte) 0xFF;
                System.arraycopy(v4, 0, out, 12, 4);
                return out;
            }
            int gap = s.indexOf("::");
            if (gap >= 0 && s.indexOf("::", gap + 1) >= 0) {
                return null;
            }
            java.util.List<Integer> head = new java.util.ArrayList<>();
            java.util.List<Integer> tail = new java.util.ArrayList<>();
            String left = gap >= 0 ? s.substring(0, gap) : s;
            String right = gap >= 0 ? s.substring(gap + 2) : "";
            if (!groups(left, head, gap < 0 || right.isEmpty()) || !groups(right, tail, true)) {
                return null;
            }
            int n = head.size() + tail.size();
            if (gap < 0 ? n != 8 : n > 7) {
                return null;
            }
            int k = 0;
            for (int g : head) {
                out[k++] = (byte) (g >> 8);
                out[k++] = (byte) g;
            }
            k = 16 - 2 * tail.size();
            for (int g : tail) {
                out[k++] = (byte) (g >> 8);
                out[k++] = (byte) g;
            }
            return out;
        }

        /** Colon-separated hex groups (the last may be a dotted IPv4) into 16-bit values. */
        private static boolean groups(
                String part, java.util.List<Integer> out, boolean lastMayBeV4) {
            if (part.isEmpty()) {
                return true;
            }
            String[] g = part.split(":", -1);
            for (int i = 0; i < g.length; i++) {
                String x = g[i];
                if (i == g.length - 1 && lastMayBeV4 && x.indexOf('.') >= 0) {
                    byte[] v4 = parseIpv4(x);
                    if (v4 == null) {
                        return false;
                    }
                    out.add(((v4[0] & 0xFF) << 8) | (v4[1] & 0xFF));
                    out.add(((v4[2] & 0xFF) << 8) | (v4[3] & 0xFF));
                    continue;
                }
                if (x.isEmpty() || x.length() > 4) {
                    return false;
                }
                int v = 0;
                for (char ch : x.toCharArray()) {
                    int d = TextStrings.unhex(ch);
                    if (d == 0xFF) {
                        return false;
                    }
                    v = v * 16 + d;
                }
                out.add(v);
            }
            return true;
        }

        private static byte[] parseIpv4(String s) {
            String[] p = s.split("\\.", -1);
            if (p.length != 4) {
                return null;
            }
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                if (p[i].isEmpty() || p[i].length() > 3) {
                    return null;
                }
                int v = 0;
                for (char ch : p[i].toCharArray()) {
                    if (ch < '0' || ch > '9') {
                        return null;
                    }
                    v = v * 10 + (ch - '0');
                }
                if (v > 255) {
                    return null;
                }
                b[i] = (byte) v;
            }
            return b;
        }
    }

    /** Enum8/Enum16 by element name, or by value when the name is a number of an element. */
    static final class EnumReader extends ValueReader {
        private final EnumType et;
        private final Map<String, Integer> byName = new HashMap<>();

        EnumReader(EnumType type, Scratch s) {
            super(type, s);
            this.et = type;
            for (String name : type.names()) {
                byName.put(
                        new String(
                                name.getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1),
                        type.valueOf(name));
            }
        }

        private void store(Column c, int v) {
            if (c instanceof ByteColumn b) {
                b.add((byte) v);
            } else {
                ((ShortColumn) c).add((short) v);
            }
        }

        private int value(ByteBuf name, boolean treatAsId) {
            Integer v = byName.get(new String(name.b, 0, name.len, StandardCharsets.ISO_8859_1));
            if (v != null) {
                return v;
            }
            if (treatAsId) {
                TextCursor t = TextCursor.over(name.b, 0, name.len);
                try {
                    if (name.len > 0) {
                        long x = Numbers.readInt(t, true);
                        if (t.eof() && et.nameOf((int) x) != null) {
                            return (int) x;
                        }
                    }
                } catch (TextParseException e) {
                    // not a number either
                }
            }
            throw new TextParseException(
                    "Unknown element '" + name.describe() + "' for enum " + et.name());
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readEscaped(in, v);
            store(c, value(v, true));
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readQuoted(in, v, '\'', true);
            store(c, value(v, false));
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            ByteBuf v = scratch.bytes;
            v.clear();
            TextStrings.readCsv(in, v, settings());
            store(c, value(v, true));
        }

        @Override
        void readJson(TextCursor in, Column c) {
            if (in.at('"')) {
                ByteBuf v = scratch.bytes;
                v.clear();
                TextStrings.readJson(in, v);
                store(c, value(v, true));
                return;
            }
            long x = Numbers.readInt(in, true);
            if (et.nameOf((int) x) == null) {
                throw new TextParseException("Unexpected value " + x + " in enum " + et.name());
            }
            store(c, (int) x);
        }
    }
}
