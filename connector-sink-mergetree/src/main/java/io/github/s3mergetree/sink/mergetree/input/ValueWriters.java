package io.github.s3mergetree.sink.mergetree.input;

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
import io.github.s3mergetree.engine.convert.ValueConverter;
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
import io.github.s3mergetree.engine.types.TypeKind;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Value writers from Flink SQL values ({@link RowData} fields, array elements) into engine column
 * vectors, following ClickHouse's INSERT casting rules.
 *
 * <p>The common cases have direct paths that read primitives and write them into the column's
 * primitive array with the range check ClickHouse applies (integers of every width, floats, strings
 * into String/LowCardinality/FixedString/Enum, DATE into Date/Date32, TIMESTAMP and TIMESTAMP_LTZ
 * into DateTime/DateTime64 with precision and time zone, compact decimals of the same scale,
 * Nullable, arrays, maps, rows into tuples). Everything else goes through the engine's {@link
 * ValueConverter} on a Java value (strings into UUID/IP/Date, numbers into decimals, wide integers,
 * ...), which implements the same rules. NULL into a non-Nullable column stores the type's default
 * ({@code input_format_null_as_default = 1}, ClickHouse's default). An {@code AggregateFunction(f,
 * T…)} column takes the argument value(s) of f (a ROW of them for argMin/argMax, any value for
 * {@code count()}) and stores f's state over the row, as ClickHouse's {@code
 * aggregate_function_input_format = 'value'} (see {@link ValueConverter}).
 */
final class ValueWriters {
    private ValueWriters() {}

    /** Writes the value at {@code pos} of {@code src} into {@code target}. */
    interface ValueWriter {
        void write(Fields src, int pos, Column target);
    }

    /** What the generic path needs: the engine converter and where we are (for messages). */
    static final class Context {
        final ValueConverter converter;
        final ZoneId serverZone;
        String column = "?";
        long row;

        Context(String table, ZoneId serverZone) {
            this.converter = new ValueConverter(table, serverZone);
            this.serverZone = serverZone;
        }
    }

    /**
     * A writer from values of Flink type {@code src} into a column of ClickHouse type {@code ch}.
     */
    static ValueWriter create(LogicalType src, DataType ch, Context ctx) {
        if (ch instanceof AggregateFunctionType) {
            // the row's argument value(s), NULL included, become f's state over the row
            return generic(src, ch, ctx);
        }
        if (ch instanceof LowCardinalityType lc) {
            return create(src, lc.nested(), ctx);
        }
        if (ch instanceof NullableType n) {
            ValueWriter inner = nonNull(src, n.nested(), ctx);
            return (f, pos, col) -> {
                NullableColumn nc = (NullableColumn) col;
                if (f.isNullAt(pos)) {
                    nc.addNull();
                } else {
                    inner.write(f, pos, nc.nested());
                    nc.addNotNull();
                }
            };
        }
        ValueWriter inner = nonNull(src, ch, ctx);
        if (!src.isNullable()) {
            return inner;
        }
        return (f, pos, col) -> {
            if (f.isNullAt(pos)) {
                Columns.appendDefault(ch, col);
            } else {
                inner.write(f, pos, col);
            }
        };
    }

