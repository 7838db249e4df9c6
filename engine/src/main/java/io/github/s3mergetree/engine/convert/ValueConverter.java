package io.github.s3mergetree.engine.convert;

import io.github.s3mergetree.engine.aggregate.StateFunction;
import io.github.s3mergetree.engine.aggregate.StateFunctions;
import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Converts Java values into column values following ClickHouse's INSERT casting rules: integers
 * with range checks, decimals scaled to the column's scale (extra digits truncated, overflow of the
 * precision refused), strings into Enum/FixedString/UUID/Date/DateTime/IPs, dates and times with
 * the column's time zone (or the server's), NULL into non-Nullable columns as the type's default
 * ({@code input_format_null_as_default = 1}). Each failure is a {@link ConversionException} naming
 * the table, column and row.
 *
 * <p>Accepted Java values: {@link Number} (including BigInteger/BigDecimal), {@link Boolean},
 * {@link String}/{@code byte[]}, {@link LocalDate}, {@link LocalDateTime}, {@link Instant}, {@link
 * ZonedDateTime}, {@link OffsetDateTime}, {@link UUID}, {@link InetAddress}, {@link List} / arrays
 * for Array and Tuple, {@link Map} for Map, null; for an {@code AggregateFunction(f, T…)} column
 * the row's argument value(s), which become f's state over the row (see {@code appendState}).
 */
public final class ValueConverter {
    private static final long DATE_MAX_DAYS = 65535;
    private static final long DATE32_MIN_DAYS = LocalDate.of(1900, 1, 1).toEpochDay();
    private static final long DATE32_MAX_DAYS = LocalDate.of(2299, 12, 31).toEpochDay();

    private final String table;
    private final ZoneId serverZone;

    public ValueConverter(String table, ZoneId serverZone) {
        this.table = table;
        this.serverZone = serverZone;
    }

    /** Appends {@code value} to {@code column} of {@code type}; {@code column}/row name errors. */
    public void append(DataType type, Column target, Object value, String columnName, long row) {
        try {
            appendValue(type, target, value);
        } catch (ConversionException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ConversionException(
                    table,
                    columnName,
                    row,
                    "value "
                            + describe(value)
                            + " cannot be stored as "
                            + type.name()
                            + ": "
                            + e.getMessage());
        }
    }

    private static String describe(Object v) {
        if (v == null) {
            return "NULL";
        }
        String s = v instanceof byte[] b ? escapeBytes(b) : escape(String.valueOf(v));
        if (s.length() > 100) {
            s = s.substring(0, 100) + "…";
        }
        return (v instanceof String || v instanceof byte[] ? "'" + s + "'" : s)
                + " ("
                + v.getClass().getSimpleName()
                + ")";
    }

    /**
     * A value for a message, escaped as ClickHouse quotes strings: control characters as {@code
     * \n}, {@code \t}, {@code \0} or {@code \xNN}, so binary bytes never reach a log raw.
     */
    public static String escape(String s) {
        return escape(s, true);
    }

    /**
     * A message made printable: control characters escaped as in {@link #escape}, quotes and
     * backslashes left as they are (for a message that already quotes its values).
     */
    public static String printable(String s) {
        return escape(s, false);
    }

    private static String escape(String s, boolean quotes) {
        StringBuilder b = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String e = escapeChar(c, quotes);
            if (e != null && b == null) {
                b = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (b != null) {
                if (e != null) {
                    b.append(e);
                } else {
                    b.append(c);
                }
            }
        }
        return b == null ? s : b.toString();
    }

    private static String escapeChar(char c, boolean quotes) {
        return switch (c) {
            case '\n' -> "\\n";
            case '\t' -> "\\t";
            case '\r' -> "\\r";
            case '\0' -> "\\0";
            case '\\' -> quotes ? "\\\\" : null;
            case '\'' -> quotes ? "\\'" : null;
            default ->
                    c == '\uFFFD'
                            ? "\\uFFFD" // a byte lost before this value reached the converter
                            : c < 0x20 || c == 0x7F || (c >= 0x80 && c < 0xA0)
                                    ? String.format("\\x%02X", (int) c)
                                    : null;
        };
    }

