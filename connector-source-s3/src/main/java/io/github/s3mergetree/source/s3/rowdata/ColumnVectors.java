package io.github.s3mergetree.source.s3.rowdata;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.EnumType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.ColumnarArrayData;
import org.apache.flink.table.data.columnar.ColumnarMapData;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.MapColumnVector;
import org.apache.flink.table.data.columnar.vector.RowColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Flink {@link ColumnVector}s over the engine's column vectors: a block becomes a {@link
 * VectorizedColumnBatch} and each of its rows a {@link ColumnarRowData} that reads straight from
 * the block's primitive arrays (strings are not copied, numbers are not boxed).
 *
 * <p>A {@link Reader} is planned once per (ClickHouse type, Flink type) pair; {@link #plan} fails
 * there, at job build time, when a column cannot be read as the requested Flink type. Besides the
 * mapping of {@code ClickHouseTypes.toFlink} it accepts: a wider Flink integer than the column's,
 * BYTES for String/FixedString and STRING for FixedString, DOUBLE for Float32, BIGINT for UInt64 (a
 * value above 2^63-1 fails), TIMESTAMP and TIMESTAMP_LTZ of any precision for every
 * DateTime/DateTime64 (wall-clock time in the column's or the session's time zone, or the instant),
 * and any DECIMAL(p, S) with p at least the column's precision P for Decimal(P, S).
 */
final class ColumnVectors {
    private ColumnVectors() {}

    /** Turns one engine column into a Flink vector; planned once, applied to every block. */
    interface Reader extends Serializable {
        AnyVector vector(Column column);
    }

    /**
     * The reader of a column of ClickHouse type {@code ch} as Flink type {@code flink}.
     *
     * @param column the column's name, for messages
     * @param sessionZone the zone of date-times whose type names none
     * @throws IllegalArgumentException when the column cannot be read as {@code flink}
     */
    static Reader plan(String column, DataType ch, LogicalType flink, ZoneId sessionZone) {
        if (ch instanceof LowCardinalityType lc) {
            return plan(column, lc.nested(), flink, sessionZone);
        }
        if (ch instanceof NullableType n) {
            Reader inner = plan(column, n.nested(), flink, sessionZone);
            return c -> nullable((NullableColumn) c, inner.vector(((NullableColumn) c).nested()));
        }
        Reader r = nonNull(column, ch, flink, sessionZone);
        if (r == null) {
            throw new IllegalArgumentException(
                    "column "
                            + column
                            + " of ClickHouse type "
                            + ch.name()
                            + " cannot be read as Flink type "
                            + flink.asSummaryString()
                            + "; declare it as "
                            + safeFlinkName(ch));
        }
        return r;
    }

    private static String safeFlinkName(DataType ch) {
        try {
            return io.github.s3mergetree.connector.types.ClickHouseTypes.toFlink(ch)
                    .asSummaryString();
        } catch (IllegalArgumentException e) {
            return "a supported type";
        }
    }

    private static Reader nonNull(String column, DataType ch, LogicalType flink, ZoneId zone) {
        LogicalTypeRoot root = flink.getTypeRoot();
        TypeKind kind = ch.kind();
        switch (kind) {
            case BOOL:
                return root == LogicalTypeRoot.BOOLEAN ? c -> bools((ByteColumn) c) : null;
            case INT8:
                return integer(root, 8, c -> i -> ((ByteColumn) c).get(i));
            case UINT8:
                return integer(root, 9, c -> i -> ((ByteColumn) c).get(i) & 0xFF);
            case INT16:
                return integer(root, 16, c -> i -> ((ShortColumn) c).get(i));
            case UINT16:
                return integer(root, 17, c -> i -> ((ShortColumn) c).get(i) & 0xFFFF);
            case INT32:
                return integer(root, 32, c -> i -> ((IntColumn) c).get(i));
            case UINT32:
                return integer(root, 33, c -> i -> ((IntColumn) c).get(i) & 0xFFFFFFFFL);
            case INT64:
                return integer(root, 64, c -> i -> ((LongColumn) c).get(i));
            case UINT64:
                if (root == LogicalTypeRoot.BIGINT) {
                    return c -> uint64AsLong(column, (LongColumn) c);
                }
                if (root == LogicalTypeRoot.DECIMAL && decimalFits(flink, 20, 0)) {
                    return c -> uint64AsDecimal((LongColumn) c);
                }
                return text(root, c -> i -> Long.toUnsignedString(((LongColumn) c).get(i)));
            case INT128:
            case INT256:
            case UINT128:
            case UINT256:
                boolean signed = kind == TypeKind.INT128 || kind == TypeKind.INT256;
                return text(
                        root, c -> i -> littleEndian((FixedBytesColumn) c, i, signed).toString());
            case FLOAT32:
                if (root == LogicalTypeRoot.FLOAT) {
                    return c -> floats((FloatColumn) c);
                }
                return root == LogicalTypeRoot.DOUBLE
                        ? c -> floatsAsDoubles((FloatColumn) c)
                        : null;
            case FLOAT64:
                return root == LogicalTypeRoot.DOUBLE ? c -> doubles((DoubleColumn) c) : null;
            case DECIMAL:
                return decimal((io.github.s3mergetree.engine.types.DecimalType) ch, flink, root);
            case STRING:
                return bytesOrText(root, c -> strings((StringColumn) c));
            case FIXED_STRING:
                return bytesOrText(root, c -> fixedBytes((FixedBytesColumn) c));
            case UUID:
                return text(root, c -> i -> uuid((FixedBytesColumn) c, i));
            case IPV4:
                return text(root, c -> i -> ipv4(((IntColumn) c).get(i)));
            case IPV6:
                return text(root, c -> i -> ipv6((FixedBytesColumn) c, i));
            case ENUM8:
                EnumType e8 = (EnumType) ch;
                return text(root, c -> i -> e8.nameOf(((ByteColumn) c).get(i)));
            case ENUM16:
                EnumType e16 = (EnumType) ch;
                return text(root, c -> i -> e16.nameOf(((ShortColumn) c).get(i)));
            case DATE:
                return root == LogicalTypeRoot.DATE
                        ? c -> ints(i -> ((ShortColumn) c).get(i) & 0xFFFF)
                        : null;
            case DATE32:
                return root == LogicalTypeRoot.DATE ? c -> ints(((IntColumn) c)::get) : null;
            case DATETIME:
                ZoneId dz = ((DateTimeType) ch).zoneOr(zone);
                return timestamp(
                        flink, root, dz, 1, c -> i -> ((IntColumn) c).get(i) & 0xFFFFFFFFL);
            case DATETIME64:
                DateTime64Type t64 = (DateTime64Type) ch;
                return timestamp(
                        flink,
                        root,
                        t64.zoneOr(zone),
                        t64.ticksPerSecond(),
                        c -> ((LongColumn) c)::get);
            case ARRAY:
                if (root != LogicalTypeRoot.ARRAY) {
                    return null;
                }
                Reader element =
                        plan(
                                column + "[]",
                                ((ArrayType) ch).element(),
                                ((org.apache.flink.table.types.logical.ArrayType) flink)
                                        .getElementType(),
                                zone);
                return c -> arrays((ArrayColumn) c, element.vector(((ArrayColumn) c).elements()));
            case MAP:
                if (root != LogicalTypeRoot.MAP) {
                    return null;
                }
                MapType m = (MapType) ch;
                org.apache.flink.table.types.logical.MapType fm =
                        (org.apache.flink.table.types.logical.MapType) flink;
                Reader keys = plan(column + ".keys", m.key(), fm.getKeyType(), zone);
                Reader values = plan(column + ".values", m.value(), fm.getValueType(), zone);
                return c -> {
                    ArrayColumn a = (ArrayColumn) c;
                    TupleColumn kv = (TupleColumn) a.elements();
                    return maps(a, keys.vector(kv.element(0)), values.vector(kv.element(1)));
                };
            case TUPLE:
                if (root != LogicalTypeRoot.ROW) {
                    return null;
                }
                TupleType tt = (TupleType) ch;
                RowType rt = (RowType) flink;
                if (rt.getFieldCount() != tt.elements().size()) {
                    return null;
                }
                List<Reader> fields = new ArrayList<>();
                for (int f = 0; f < rt.getFieldCount(); f++) {
                    fields.add(
                            plan(
                                    column + "." + rt.getFieldNames().get(f),
                                    tt.elements().get(f),
                                    rt.getTypeAt(f),
                                    zone));
                }
                return c -> {
                    TupleColumn tc = (TupleColumn) c;
                    ColumnVector[] vs = new ColumnVector[fields.size()];
                    for (int f = 0; f < vs.length; f++) {
                        vs[f] = fields.get(f).vector(tc.element(f));
                    }
                    VectorizedColumnBatch nested = new VectorizedColumnBatch(vs);
                    nested.setNumRows(c.size());
                    return rows(nested);
                };
            default:
                return null;
        }
    }

    // ---- integers

    /** The value of row i as a long, whatever the column's width. */
    private interface LongAt {
        long at(int i);
    }

    private interface LongReader extends Serializable {
        LongAt of(Column c);
    }

    /** A reader of integers of {@code bits} (signed bits; 9, 17, 33 for UInt8/16/32). */
    private static Reader integer(LogicalTypeRoot root, int bits, LongReader values) {
        int width;
        switch (root) {
            case TINYINT:
                width = 8;
                break;
            case SMALLINT:
                width = 16;
                break;
            case INTEGER:
                width = 32;
                break;
            case BIGINT:
                width = 64;
                break;
            default:
                return null;
        }
        if (width < bits) {
            return null;
        }
        switch (root) {
            case TINYINT:
                return c -> bytes(values.of(c));
            case SMALLINT:
                return c -> shorts(values.of(c));
            case INTEGER:
                return c -> ints(i -> (int) values.of(c).at(i));
            default:
                return c -> longs(values.of(c));
        }
    }

    private static AnyVector uint64AsLong(String column, LongColumn c) {
        return longs(
                i -> {
                    long v = c.get(i);
                    if (v < 0) {
                        throw new ArithmeticException(
                                "UInt64 value "
                                        + Long.toUnsignedString(v)
                                        + " of column "
                                        + column
                                        + " does not fit BIGINT; declare it DECIMAL(20, 0)");
                    }
                    return v;
                });
    }

    private static AnyVector uint64AsDecimal(LongColumn c) {
        return new Decimals() {
            @Override
            public DecimalData getDecimal(int i, int precision, int scale) {
                long v = c.get(i);
                BigDecimal d =
                        v >= 0
                                ? BigDecimal.valueOf(v)
                                : new BigDecimal(new BigInteger(Long.toUnsignedString(v)));
                return DecimalData.fromBigDecimal(d, precision, scale);
            }
        };
    }

    static BigInteger littleEndian(FixedBytesColumn c, int row, boolean signed) {
        int w = c.width();
        byte[] be = new byte[w + 1];
        byte[] d = c.data();
        int base = row * w;
        for (int k = 0; k < w; k++) {
            be[w - k] = d[base + k];
        }
        if (signed && (d[base + w - 1] & 0x80) != 0) {
            be[0] = (byte) 0xFF;
        }
        return new BigInteger(be);
    }

    // ---- decimals

    private static boolean decimalFits(LogicalType flink, int precision, int scale) {
        org.apache.flink.table.types.logical.DecimalType d =
                (org.apache.flink.table.types.logical.DecimalType) flink;
        return d.getScale() == scale && d.getPrecision() >= precision;
    }

    private static Reader decimal(
            io.github.s3mergetree.engine.types.DecimalType ch,
            LogicalType flink,
            LogicalTypeRoot root) {
        int p = ch.precision();
        int s = ch.scale();
        if (root == LogicalTypeRoot.DECIMAL && decimalFits(flink, p, s)) {
            if (p <= 9) {
                return c ->
                        new Decimals() {
                            @Override
                            public DecimalData getDecimal(int i, int precision, int scale) {
                                return DecimalData.fromUnscaledLong(
                                        ((IntColumn) c).get(i), precision, scale);
                            }
                        };
            }
            if (p <= 18) {
                return c ->
                        new Decimals() {
                            @Override
                            public DecimalData getDecimal(int i, int precision, int scale) {
                                long v = ((LongColumn) c).get(i);
                                return precision <= 18
                                        ? DecimalData.fromUnscaledLong(v, precision, scale)
                                        : DecimalData.fromBigDecimal(
                                                BigDecimal.valueOf(v, scale), precision, scale);
                            }
                        };
            }
            return c ->
                    new Decimals() {
                        @Override
                        public DecimalData getDecimal(int i, int precision, int scale) {
                            return DecimalData.fromBigDecimal(
                                    new BigDecimal(
                                            littleEndian((FixedBytesColumn) c, i, true), scale),
                                    precision,
                                    scale);
                        }
                    };
        }
        // ClickHouse's text form: no trailing zeros (output_format_decimal_trailing_zeros = 0)
        return text(
                root,
                c ->
                        i ->
                                new BigDecimal(unscaled(c, p, i), s)
                                        .stripTrailingZeros()
                                        .toPlainString());
    }

    private static BigInteger unscaled(Column c, int precision, int row) {
        if (precision <= 9) {
            return BigInteger.valueOf(((IntColumn) c).get(row));
        }
        if (precision <= 18) {
            return BigInteger.valueOf(((LongColumn) c).get(row));
        }
        return littleEndian((FixedBytesColumn) c, row, true);
    }

    // ---- strings and bytes

    private interface TextAt {
        String at(int i);
    }

    private interface TextReader extends Serializable {
        TextAt of(Column c);
    }

    /** Values rendered as ClickHouse's text form, for a STRING (CHAR/VARCHAR) Flink type. */
    private static Reader text(LogicalTypeRoot root, TextReader values) {
        if (root != LogicalTypeRoot.VARCHAR && root != LogicalTypeRoot.CHAR) {
            return null;
        }
        return c -> {
            TextAt at = values.of(c);
            return new AnyVector() {
                @Override
                public Bytes getBytes(int i) {
                    byte[] b = at.at(i).getBytes(StandardCharsets.UTF_8);
                    return new Bytes(b, 0, b.length);
                }
            };
        };
    }

    private interface BytesReader extends Serializable {
        AnyVector of(Column c);
    }

    private static Reader bytesOrText(LogicalTypeRoot root, BytesReader values) {
        if (!root.getFamilies().contains(LogicalTypeFamily.CHARACTER_STRING)
                && !root.getFamilies().contains(LogicalTypeFamily.BINARY_STRING)) {
            return null;
        }
        return values::of;
    }

    private static AnyVector strings(StringColumn c) {
        return new AnyVector() {
            @Override
            public Bytes getBytes(int i) {
                return new Bytes(c.bytes(), c.start(i), c.length(i));
            }
        };
    }

    private static AnyVector fixedBytes(FixedBytesColumn c) {
        int w = c.width();
        return new AnyVector() {
            @Override
            public Bytes getBytes(int i) {
                return new Bytes(c.data(), i * w, w);
            }
        };
    }

    static String uuid(FixedBytesColumn c, int row) {
        byte[] d = c.data();
        int base = row * 16;
        return new java.util.UUID(readLongLe(d, base), readLongLe(d, base + 8)).toString();
    }

    private static long readLongLe(byte[] d, int off) {
        long v = 0;
        for (int k = 7; k >= 0; k--) {
            v = (v << 8) | (d[off + k] & 0xFFL);
        }
        return v;
    }

    static String ipv4(int v) {
        return ((v >>> 24) & 0xFF)
                + "."
                + ((v >>> 16) & 0xFF)
                + "."
                + ((v >>> 8) & 0xFF)
                + "."
                + (v & 0xFF);
    }

    /**
     * RFC 5952 text of an IPv6 address as ClickHouse prints it: lower-case hex groups without
     * leading zeros, the longest run of two or more zero groups as {@code ::}, and an IPv4-mapped
     * address as {@code ::ffff:a.b.c.d}.
     */
    static String ipv6(FixedBytesColumn c, int row) {
        byte[] d = c.data();
        int base = row * 16;
        int[] g = new int[8];
        for (int k = 0; k < 8; k++) {
            g[k] = ((d[base + 2 * k] & 0xFF) << 8) | (d[base + 2 * k + 1] & 0xFF);
        }
        if (g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0 && g[5] == 0xFFFF) {
            return "::ffff:" + ipv4((g[6] << 16) | g[7]);
        }
        int bestStart = -1;
        int bestLen = 1;
        for (int k = 0; k < 8; ) {
            if (g[k] != 0) {
                k++;
                continue;
            }
            int s = k;
            while (k < 8 && g[k] == 0) {
                k++;
            }
            if (k - s > bestLen) {
                bestStart = s;
                bestLen = k - s;
            }
        }
        StringBuilder b = new StringBuilder(39);
        for (int k = 0; k < 8; k++) {
            if (k == bestStart) {
                b.append("::");
                k += bestLen - 1;
                continue;
            }
            if (b.length() > 0 && b.charAt(b.length() - 1) != ':') {
                b.append(':');
            }
            b.append(Integer.toHexString(g[k]));
        }
        return b.toString();
    }

    // ---- date-times

    private static Reader timestamp(
            LogicalType flink,
            LogicalTypeRoot root,
            ZoneId zone,
            long ticksPerSecond,
            LongReader ticks) {
        boolean instant;
        int precision;
        if (root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            instant = false;
            precision = ((TimestampType) flink).getPrecision();
        } else if (root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE) {
            instant = true;
            precision = ((LocalZonedTimestampType) flink).getPrecision();
        } else {
            return null;
        }
        long nanosPerTick = 1_000_000_000L / ticksPerSecond;
        long truncate = 1;
        for (int k = precision; k < 9; k++) {
            truncate *= 10;
        }
        long unit = truncate;
        return c -> {
            LongAt at = ticks.of(c);
            return new AnyVector() {
                @Override
                public TimestampData getTimestamp(int i, int p) {
                    long t = at.at(i);
                    long seconds = Math.floorDiv(t, ticksPerSecond);
                    long nanos = Math.floorMod(t, ticksPerSecond) * nanosPerTick;
                    nanos -= nanos % unit;
                    if (instant) {
                        long millis = seconds * 1000 + nanos / 1_000_000;
                        return TimestampData.fromEpochMillis(millis, (int) (nanos % 1_000_000));
                    }
                    return TimestampData.fromLocalDateTime(
                            LocalDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), zone));
                }
            };
        };
    }

    // ---- vectors

    private abstract static class Decimals extends AnyVector {}

    /**
     * A vector of every Flink vector kind, so that a Nullable wrapper can present the same getters
     * as what it wraps; a subclass implements the getter of its type, the others fail.
     */
    abstract static class AnyVector
            implements BooleanColumnVector,
                    ByteColumnVector,
                    ShortColumnVector,
                    IntColumnVector,
                    LongColumnVector,
                    FloatColumnVector,
                    DoubleColumnVector,
                    BytesColumnVector,
                    DecimalColumnVector,
                    TimestampColumnVector,
                    ArrayColumnVector,
                    MapColumnVector,
                    RowColumnVector {
        @Override
        public boolean isNullAt(int i) {
            return false;
        }

        private UnsupportedOperationException wrongType(String getter) {
            return new UnsupportedOperationException(
                    getClass().getName() + " has no " + getter + " values");
        }

        @Override
        public boolean getBoolean(int i) {
            throw wrongType("boolean");
        }

        @Override
        public byte getByte(int i) {
            throw wrongType("byte");
        }

        @Override
        public short getShort(int i) {
            throw wrongType("short");
        }

        @Override
        public int getInt(int i) {
            throw wrongType("int");
        }

        @Override
        public long getLong(int i) {
            throw wrongType("long");
        }

        @Override
        public float getFloat(int i) {
            throw wrongType("float");
        }

        @Override
        public double getDouble(int i) {
            throw wrongType("double");
        }

        @Override
        public Bytes getBytes(int i) {
            throw wrongType("bytes");
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            throw wrongType("decimal");
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            throw wrongType("timestamp");
        }

        @Override
        public ArrayData getArray(int i) {
            throw wrongType("array");
        }

        @Override
        public MapData getMap(int i) {
            throw wrongType("map");
        }

        @Override
        public ColumnarRowData getRow(int i) {
            throw wrongType("row");
        }
    }

    /** {@code inner} behind the null map of a Nullable column: a NULL is reported, never read. */
    private static final class NullableVector extends AnyVector {
        private final ByteColumn nulls;
        private final AnyVector inner;

        NullableVector(ByteColumn nulls, AnyVector inner) {
            this.nulls = nulls;
            this.inner = inner;
        }

        @Override
        public boolean isNullAt(int i) {
            return nulls.get(i) != 0;
        }

        @Override
        public boolean getBoolean(int i) {
            return inner.getBoolean(i);
        }

        @Override
        public byte getByte(int i) {
            return inner.getByte(i);
        }

        @Override
        public short getShort(int i) {
            return inner.getShort(i);
        }

        @Override
        public int getInt(int i) {
            return inner.getInt(i);
        }

        @Override
        public long getLong(int i) {
            return inner.getLong(i);
        }

        @Override
        public float getFloat(int i) {
            return inner.getFloat(i);
        }

        @Override
        public double getDouble(int i) {
            return inner.getDouble(i);
        }

        @Override
        public Bytes getBytes(int i) {
            return inner.getBytes(i);
        }

        @Override
        public DecimalData getDecimal(int i, int precision, int scale) {
            return inner.getDecimal(i, precision, scale);
        }

        @Override
        public TimestampData getTimestamp(int i, int precision) {
            return inner.getTimestamp(i, precision);
        }

        @Override
        public ArrayData getArray(int i) {
            return inner.getArray(i);
        }

        @Override
        public MapData getMap(int i) {
            return inner.getMap(i);
        }

        @Override
        public ColumnarRowData getRow(int i) {
            return inner.getRow(i);
        }
    }

    private static AnyVector bools(ByteColumn c) {
        return new AnyVector() {
            @Override
            public boolean getBoolean(int i) {
                return c.get(i) != 0;
            }
        };
    }

    private static AnyVector bytes(LongAt at) {
        return new AnyVector() {
            @Override
            public byte getByte(int i) {
                return (byte) at.at(i);
            }
        };
    }

    private static AnyVector shorts(LongAt at) {
        return new AnyVector() {
            @Override
            public short getShort(int i) {
                return (short) at.at(i);
            }
        };
    }

    private interface IntAt {
        int at(int i);
    }

    private static AnyVector ints(IntAt at) {
        return new AnyVector() {
            @Override
            public int getInt(int i) {
                return at.at(i);
            }
        };
    }

    private static AnyVector longs(LongAt at) {
        return new AnyVector() {
            @Override
            public long getLong(int i) {
                return at.at(i);
            }
        };
    }

    private static AnyVector floats(FloatColumn c) {
        return new AnyVector() {
            @Override
            public float getFloat(int i) {
                return c.get(i);
            }
        };
    }

    private static AnyVector floatsAsDoubles(FloatColumn c) {
        return new AnyVector() {
            @Override
            public double getDouble(int i) {
                return c.get(i);
            }
        };
    }

    private static AnyVector doubles(DoubleColumn c) {
        return new AnyVector() {
            @Override
            public double getDouble(int i) {
                return c.get(i);
            }
        };
    }

    private static AnyVector arrays(ArrayColumn c, ColumnVector elements) {
        return new AnyVector() {
            @Override
            public ArrayData getArray(int i) {
                return new ColumnarArrayData(elements, c.start(i), c.length(i));
            }
        };
    }

    private static AnyVector maps(ArrayColumn c, ColumnVector keys, ColumnVector values) {
        return new AnyVector() {
            @Override
            public MapData getMap(int i) {
                return new ColumnarMapData(keys, values, c.start(i), c.length(i));
            }
        };
    }

    private static AnyVector rows(VectorizedColumnBatch nested) {
        return new AnyVector() {
            @Override
            public ColumnarRowData getRow(int i) {
                return new ColumnarRowData(nested, i);
            }
        };
    }

    private static AnyVector nullable(NullableColumn c, AnyVector inner) {
        return new NullableVector(c.nullMap(), inner);
    }
}