    /** A writer for non-NULL values. */
    private static ValueWriter nonNull(LogicalType src, DataType ch, Context ctx) {
        LogicalTypeRoot root = src.getTypeRoot();
        if (ch instanceof ArrayType a && root == LogicalTypeRoot.ARRAY) {
            LogicalType elementType =
                    ((org.apache.flink.table.types.logical.ArrayType) src).getElementType();
            ValueWriter element = create(elementType, a.element(), ctx);
            Fields.Arrays view = new Fields.Arrays();
            return (f, pos, col) -> {
                ArrayColumn ac = (ArrayColumn) col;
                ArrayData data = f.getArray(pos);
                // each nesting level has its own writer, hence its own view
                view.of(data);
                int n = data.size();
                for (int i = 0; i < n; i++) {
                    element.write(view, i, ac.elements());
                }
                ac.endRow();
            };
        }
        if (ch instanceof MapType m
                && (root == LogicalTypeRoot.MAP || root == LogicalTypeRoot.MULTISET)) {
            LogicalType kt;
            LogicalType vt;
            if (root == LogicalTypeRoot.MAP) {
                var mt = (org.apache.flink.table.types.logical.MapType) src;
                kt = mt.getKeyType();
                vt = mt.getValueType();
            } else {
                var mt = (org.apache.flink.table.types.logical.MultisetType) src;
                kt = mt.getElementType();
                vt = new org.apache.flink.table.types.logical.IntType(false);
            }
            ValueWriter kw = create(kt, m.key(), ctx);
            ValueWriter vw = create(vt, m.value(), ctx);
            Fields.Arrays keys = new Fields.Arrays();
            Fields.Arrays values = new Fields.Arrays();
            return (f, pos, col) -> {
                ArrayColumn ac = (ArrayColumn) col;
                TupleColumn kv = (TupleColumn) ac.elements();
                MapData map = f.getMap(pos);
                keys.of(map.keyArray());
                values.of(map.valueArray());
                int n = map.size();
                for (int i = 0; i < n; i++) {
                    kw.write(keys, i, kv.element(0));
                    vw.write(values, i, kv.element(1));
                }
                ac.endRow();
            };
        }
        if (ch instanceof TupleType t && root == LogicalTypeRoot.ROW) {
            RowType rt = (RowType) src;
            int arity = rt.getFieldCount();
            if (arity != t.elements().size()) {
                throw new IllegalArgumentException(
                        "a ROW of "
                                + arity
                                + " fields cannot be stored as "
                                + t.name()
                                + " ("
                                + t.elements().size()
                                + " elements)");
            }
            ValueWriter[] elements = new ValueWriter[arity];
            for (int i = 0; i < arity; i++) {
                elements[i] = create(rt.getTypeAt(i), t.elements().get(i), ctx);
            }
            Fields.Rows view = new Fields.Rows();
            return (f, pos, col) -> {
                TupleColumn tc = (TupleColumn) col;
                view.of(f.getRow(pos, arity));
                for (int i = 0; i < arity; i++) {
                    elements[i].write(view, i, tc.element(i));
                }
            };
        }
        ValueWriter direct = direct(src, ch, ctx.serverZone);
        return direct != null ? direct : generic(src, ch, ctx);
    }