    /**
     * Bytes for a message: valid UTF-8 as text (escaped like {@link #escape}), anything else byte
     * by byte, printable ASCII as is and the rest as {@code \xNN}.
     */
    public static String escapeBytes(byte[] bytes) {
        try {
            return escape(
                    StandardCharsets.UTF_8
                            .newDecoder()
                            .decode(java.nio.ByteBuffer.wrap(bytes))
                            .toString());
        } catch (java.nio.charset.CharacterCodingException e) {
            StringBuilder b = new StringBuilder(bytes.length * 2);
            for (byte x : bytes) {
                int u = x & 0xFF;
                String esc = u < 0x80 ? escapeChar((char) u, true) : null;
                if (u >= 0x80) {
                    b.append(String.format("\\x%02X", u));
                } else if (esc != null) {
                    b.append(esc);
                } else {
                    b.append((char) u);
                }
            }
            return b.toString();
        }
    }

    /**
     * An {@code AggregateFunction(f, T…)} column takes the row's argument values, as ClickHouse's
     * {@code aggregate_function_input_format = 'value'}: one value for a one-argument function, a
     * List or array (a Tuple) of the values for argMin/argMax, anything for {@code count()} (the
     * row counts). Each value is cast to its argument type as an INSERT casts it, and the column
     * receives f's state over this one row ({@code fState(x)}). NULL is the column's default, the
     * empty state, except for {@code count()}.
     */
    private void appendState(AggregateFunctionType type, StringColumn c, Object v) {
        StateFunction<?> states = StateFunctions.of(type);
        List<DataType> argTypes = type.arguments();
        if (v == null && !argTypes.isEmpty()) {
            byte[] empty = states.emptyState();
            c.add(empty, 0, empty.length);
            return;
        }
        List<?> values;
        if (argTypes.size() == 1) {
            values = java.util.Collections.singletonList(v);
        } else if (argTypes.isEmpty()) {
            values = List.of();
        } else {
            values = asList(v);
            if (values.size() != argTypes.size()) {
                throw new IllegalArgumentException(
                        "expected a tuple of the "
                                + argTypes.size()
                                + " arguments of "
                                + type.function().canonicalName()
                                + ", got "
                                + values.size()
                                + " values");
            }
        }
        byte[][] args = new byte[argTypes.size()][];
        for (int i = 0; i < args.length; i++) {
            DataType t = argTypes.get(i);
            Column arg = Columns.create(t, 1);
            appendValue(t, arg, values.get(i));
            ByteArraySink out = new ByteArraySink(16);
            ValueSerde.write(t, arg, 0, out);
            args[i] = out.toByteArray();
        }
        byte[] state = states.stateOfRow(args);
        c.add(state, 0, state.length);
    }

    private void appendValue(DataType type, Column c, Object v) {
        if (type instanceof LowCardinalityType lc) {
            appendValue(lc.nested(), c, v);
            return;
        }
        if (type instanceof NullableType n) {
            NullableColumn nc = (NullableColumn) c;
            if (v == null) {
                nc.addNull();
            } else {
                appendValue(n.nested(), nc.nested(), v);
                nc.addNotNull();
            }
            return;
        }
        if (type instanceof AggregateFunctionType af) {
            appendState(af, (StringColumn) c, v);
            return;
        }
        if (v == null) {
            Columns.appendDefault(type, c);
            return;
        }
        if (type instanceof MapType m) {
            if (!(v instanceof Map<?, ?> map)) {
                throw new IllegalArgumentException("expected a Map");
            }
            ArrayColumn ac = (ArrayColumn) c;
            TupleColumn kv = (TupleColumn) ac.elements();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                appendValue(m.key(), kv.element(0), e.getKey());
                appendValue(m.value(), kv.element(1), e.getValue());
            }
            ac.endRow();
            return;
        }
        if (type instanceof ArrayType a) {
            ArrayColumn ac = (ArrayColumn) c;
            for (Object e : asList(v)) {
                appendValue(a.element(), ac.elements(), e);
            }
            ac.endRow();
            return;
        }
        if (type instanceof TupleType t) {
            TupleColumn tc = (TupleColumn) c;
            List<?> items = asList(v);
            if (items.size() != tc.arity()) {
                throw new IllegalArgumentException(
                        "tuple has " + items.size() + " elements, expected " + tc.arity());
            }
            for (int i = 0; i < tc.arity(); i++) {
                appendValue(t.elements().get(i), tc.element(i), items.get(i));
            }
            return;
        }
        if (v instanceof byte[] b
                && type.kind() != io.github.s3mergetree.engine.types.TypeKind.STRING
                && type.kind() != io.github.s3mergetree.engine.types.TypeKind.FIXED_STRING) {
            // bytes into any other type are parsed as their text, as ClickHouse parses a String
            v = new String(b, StandardCharsets.UTF_8);
        }
        switch (type.kind()) {
            case UINT8 -> ((ByteColumn) c).add((byte) integer(v, 0, 0xFF));
            case INT8 -> ((ByteColumn) c).add((byte) integer(v, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case UINT16 -> ((ShortColumn) c).add((short) integer(v, 0, 0xFFFF));
            case INT16 ->
                    ((ShortColumn) c).add((short) integer(v, Short.MIN_VALUE, Short.MAX_VALUE));
            case UINT32 -> ((IntColumn) c).add((int) integer(v, 0, 0xFFFFFFFFL));
            case INT32 ->
                    ((IntColumn) c).add((int) integer(v, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case INT64 -> ((LongColumn) c).add(integer(v, Long.MIN_VALUE, Long.MAX_VALUE));
            case UINT64 -> ((LongColumn) c).add(bigInteger(v, 64, false).longValue());
            case UINT128, UINT256, INT128, INT256 -> {
                boolean signed =
                        type.kind() == io.github.s3mergetree.engine.types.TypeKind.INT128
                                || type.kind()
                                        == io.github.s3mergetree.engine.types.TypeKind.INT256;
                int width = type.fixedWidth();
                addLittleEndian((FixedBytesColumn) c, bigInteger(v, width * 8, signed), width);
            }
            case FLOAT32 -> ((FloatColumn) c).add((float) floating(v));
            case FLOAT64 -> ((DoubleColumn) c).add(floating(v));
            case BOOL -> ((ByteColumn) c).add(bool(v) ? (byte) 1 : 0);
            case DECIMAL -> decimal((DecimalType) type, c, v);
            case STRING -> {
                byte[] b = bytes(v);
                ((StringColumn) c).add(b, 0, b.length);
            }
            case FIXED_STRING -> {
                byte[] b = bytes(v);
                int n = ((FixedStringType) type).length();
                if (b.length > n) {
                    throw new IllegalArgumentException(
                            "too large value for FixedString(" + n + "): " + b.length + " bytes");
                }
                ((FixedBytesColumn) c).addPadded(b, 0, b.length);
            }
            case DATE -> ((ShortColumn) c).add((short) days(v, 0, DATE_MAX_DAYS));
            case DATE32 -> ((IntColumn) c).add((int) days(v, DATE32_MIN_DAYS, DATE32_MAX_DAYS));
            case DATETIME -> {
                ZoneId z = ((DateTimeType) type).zoneOr(serverZone);
                long secs = epochSeconds(v, z);
                if (secs < 0 || secs > 0xFFFFFFFFL) {
                    throw new IllegalArgumentException("out of the DateTime range 1970..2106");
                }
                ((IntColumn) c).add((int) secs);
            }
            case DATETIME64 -> ((LongColumn) c).add(ticks((DateTime64Type) type, v));
            case UUID -> {
                UUID u = v instanceof UUID x ? x : UUID.fromString(v.toString());
                FixedBytesColumn f = (FixedBytesColumn) c;
                byte[] b = new byte[16];
                putLong(b, 0, u.getMostSignificantBits());
                putLong(b, 8, u.getLeastSignificantBits());
                f.add(b, 0);
            }
            case IPV4 -> {
                long ip;
                if (v instanceof Number n) {
                    ip = integer(n, 0, 0xFFFFFFFFL);
                } else {
                    byte[] a = inet(v).getAddress();
                    if (a.length != 4) {
                        throw new IllegalArgumentException("not an IPv4 address");
                    }
                    ip =
                            ((a[0] & 0xFFL) << 24)
                                    | ((a[1] & 0xFF) << 16)
                                    | ((a[2] & 0xFF) << 8)
                                    | (a[3] & 0xFF);
                }
                ((IntColumn) c).add((int) ip);
            }
            case IPV6 -> {
                InetAddress a = inet(v);
                byte[] b = new byte[16];
                if (a instanceof Inet4Address) {
                    b[10] = (byte) 0xFF;
                    b[11] = (byte) 0xFF;
                    System.arraycopy(a.getAddress(), 0, b, 12, 4);
                } else {
                    b = a.getAddress();
                }
                ((FixedBytesColumn) c).add(b, 0);
            }
            case ENUM8, ENUM16 -> {
                EnumType e = (EnumType) type;
                int value;
                if (v instanceof Number n) {
                    value = (int) integer(n, Short.MIN_VALUE, Short.MAX_VALUE);
                    if (e.nameOf(value) == null) {
                        throw new IllegalArgumentException("unknown element value " + value);
                    }
                } else {
                    Integer x = e.valueOf(v.toString());
                    if (x == null) {
                        throw new IllegalArgumentException("unknown element '" + v + "'");
                    }
                    value = x;
                }
                if (c instanceof ByteColumn b) {
                    b.add((byte) value);
                } else {
                    ((ShortColumn) c).add((short) value);
                }
            }
            default -> throw new IllegalArgumentException("unsupported type");
        }
    }

    private static List<?> asList(Object v) {
        if (v instanceof List<?> l) {
            return l;
        }
        if (v instanceof Object[] a) {
            return List.of(a);
        }
        if (v.getClass().isArray()) {
            int n = java.lang.reflect.Array.getLength(v);
            Object[] out = new Object[n];
            for (int i = 0; i < n; i++) {
                out[i] = java.lang.reflect.Array.get(v, i);
            }
            return java.util.Arrays.asList(out);
        }
        throw new IllegalArgumentException("expected a List or an array");
    }

    private static long integer(Object v, long min, long max) {
        BigInteger b = bigInteger(v, 64, true);
        if (b.compareTo(BigInteger.valueOf(min)) < 0 || b.compareTo(BigInteger.valueOf(max)) > 0) {
            throw new IllegalArgumentException("out of range [" + min + ", " + max + "]");
        }
        return b.longValue();
    }

    private static BigInteger bigInteger(Object v, int bits, boolean signed) {
        BigInteger b;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            b = BigInteger.valueOf(((Number) v).longValue());
        } else if (v instanceof BigInteger x) {
            b = x;
        } else if (v instanceof BigDecimal d) {
            b = d.toBigIntegerExact();
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("not an integer");
            }
            b = new BigDecimal(d).toBigInteger();
        } else if (v instanceof Boolean x) {
            b = x ? BigInteger.ONE : BigInteger.ZERO;
        } else if (v instanceof Instant i) {
            // a DateTime64 cast to an integer: its seconds, as ClickHouse's CAST
            b = BigInteger.valueOf(i.getEpochSecond());
        } else if (v instanceof LocalDate d) {
            b = BigInteger.valueOf(d.toEpochDay()); // a Date cast to an integer: its day number
        } else if (v instanceof String || v instanceof byte[]) {
            b = new BigInteger(new String(bytes(v), StandardCharsets.UTF_8).trim());
        } else {
            throw new IllegalArgumentException("not a number");
        }
        BigInteger min = signed ? BigInteger.ONE.shiftLeft(bits - 1).negate() : BigInteger.ZERO;
        BigInteger max =
                signed
                        ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE)
                        : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        if (b.compareTo(min) < 0 || b.compareTo(max) > 0) {
            throw new IllegalArgumentException("out of range [" + min + ", " + max + "]");
        }
        return b;
    }