    /** The direct (no boxing) path, or null if this pair has none. */
    private static ValueWriter direct(LogicalType src, DataType ch, ZoneId serverZone) {
        LogicalTypeRoot root = src.getTypeRoot();
        TypeKind kind = ch.kind();
        boolean integerSource = src.is(LogicalTypeFamily.INTEGER_NUMERIC);
        switch (kind) {
            case INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 -> {
                if (!integerSource && root != LogicalTypeRoot.BOOLEAN) {
                    return null;
                }
                long min = minOf(kind);
                long max = maxOf(kind);
                IntegerReader r = integerReader(root);
                String name = ch.name();
                return switch (kind) {
                    case INT8, UINT8 ->
                            (f, pos, col) ->
                                    ((ByteColumn) col)
                                            .add((byte) check(r.read(f, pos), min, max, name));
                    case INT16, UINT16 ->
                            (f, pos, col) ->
                                    ((ShortColumn) col)
                                            .add((short) check(r.read(f, pos), min, max, name));
                    case INT32, UINT32 ->
                            (f, pos, col) ->
                                    ((IntColumn) col)
                                            .add((int) check(r.read(f, pos), min, max, name));
                    case INT64 -> (f, pos, col) -> ((LongColumn) col).add(r.read(f, pos));
                    default ->
                            (f, pos, col) ->
                                    ((LongColumn) col)
                                            .add(check(r.read(f, pos), 0, Long.MAX_VALUE, name));
                };
            }
            case BOOL -> {
                if (root == LogicalTypeRoot.BOOLEAN) {
                    return (f, pos, col) ->
                            ((ByteColumn) col).add(f.getBoolean(pos) ? (byte) 1 : 0);
                }
                return null;
            }
            case FLOAT32, FLOAT64 -> {
                Double2 d = doubleReader(src);
                if (d == null) {
                    return null;
                }
                if (kind == TypeKind.FLOAT32) {
                    if (root == LogicalTypeRoot.FLOAT) {
                        return (f, pos, col) -> ((FloatColumn) col).add(f.getFloat(pos));
                    }
                    return (f, pos, col) -> ((FloatColumn) col).add((float) d.read(f, pos));
                }
                if (root == LogicalTypeRoot.DOUBLE) {
                    return (f, pos, col) -> ((DoubleColumn) col).add(f.getDouble(pos));
                }
                return (f, pos, col) -> ((DoubleColumn) col).add(d.read(f, pos));
            }
            case STRING -> {
                if (root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR) {
                    return (f, pos, col) -> appendString((StringColumn) col, f.getString(pos));
                }
                if (root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY) {
                    return (f, pos, col) -> {
                        byte[] b = f.getBinary(pos);
                        ((StringColumn) col).add(b, 0, b.length);
                    };
                }
                return null;
            }
            case FIXED_STRING -> {
                int n = ((FixedStringType) ch).length();
                if (root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR) {
                    return (f, pos, col) -> {
                        byte[] b = f.getString(pos).toBytes();
                        fixed((FixedBytesColumn) col, b, n);
                    };
                }
                if (root == LogicalTypeRoot.BINARY || root == LogicalTypeRoot.VARBINARY) {
                    return (f, pos, col) -> fixed((FixedBytesColumn) col, f.getBinary(pos), n);
                }
                return null;
            }
            case ENUM8, ENUM16 -> {
                EnumType e = (EnumType) ch;
                boolean small = kind == TypeKind.ENUM8;
                if (root == LogicalTypeRoot.CHAR || root == LogicalTypeRoot.VARCHAR) {
                    return (f, pos, col) -> {
                        String s = f.getString(pos).toString();
                        Integer v = e.valueOf(s);
                        if (v == null) {
                            throw new IllegalArgumentException(
                                    "unknown element '" + s + "' for " + e.name());
                        }
                        addEnum(col, v, small);
                    };
                }
                if (integerSource) {
                    IntegerReader r = integerReader(root);
                    return (f, pos, col) -> {
                        long v = r.read(f, pos);
                        if (v < Short.MIN_VALUE
                                || v > Short.MAX_VALUE
                                || e.nameOf((int) v) == null) {
                            throw new IllegalArgumentException(
                                    "unknown element value " + v + " for " + e.name());
                        }
                        addEnum(col, (int) v, small);
                    };
                }
                return null;
            }
            case DATE, DATE32 -> {
                if (root != LogicalTypeRoot.DATE) {
                    return null;
                }
                if (kind == TypeKind.DATE) {
                    return (f, pos, col) -> {
                        int d = f.getInt(pos);
                        if (d < 0 || d > 65535) {
                            throw new IllegalArgumentException(
                                    "date "
                                            + LocalDate.ofEpochDay(d)
                                            + " out of the Date range 1970-01-01..2149-06-06");
                        }
                        ((ShortColumn) col).add((short) d);
                    };
                }
                long min = LocalDate.of(1900, 1, 1).toEpochDay();
                long max = LocalDate.of(2299, 12, 31).toEpochDay();
                return (f, pos, col) -> {
                    int d = f.getInt(pos);
                    if (d < min || d > max) {
                        throw new IllegalArgumentException(
                                "date "
                                        + LocalDate.ofEpochDay(d)
                                        + " out of the Date32 range 1900-01-01..2299-12-31");
                    }
                    ((IntColumn) col).add(d);
                };
            }
            case DATETIME -> {
                ZoneId zone = ((DateTimeType) ch).timeZone().map(ZoneId::of).orElse(serverZone);
                int precision = timestampPrecision(src);
                if (precision < 0) {
                    return null;
                }
                boolean ltz = root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
                return (f, pos, col) -> {
                    TimestampData t = f.getTimestamp(pos, precision);
                    long secs = Math.floorDiv(epochMillis(t, ltz, zone), 1000);
                    if (secs < 0 || secs > 0xFFFFFFFFL) {
                        throw new IllegalArgumentException(
                                t + " out of the DateTime range 1970..2106");
                    }
                    ((IntColumn) col).add((int) secs);
                };
            }
            case DATETIME64 -> {
                DateTime64Type dt = (DateTime64Type) ch;
                ZoneId zone = dt.timeZone().map(ZoneId::of).orElse(serverZone);
                int precision = timestampPrecision(src);
                if (precision < 0) {
                    return null;
                }
                boolean ltz = root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
                long perSecond = dt.ticksPerSecond();
                long nanosPerTick = 1_000_000_000L / perSecond;
                return (f, pos, col) -> {
                    TimestampData t = f.getTimestamp(pos, precision);
                    long millis = epochMillis(t, ltz, zone);
                    long secs = Math.floorDiv(millis, 1000);
                    long nanos =
                            Math.floorMod(millis, 1000) * 1_000_000L + t.getNanoOfMillisecond();
                    try {
                        ((LongColumn) col)
                                .add(
                                        Math.addExact(
                                                Math.multiplyExact(secs, perSecond),
                                                nanos / nanosPerTick));
                    } catch (ArithmeticException e) {
                        throw new IllegalArgumentException(t + " out of the DateTime64 range");
                    }
                };
            }
            case DECIMAL -> {
                DecimalType d = (DecimalType) ch;
                if (root != LogicalTypeRoot.DECIMAL || d.fixedWidth() > 8) {
                    return null;
                }
                int p = LogicalTypeChecks.getPrecision(src);
                int s = LogicalTypeChecks.getScale(src);
                if (s != d.scale() || !DecimalData.isCompact(p)) {
                    return null;
                }
                long limit = d.precision() >= 19 ? Long.MAX_VALUE : pow10(d.precision());
                boolean four = d.fixedWidth() == 4;
                String name = d.name();
                return (f, pos, col) -> {
                    long v = f.getDecimal(pos, p, s).toUnscaledLong();
                    if (v >= limit || v <= -limit) {
                        throw new IllegalArgumentException(
                                "Decimal overflow: "
                                        + f.getDecimal(pos, p, s)
                                        + " does not fit "
                                        + name);
                    }
                    if (four) {
                        ((IntColumn) col).add((int) v);
                    } else {
                        ((LongColumn) col).add(v);
                    }
                };
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * The generic path: the Flink value as a Java value, converted by the engine's {@link
     * ValueConverter} (ClickHouse's casting rules, errors naming table, column and row).
     */
    private static ValueWriter generic(LogicalType src, DataType ch, Context ctx) {
        JavaReader r = javaReader(src, ctx);
        return (f, pos, col) -> ctx.converter.append(ch, col, r.read(f, pos), ctx.column, ctx.row);
    }

    /** Reads a non-NULL value as a Java object {@link ValueConverter} accepts. */
    interface JavaReader {
        Object read(Fields f, int pos);
    }

    static JavaReader javaReader(LogicalType t, Context ctx) {
        JavaReader inner = javaReaderNonNull(t, ctx);
        return (f, pos) -> f.isNullAt(pos) ? null : inner.read(f, pos);
    }

    private static JavaReader javaReaderNonNull(LogicalType t, Context ctx) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return Fields::getBoolean;
            case TINYINT:
                return (f, p) -> (long) f.getByte(p);
            case SMALLINT:
                return (f, p) -> (long) f.getShort(p);
            case INTEGER:
            case INTERVAL_YEAR_MONTH:
                return (f, p) -> (long) f.getInt(p);
            case BIGINT:
            case INTERVAL_DAY_TIME:
                return (f, p) -> f.getLong(p);
            case FLOAT:
                return (f, p) -> f.getFloat(p);
            case DOUBLE:
                return (f, p) -> f.getDouble(p);
            case DECIMAL:
                {
                    int precision = LogicalTypeChecks.getPrecision(t);
                    int scale = LogicalTypeChecks.getScale(t);
                    return (f, p) -> f.getDecimal(p, precision, scale).toBigDecimal();
                }
            case CHAR:
            case VARCHAR:
                return (f, p) -> f.getString(p).toString();
            case BINARY:
            case VARBINARY:
                return Fields::getBinary;
            case DATE:
                return (f, p) -> LocalDate.ofEpochDay(f.getInt(p));
            case TIME_WITHOUT_TIME_ZONE:
                return (f, p) -> LocalTime.ofNanoOfDay(f.getInt(p) * 1_000_000L).toString();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                {
                    int precision = ((TimestampType) t).getPrecision();
                    return (f, p) -> f.getTimestamp(p, precision).toLocalDateTime();
                }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                {
                    int precision = ((LocalZonedTimestampType) t).getPrecision();
                    return (f, p) -> f.getTimestamp(p, precision).toInstant();
                }
            case ARRAY:
                {
                    JavaReader element =
                            javaReader(
                                    ((org.apache.flink.table.types.logical.ArrayType) t)
                                            .getElementType(),
                                    ctx);
                    return (f, p) -> {
                        ArrayData a = f.getArray(p);
                        Fields.Arrays v = new Fields.Arrays().of(a);
                        List<Object> out = new ArrayList<>(a.size());
                        for (int i = 0; i < a.size(); i++) {
                            out.add(element.read(v, i));
                        }
                        return out;
                    };
                }
            case MAP:
                {
                    var mt = (org.apache.flink.table.types.logical.MapType) t;
                    JavaReader k = javaReader(mt.getKeyType(), ctx);
                    JavaReader vr = javaReader(mt.getValueType(), ctx);
                    return (f, p) -> {
                        MapData m = f.getMap(p);
                        Fields.Arrays keys = new Fields.Arrays().of(m.keyArray());
                        Fields.Arrays values = new Fields.Arrays().of(m.valueArray());
                        Map<Object, Object> out = new LinkedHashMap<>();
                        for (int i = 0; i < m.size(); i++) {
                            out.put(k.read(keys, i), vr.read(values, i));
                        }
                        return out;
                    };
                }
            case ROW:
                {
                    RowType rt = (RowType) t;
                    int n = rt.getFieldCount();
                    JavaReader[] fields = new JavaReader[n];
                    for (int i = 0; i < n; i++) {
                        fields[i] = javaReader(rt.getTypeAt(i), ctx);
                    }
                    return (f, p) -> {
                        RowData r = f.getRow(p, n);
                        Fields.Rows v = new Fields.Rows().of(r);
                        List<Object> out = new ArrayList<>(n);
                        for (int i = 0; i < n; i++) {
                            out.add(fields[i].read(v, i));
                        }
                        return out;
                    };
                }
            default:
                throw new IllegalArgumentException(
                        "Flink type "
                                + t.asSummaryString()
                                + " is not supported by the MergeTree sink");
        }
    }

    // ------------------------------------------------------------------ helpers

    private interface IntegerReader {
        long read(Fields f, int pos);
    }

    private interface Double2 {
        double read(Fields f, int pos);
    }

    private static IntegerReader integerReader(LogicalTypeRoot root) {
        return switch (root) {
            case TINYINT -> (f, p) -> f.getByte(p);
            case SMALLINT -> (f, p) -> f.getShort(p);
            case INTEGER -> (f, p) -> f.getInt(p);
            case BIGINT -> (f, p) -> f.getLong(p);
            case BOOLEAN -> (f, p) -> f.getBoolean(p) ? 1 : 0;
            default -> throw new IllegalArgumentException("not an integer type: " + root);
        };
    }

    private static Double2 doubleReader(LogicalType src) {
        return switch (src.getTypeRoot()) {
            case TINYINT -> (f, p) -> f.getByte(p);
            case SMALLINT -> (f, p) -> f.getShort(p);
            case INTEGER -> (f, p) -> f.getInt(p);
            case BIGINT -> (f, p) -> f.getLong(p);
            case FLOAT -> (f, p) -> f.getFloat(p);
            case DOUBLE -> (f, p) -> f.getDouble(p);
            case DECIMAL -> {
                int precision = LogicalTypeChecks.getPrecision(src);
                int scale = LogicalTypeChecks.getScale(src);
                yield (f, p) -> f.getDecimal(p, precision, scale).toBigDecimal().doubleValue();
            }
            default -> null;
        };
    }

    private static long minOf(TypeKind k) {
        return switch (k) {
            case INT8 -> Byte.MIN_VALUE;
            case INT16 -> Short.MIN_VALUE;
            case INT32 -> Integer.MIN_VALUE;
            case INT64 -> Long.MIN_VALUE;
            default -> 0;
        };
    }

    private static long maxOf(TypeKind k) {
        return switch (k) {
            case INT8 -> Byte.MAX_VALUE;
            case INT16 -> Short.MAX_VALUE;
            case INT32 -> Integer.MAX_VALUE;
            case UINT8 -> 0xFF;
            case UINT16 -> 0xFFFF;
            case UINT32 -> 0xFFFFFFFFL;
            default -> Long.MAX_VALUE;
        };
    }

    private static long check(long v, long min, long max, String type) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(
                    "value " + v + " out of the range of " + type + " [" + min + ", " + max + "]");
        }
        return v;
    }

    private static long pow10(int n) {
        long r = 1;
        for (int i = 0; i < n; i++) {
            r *= 10;
        }
        return r;
    }

    private static int timestampPrecision(LogicalType src) {
        if (src instanceof TimestampType t) {
            return t.getPrecision();
        }
        if (src instanceof LocalZonedTimestampType t) {
            return t.getPrecision();
        }
        return -1;
    }

    /**
     * Epoch milliseconds of a timestamp: TIMESTAMP_LTZ is an instant already; a TIMESTAMP (wall
     * clock) is read in the column's zone, or the server zone (as ClickHouse parses a date-time
     * text without zone).
     */
    private static long epochMillis(TimestampData t, boolean ltz, ZoneId zone) {
        long millis = t.getMillisecond();
        if (ltz) {
            return millis;
        }
        if (zone.equals(ZoneOffset.UTC) || zone.getId().equals("UTC")) {
            return millis;
        }
        return t.toLocalDateTime().atZone(zone).toInstant().toEpochMilli();
    }

    private static void fixed(FixedBytesColumn col, byte[] b, int n) {
        if (b.length > n) {
            throw new IllegalArgumentException(
                    "too large value for FixedString(" + n + "): " + b.length + " bytes");
        }
        col.addPadded(b, 0, b.length);
    }

    private static void addEnum(Column col, int v, boolean small) {
        if (small) {
            ((ByteColumn) col).add((byte) v);
        } else {
            ((ShortColumn) col).add((short) v);
        }
    }

    /** Copies a string's UTF-8 bytes into the column without an intermediate array if it can. */
    static void appendString(StringColumn col, StringData s) {
        if (s instanceof BinaryStringData b) {
            BinarySection section = b.getBinarySection();
            if (section == null) {
                String java = b.getJavaObject();
                if (java != null) {
                    // a string built from a Java String (GenericRowData): the JDK's encoder is
                    // much faster than materializing Flink's binary form first
                    byte[] bytes = java.getBytes(StandardCharsets.UTF_8);
                    col.add(bytes, 0, bytes.length);
                    return;
                }
                b.ensureMaterialized();
                section = b.getBinarySection();
            }
            MemorySegment[] segs = section.getSegments();
            int len = section.getSizeInBytes();
            if (segs.length == 1) {
                byte[] buf = col.reserveBytes(len);
                segs[0].get(section.getOffset(), buf, col.totalBytes(), len);
                col.commitRow(len);
                return;
            }
        }
        byte[] bytes = s.toBytes();
        col.add(bytes, 0, bytes.length);
    }
}