    private static void addLittleEndian(FixedBytesColumn c, BigInteger v, int width) {
        byte[] be = v.toByteArray();
        byte[] le = new byte[width];
        byte fill = (byte) (v.signum() < 0 ? 0xFF : 0);
        java.util.Arrays.fill(le, fill);
        for (int i = 0; i < Math.min(be.length, width); i++) {
            le[i] = be[be.length - 1 - i];
        }
        c.add(le, 0);
    }

    private static double floating(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        String s = new String(bytes(v), StandardCharsets.UTF_8).trim().toLowerCase();
        return switch (s) {
            case "nan", "+nan", "-nan" -> Double.NaN;
            case "inf", "+inf", "infinity" -> Double.POSITIVE_INFINITY;
            case "-inf", "-infinity" -> Double.NEGATIVE_INFINITY;
            default -> Double.parseDouble(s);
        };
    }

    private static boolean bool(Object v) {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            long x = integer(n, 0, 1);
            return x == 1;
        }
        String s = v.toString().trim().toLowerCase();
        return switch (s) {
            case "true", "1", "yes", "on", "t", "y" -> true;
            case "false", "0", "no", "off", "f", "n" -> false;
            default -> throw new IllegalArgumentException("not a boolean");
        };
    }

    private static void decimal(DecimalType t, Column c, Object v) {
        BigDecimal d;
        if (v instanceof BigDecimal x) {
            d = x;
        } else if (v instanceof BigInteger x) {
            d = new BigDecimal(x);
        } else if (v instanceof Double || v instanceof Float) {
            d = BigDecimal.valueOf(((Number) v).doubleValue());
        } else if (v instanceof Number n) {
            d = BigDecimal.valueOf(n.longValue());
        } else {
            d = new BigDecimal(new String(bytes(v), StandardCharsets.UTF_8).trim());
        }
        BigInteger unscaled = d.setScale(t.scale(), RoundingMode.DOWN).unscaledValue();
        if (unscaled.abs().compareTo(BigInteger.TEN.pow(t.precision())) >= 0) {
            throw new IllegalArgumentException(
                    "Decimal overflow: " + d.toPlainString() + " does not fit " + t.name());
        }
        switch (t.fixedWidth()) {
            case 4 -> ((IntColumn) c).add(unscaled.intValue());
            case 8 -> ((LongColumn) c).add(unscaled.longValue());
            default -> addLittleEndian((FixedBytesColumn) c, unscaled, t.fixedWidth());
        }
    }

    private static byte[] bytes(Object v) {
        if (v instanceof byte[] b) {
            return b;
        }
        return v.toString().getBytes(StandardCharsets.UTF_8);
    }

    private long days(Object v, long min, long max) {
        long d;
        if (v instanceof LocalDate ld) {
            d = ld.toEpochDay();
        } else if (v instanceof LocalDateTime ldt) {
            d = ldt.toLocalDate().toEpochDay();
        } else if (v instanceof Instant i) {
            d = LocalDate.ofInstant(i, serverZone).toEpochDay();
        } else if (v instanceof ZonedDateTime z) {
            d = z.toLocalDate().toEpochDay();
        } else if (v instanceof OffsetDateTime o) {
            d = o.toLocalDate().toEpochDay();
        } else if (v instanceof Number n) {
            d = integer(n, Integer.MIN_VALUE, Integer.MAX_VALUE);
        } else {
            try {
                d = LocalDate.parse(v.toString().trim()).toEpochDay();
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException("not a date (YYYY-MM-DD)");
            }
        }
        if (d < min || d > max) {
            throw new IllegalArgumentException(
                    "out of the range "
                            + LocalDate.ofEpochDay(min)
                            + ".."
                            + LocalDate.ofEpochDay(max));
        }
        return d;
    }

    private static Instant instant(Object v, ZoneId zone) {
        if (v instanceof Instant i) {
            return i;
        }
        if (v instanceof LocalDateTime l) {
            return l.atZone(zone).toInstant();
        }
        if (v instanceof ZonedDateTime z) {
            return z.toInstant();
        }
        if (v instanceof OffsetDateTime o) {
            return o.toInstant();
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay(zone).toInstant();
        }
        String s = v.toString().trim().replace('T', ' ');
        try {
            if (s.length() == 10) {
                return LocalDate.parse(s).atStartOfDay(zone).toInstant();
            }
            return LocalDateTime.parse(s.replace(' ', 'T')).atZone(zone).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a date-time (YYYY-MM-DD hh:mm:ss[.fff])");
        }
    }

    private static long epochSeconds(Object v, ZoneId zone) {
        if (v instanceof Number n) {
            return integer(n, 0, 0xFFFFFFFFL);
        }
        return instant(v, zone).getEpochSecond();
    }

    private long ticks(DateTime64Type t, Object v) {
        if (v instanceof Number n) {
            return integer(n, Long.MIN_VALUE, Long.MAX_VALUE);
        }
        Instant i = instant(v, t.zoneOr(serverZone));
        long perSecond = t.ticksPerSecond();
        long nanosPerTick = 1_000_000_000L / perSecond;
        try {
            return Math.addExact(
                    Math.multiplyExact(i.getEpochSecond(), perSecond), i.getNano() / nanosPerTick);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("out of the DateTime64 range");
        }
    }

    private static InetAddress inet(Object v) {
        if (v instanceof InetAddress a) {
            return a;
        }
        String s = v.toString().trim();
        if (!s.matches("[0-9a-fA-F:.]+")) {
            throw new IllegalArgumentException("not an IP address literal");
        }
        try {
            return InetAddress.getByName(s);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address literal");
        }
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
