package io.github.s3mergetree.source.s3.format.arrow;

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
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DecimalType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.engine.types.TypeKind;
import io.github.s3mergetree.source.s3.format.ColumnValueConversions;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;

/**
 * Appends the rows of one Arrow column (a {@link FieldVector} of a record batch) to a ClickHouse
 * column of the target type: a tree of per-type appenders built for each record batch.
 *
 * <p>Fast paths read the Arrow buffers directly for matching representations: integers of equal
 * width and signedness (and {@code UInt32} → DateTime / IPv4, {@code UInt16} → Date), floats,
 * booleans, strings and binaries, fixed-size binaries of the target's width (FixedString, Int128,
 * IPv6, UUID from {@code arrow.uuid}), decimals of equal scale, dates, timestamps of every unit
 * rescaled to DateTime64's precision. Lists become Arrays, structs Tuples (by position), maps Maps,
 * dictionary-encoded columns their values; nulls become NULL or the type's default in a
 * non-Nullable column, and NULL structs, lists and maps are read as ClickHouse reads them: their
 * children as stored (see {@link #build}). Everything else goes through {@link ValueConverter}
 * (ClickHouse's casting rules), e.g. string → Enum8 by name.
 */
final class ArrowColumnDecoder {
    private final String columnName;
    private final DataType targetType;
    private final ValueConverter converter;
    private final DictionaryProvider dictionaries;

    /** The top-level row being appended, for messages. */
    private long currentRow;

    private final Appender root;
    private final String arrowTypeDescription;

    /**
     * @throws ObjectFormatException (message without the object) when the Arrow type cannot become
     *     the target type
     */
    ArrowColumnDecoder(
            String columnName,
            FieldVector vector,
            DataType targetType,
            ValueConverter converter,
            DictionaryProvider dictionaries)
            throws ObjectFormatException {
        this.columnName = columnName;
        this.targetType = targetType;
        this.converter = converter;
        this.dictionaries = dictionaries;
        this.arrowTypeDescription = describe(vector);
        try {
            this.root = build(vector, targetType);
        } catch (IllegalArgumentException e) {
            throw new ObjectFormatException(
                    "column '"
                            + columnName
                            + "' (Arrow "
                            + arrowTypeDescription
                            + ") cannot be read as "
                            + targetType.name()
                            + ": "
                            + e.getMessage(),
                    e);
        }
    }

    String arrowType() {
        return arrowTypeDescription;
    }

    /** Appends rows {@code [from, to)} of the vector to {@code target}. */
    void append(int from, int to, long firstRowNumber, Column target) {
        for (int r = from; r < to; r++) {
            currentRow = firstRowNumber + (r - from);
            root.append(r, target);
        }
    }

    /** The row number of the last (failed) append. */
    long currentRow() {
        return currentRow;
    }

    /** Appends the value at an index of a vector to a column. */
    @FunctionalInterface
    private interface Appender {
        void append(int index, Column c);
    }

    static String describe(ValueVector v) {
        ArrowType t = v.getField().getType();
        StringBuilder b = new StringBuilder(t.toString());
        DictionaryEncoding d = v.getField().getDictionary();
        if (d != null) {
            b.insert(0, "Dictionary<").append('>');
        }
        if (!v.getField().getChildren().isEmpty()) {
            b.append('<');
            boolean first = true;
            for (var f : v.getField().getChildren()) {
                b.append(first ? "" : ", ").append(f.getName()).append(": ").append(f.getType());
                first = false;
            }
            b.append('>');
        }
        return b.toString();
    }

    private static DataType strip(DataType t) {
        return t instanceof LowCardinalityType lc ? lc.nested() : t;
    }

    private Appender build(ValueVector v, DataType target) {
        DataType t = strip(target);
        if (t instanceof NullableType n) {
            DataType inner = strip(n.nested());
            Appender value = valueAppender(v, inner);
            return (i, c) -> {
                NullableColumn nc = (NullableColumn) c;
                if (v.isNull(i)) {
                    nc.addNull();
                } else {
                    value.append(i, nc.nested());
                    nc.addNotNull();
                }
            };
        }
        Appender value = valueAppender(v, t);
        if (t instanceof TupleType || t instanceof ArrayType || t instanceof MapType) {
            // ClickHouse's rule for NULL parents (a Tuple, Array or Map cannot be NULL): the
            // validity of a struct, list or map slot is ignored and its children are read as they
            // are, so a NULL struct keeps the child values stored under it (often (0, '')), a NULL
            // fixed-size list its n child values, a NULL list or map its offsets' range (empty)
            return value;
        }
        if (v.getField().isNullable() || v.getField().getDictionary() != null) {
            return (i, c) -> {
                if (v.isNull(i)) {
                    Columns.appendDefault(t, c);
                } else {
                    value.append(i, c);
                }
            };
        }
        return value;
    }

    /** An appender for non-null values of {@code v} into a column of {@code t} (no Nullable). */
    private Appender valueAppender(ValueVector v, DataType t) {
        DictionaryEncoding enc = v.getField().getDictionary();
        if (enc != null) {
            Dictionary d = dictionaries == null ? null : dictionaries.lookup(enc.getId());
            if (d == null) {
                throw new IllegalArgumentException("dictionary " + enc.getId() + " is missing");
            }
            if (!(v instanceof BaseIntVector indices)) {
                throw new IllegalArgumentException("dictionary indices are not integers");
            }
            Appender values = build(d.getVector(), t);
            return (i, c) -> values.append((int) indices.getValueAsLong(i), c);
        }
        if (v instanceof ExtensionTypeVector<?> e) {
            boolean uuid =
                    v.getField().getType() instanceof ArrowType.ExtensionType x
                            && "arrow.uuid".equals(x.extensionName());
            return leafAppender(e.getUnderlyingVector(), t, uuid);
        }
        if (t instanceof MapType m) {
            if (v instanceof ListVector || v instanceof LargeListVector) {
                return listAppender(v, m.storageType().element());
            }
            throw new IllegalArgumentException("only an Arrow map or list can become a Map");
        }
        if (t instanceof ArrayType a) {
            if (v instanceof ListVector
                    || v instanceof LargeListVector
                    || v instanceof FixedSizeListVector) {
                return listAppender(v, a.element());
            }
            throw new IllegalArgumentException("only an Arrow list can become an Array");
        }
        if (t instanceof TupleType tt) {
            if (!(v instanceof StructVector s)) {
                throw new IllegalArgumentException("only an Arrow struct can become a Tuple");
            }
            int arity = tt.elements().size();
            if (s.size() != arity) {
                throw new IllegalArgumentException(
                        "the struct has " + s.size() + " fields, the Tuple " + arity);
            }
            Appender[] elements = new Appender[arity];
            for (int k = 0; k < arity; k++) {
                elements[k] = build(s.getChildByOrdinal(k), tt.elements().get(k));
            }
            return (i, c) -> {
                TupleColumn tc = (TupleColumn) c;
                for (int k = 0; k < arity; k++) {
                    elements[k].append(i, tc.element(k));
                }
            };
        }
        if (v instanceof ListVector
                || v instanceof LargeListVector
                || v instanceof FixedSizeListVector
                || v instanceof StructVector) {
            throw new IllegalArgumentException(
                    "a nested Arrow type needs an Array, Map or Tuple target");
        }
        boolean uuid = "arrow.uuid".equals(v.getField().getMetadata().get("ARROW:extension:name"));
        return leafAppender(v, t, uuid);
    }

    private Appender listAppender(ValueVector v, DataType element) {
        if (v instanceof ListVector l) {
            Appender e = build(l.getDataVector(), element);
            return (i, c) -> {
                ArrayColumn ac = (ArrayColumn) c;
                ArrowBuf offsets = l.getOffsetBuffer();
                int start = offsets.getInt((long) i * 4);
                int end = offsets.getInt((long) i * 4 + 4);
                for (int k = start; k < end; k++) {
                    e.append(k, ac.elements());
                }
                ac.endRow();
            };
        } else if (v instanceof LargeListVector l) {
            Appender e = build(l.getDataVector(), element);
            return (i, c) -> {
                ArrayColumn ac = (ArrayColumn) c;
                ArrowBuf offsets = l.getOffsetBuffer();
                long start = offsets.getLong((long) i * 8);
                long end = offsets.getLong((long) i * 8 + 8);
                for (long k = start; k < end; k++) {
                    e.append(Math.toIntExact(k), ac.elements());
                }
                ac.endRow();
            };
        }
        FixedSizeListVector l = (FixedSizeListVector) v;
        Appender e = build(l.getDataVector(), element);
        int n = l.getListSize();
        return (i, c) -> {
            ArrayColumn ac = (ArrayColumn) c;
            for (int k = i * n; k < (i + 1) * n; k++) {
                e.append(k, ac.elements());
            }
            ac.endRow();
        };
    }

    private Appender leafAppender(ValueVector v, DataType t, boolean uuid) {
        ArrowType at = v.getField().getType();
        TypeKind k = t.kind();
        switch (at.getTypeID()) {
            case Null:
                return (i, c) -> Columns.appendDefault(t, c);
            case Int:
                {
                    ArrowType.Int it = (ArrowType.Int) at;
                    int bits = it.getBitWidth();
                    boolean signed = it.getIsSigned();
                    Appender fast = intAppender(v, bits, signed, k);
                    if (fast != null) {
                        return fast;
                    }
                    return generic(t, i -> intValue(v, i, bits, signed));
                }
            case FloatingPoint:
                {
                    var p = ((ArrowType.FloatingPoint) at).getPrecision();
                    switch (p) {
                        case SINGLE:
                            if (k == TypeKind.FLOAT32) {
                                return (i, c) ->
                                        ((FloatColumn) c).add(dataBuffer(v).getFloat((long) i * 4));
                            } else if (k == TypeKind.FLOAT64) {
                                return (i, c) ->
                                        ((DoubleColumn) c)
                                                .add(dataBuffer(v).getFloat((long) i * 4));
                            }
                            return generic(t, i -> dataBuffer(v).getFloat((long) i * 4));
                        case DOUBLE:
                            if (k == TypeKind.FLOAT64) {
                                return (i, c) ->
                                        ((DoubleColumn) c)
                                                .add(dataBuffer(v).getDouble((long) i * 8));
                            }
                            return generic(t, i -> dataBuffer(v).getDouble((long) i * 8));
                        default: // HALF: IEEE half floats, which ClickHouse reads as Float32
                            if (k == TypeKind.FLOAT32) {
                                return (i, c) -> ((FloatColumn) c).add(half(v, i));
                            } else if (k == TypeKind.FLOAT64) {
                                return (i, c) -> ((DoubleColumn) c).add(half(v, i));
                            }
                            return generic(t, i -> half(v, i));
                    }
                }
            case Bool:
                {
                    BitVector b = (BitVector) v;
                    if (k == TypeKind.BOOL || k == TypeKind.UINT8 || k == TypeKind.INT8) {
                        return (i, c) -> ((ByteColumn) c).add((byte) b.get(i));
                    }
                    if (k == TypeKind.STRING
                            || k == TypeKind.UUID
                            || k == TypeKind.DATE
                            || k == TypeKind.DATETIME
                            || k == TypeKind.DATETIME64) {
                        throw new IllegalArgumentException("a boolean does not convert");
                    }
                    return generic(t, i -> b.get(i) != 0);
                }
            case Utf8View:
            case BinaryView:
                {
                    // string and binary views (Arrow 15+): inline or in variadic data buffers
                    BaseVariableWidthViewVector views = (BaseVariableWidthViewVector) v;
                    if (k == TypeKind.STRING) {
                        return (i, c) -> {
                            byte[] b = views.get(i);
                            ((StringColumn) c).add(b, 0, b.length);
                        };
                    }
                    if (k == TypeKind.FIXED_STRING) {
                        int n = ((FixedStringType) t).length();
                        return (i, c) -> {
                            byte[] b = views.get(i);
                            if (b.length > n) {
                                throw new IllegalArgumentException(
                                        "too large value for FixedString("
                                                + n
                                                + "): "
                                                + b.length
                                                + " bytes");
                            }
                            ((FixedBytesColumn) c).addPadded(b, 0, b.length);
                        };
                    }
                    return generic(t, i -> new String(views.get(i), StandardCharsets.UTF_8));
                }
            case Utf8:
            case Binary:
            case LargeUtf8:
            case LargeBinary:
                {
                    boolean large =
                            at.getTypeID() == ArrowType.ArrowTypeID.LargeUtf8
                                    || at.getTypeID() == ArrowType.ArrowTypeID.LargeBinary;
                    if (k == TypeKind.STRING) {
                        return (i, c) -> {
                            long s = start(v, i, large);
                            int len = Math.toIntExact(start(v, i + 1, large) - s);
                            StringColumn sc = (StringColumn) c;
                            byte[] buf = sc.reserveBytes(len);
                            dataBuffer(v).getBytes(s, buf, sc.totalBytes(), len);
                            sc.commitRow(len);
                        };
                    }
                    if (k == TypeKind.FIXED_STRING) {
                        int n = ((FixedStringType) t).length();
                        return (i, c) -> {
                            byte[] b = bytes(v, i, large);
                            if (b.length > n) {
                                throw new IllegalArgumentException(
                                        "too large value for FixedString("
                                                + n
                                                + "): "
                                                + b.length
                                                + " bytes");
                            }
                            ((FixedBytesColumn) c).addPadded(b, 0, b.length);
                        };
                    }
                    return generic(t, i -> new String(bytes(v, i, large), StandardCharsets.UTF_8));
                }
            case FixedSizeBinary:
                {
                    int w = ((ArrowType.FixedSizeBinary) at).getByteWidth();
                    String narrowDecimal = v.getField().getMetadata().get(ArrowSchemas.DECIMAL_KEY);
                    if (narrowDecimal != null) {
                        // decimal32 / decimal64, read as fixed-size binaries (ArrowSchemas)
                        String[] ps = narrowDecimal.split(",");
                        return decimalAppender(
                                v, t, w, Integer.parseInt(ps[0]), Integer.parseInt(ps[1]));
                    }
                    if (k == TypeKind.UUID && w == 16) {
                        if (!uuid) {
                            return rawFixed(v, w);
                        }
                        return (i, c) -> {
                            byte[] b = new byte[16];
                            dataBuffer(v).getBytes((long) i * 16, b, 0, 16);
                            byte[] out = new byte[16];
                            for (int x = 0; x < 8; x++) {
                                out[x] = b[7 - x];
                                out[8 + x] = b[15 - x];
                            }
                            ((FixedBytesColumn) c).add(out, 0);
                        };
                    }
                    if (t.physicalType() == PhysicalType.FIXED_BYTES && t.fixedWidth() == w) {
                        return rawFixed(v, w);
                    }
                    if (k == TypeKind.FIXED_STRING) {
                        int n = ((FixedStringType) t).length();
                        if (w > n) {
                            throw new IllegalArgumentException(
                                    "values of " + w + " bytes do not fit FixedString(" + n + ")");
                        }
                        return (i, c) -> {
                            byte[] b = new byte[w];
                            dataBuffer(v).getBytes((long) i * w, b, 0, w);
                            ((FixedBytesColumn) c).addPadded(b, 0, w);
                        };
                    }
                    if (k == TypeKind.STRING) {
                        // ClickHouse reads a FixedSizeBinary as FixedString(w): its cast to
                        // String drops the trailing zero bytes
                        return (i, c) -> {
                            StringColumn sc = (StringColumn) c;
                            byte[] buf = sc.reserveBytes(w);
                            int pos = sc.totalBytes();
                            dataBuffer(v).getBytes((long) i * w, buf, pos, w);
                            int n = w;
                            while (n > 0 && buf[pos + n - 1] == 0) {
                                n--;
                            }
                            sc.commitRow(n);
                        };
                    }
                    return generic(
                            t,
                            i -> {
                                byte[] b = new byte[w];
                                dataBuffer(v).getBytes((long) i * w, b, 0, w);
                                return new String(b, StandardCharsets.UTF_8);
                            });
                }
            case Decimal:
                {
                    ArrowType.Decimal d = (ArrowType.Decimal) at;
                    return decimalAppender(
                            v, t, d.getBitWidth() / 8, d.getPrecision(), d.getScale());
                }
            case Date:
                {
                    boolean days =
                            ((ArrowType.Date) at).getUnit()
                                    == org.apache.arrow.vector.types.DateUnit.DAY;
                    if (days && k == TypeKind.DATE) {
                        return (i, c) -> {
                            int day = dataBuffer(v).getInt((long) i * 4);
                            if (day < 0 || day > 65535) {
                                throw new IllegalArgumentException(
                                        "date "
                                                + LocalDate.ofEpochDay(day)
                                                + " is outside the Date range"
                                                + " 1970-01-01..2149-06-06");
                            }
                            ((ShortColumn) c).add((short) day);
                        };
                    }
                    return generic(
                            t,
                            i ->
                                    days
                                            ? LocalDate.ofEpochDay(
                                                    dataBuffer(v).getInt((long) i * 4))
                                            : LocalDate.ofEpochDay(
                                                    Math.floorDiv(
                                                            dataBuffer(v).getLong((long) i * 8),
                                                            86_400_000L)));
                }
            case Timestamp:
                {
                    int digits =
                            switch (((ArrowType.Timestamp) at).getUnit()) {
                                case SECOND -> 0;
                                case MILLISECOND -> 3;
                                case MICROSECOND -> 6;
                                case NANOSECOND -> 9;
                            };
                    if (t instanceof DateTime64Type dt) {
                        int p = dt.precision();
                        return (i, c) ->
                                ((LongColumn) c)
                                        .add(
                                                ColumnValueConversions.rescale(
                                                        dataBuffer(v).getLong((long) i * 8),
                                                        digits,
                                                        p));
                    } else if (k == TypeKind.DATETIME) {
                        return (i, c) -> {
                            long s =
                                    ColumnValueConversions.rescale(
                                            dataBuffer(v).getLong((long) i * 8), digits, 0);
                            if (s < 0 || s > 0xFFFFFFFFL) {
                                throw new IllegalArgumentException(
                                        "timestamp "
                                                + Instant.ofEpochSecond(s)
                                                + " is outside the DateTime range 1970..2106");
                            }
                            ((IntColumn) c).add((int) s);
                        };
                    }
                    return generic(
                            t,
                            i -> {
                                long ticks = dataBuffer(v).getLong((long) i * 8);
                                long unit = pow10(digits);
                                return Instant.ofEpochSecond(
                                        Math.floorDiv(ticks, unit),
                                        Math.floorMod(ticks, unit) * pow10(9 - digits));
                            });
                }
            default:
                throw new IllegalArgumentException("the Arrow type " + at + " is not supported");
        }
    }

    /**
     * Decimals of {@code w} bytes (little-endian two's complement: 4, 8, 16 or 32) into {@code t}:
     * the unscaled integer as it is (sign-extended or narrowed) when the scales are equal and the
     * precision fits, through ClickHouse's casting rules otherwise.
     */
    private Appender decimalAppender(ValueVector v, DataType t, int w, int precision, int scale) {
        if (t instanceof DecimalType dt && dt.scale() == scale && dt.precision() >= precision) {
            int tw = dt.fixedWidth();
            if (tw == 4) {
                return (i, c) -> ((IntColumn) c).add(dataBuffer(v).getInt((long) i * w));
            } else if (tw == 8) {
                return w == 4
                        ? (i, c) -> ((LongColumn) c).add(dataBuffer(v).getInt((long) i * 4))
                        : (i, c) -> ((LongColumn) c).add(dataBuffer(v).getLong((long) i * w));
            } else if (tw == w) {
                return rawFixed(v, w);
            } else if (tw > w) {
                return (i, c) -> {
                    byte[] b = new byte[tw];
                    dataBuffer(v).getBytes((long) i * w, b, 0, w);
                    byte fill = b[w - 1] < 0 ? (byte) -1 : 0;
                    for (int x = w; x < tw; x++) {
                        b[x] = fill;
                    }
                    ((FixedBytesColumn) c).add(b, 0);
                };
            }
        }
        return generic(t, i -> decimal(v, i, w, scale));
    }

    private static float half(ValueVector v, int i) {
        return ColumnValueConversions.halfToFloat(dataBuffer(v).getShort((long) i * 2) & 0xFFFF);
    }

    private Appender rawFixed(ValueVector v, int w) {
        byte[] b = new byte[w];
        return (i, c) -> {
            dataBuffer(v).getBytes((long) i * w, b, 0, w);
            ((FixedBytesColumn) c).add(b, 0);
        };
    }

    /** Equal representation: the raw integer is stored; null when a conversion is needed. */
    private static Appender intAppender(ValueVector v, int bits, boolean signed, TypeKind k) {
        TypeKind same =
                switch (bits) {
                    case 8 -> signed ? TypeKind.INT8 : TypeKind.UINT8;
                    case 16 -> signed ? TypeKind.INT16 : TypeKind.UINT16;
                    case 32 -> signed ? TypeKind.INT32 : TypeKind.UINT32;
                    default -> signed ? TypeKind.INT64 : TypeKind.UINT64;
                };
        boolean raw =
                k == same
                        || (same == TypeKind.UINT32
                                && (k == TypeKind.DATETIME || k == TypeKind.IPV4))
                        || (same == TypeKind.UINT16 && k == TypeKind.DATE)
                        || (same == TypeKind.UINT8 && k == TypeKind.BOOL);
        if (raw) {
            return switch (bits) {
                case 8 -> (i, c) -> ((ByteColumn) c).add(dataBuffer(v).getByte(i));
                case 16 -> (i, c) -> ((ShortColumn) c).add(dataBuffer(v).getShort((long) i * 2));
                case 32 -> (i, c) -> ((IntColumn) c).add(dataBuffer(v).getInt((long) i * 4));
                default -> (i, c) -> ((LongColumn) c).add(dataBuffer(v).getLong((long) i * 8));
            };
        }
        if (k == TypeKind.INT64 && (signed || bits < 64)) {
            return (i, c) -> ((LongColumn) c).add(rawInt(v, i, bits, signed));
        }
        if (k == TypeKind.FLOAT64 && (signed || bits < 64)) {
            return (i, c) -> ((DoubleColumn) c).add(rawInt(v, i, bits, signed));
        }
        return null;
    }

    private static long rawInt(ValueVector v, int i, int bits, boolean signed) {
        ArrowBuf b = dataBuffer(v);
        return switch (bits) {
            case 8 -> signed ? b.getByte(i) : b.getByte(i) & 0xFFL;
            case 16 -> signed ? b.getShort((long) i * 2) : b.getShort((long) i * 2) & 0xFFFFL;
            case 32 -> signed ? b.getInt((long) i * 4) : b.getInt((long) i * 4) & 0xFFFFFFFFL;
            default -> b.getLong((long) i * 8);
        };
    }

    private static Object intValue(ValueVector v, int i, int bits, boolean signed) {
        long raw = rawInt(v, i, bits, signed);
        if (bits == 64 && !signed && raw < 0) {
            return new BigInteger(Long.toUnsignedString(raw));
        }
        return raw;
    }

    private static BigDecimal decimal(ValueVector v, int i, int width, int scale) {
        byte[] le = new byte[width];
        dataBuffer(v).getBytes((long) i * width, le, 0, width);
        byte[] be = new byte[width];
        for (int x = 0; x < width; x++) {
            be[x] = le[width - 1 - x];
        }
        return new BigDecimal(new BigInteger(be), scale);
    }

    private static ArrowBuf dataBuffer(ValueVector v) {
        return ((FieldVector) v).getDataBuffer();
    }

    private static long start(ValueVector v, int i, boolean large) {
        ArrowBuf o = ((FieldVector) v).getOffsetBuffer();
        return large ? o.getLong((long) i * 8) : o.getInt((long) i * 4);
    }

    private static byte[] bytes(ValueVector v, int i, boolean large) {
        long s = start(v, i, large);
        byte[] b = new byte[Math.toIntExact(start(v, i + 1, large) - s)];
        dataBuffer(v).getBytes(s, b, 0, b.length);
        return b;
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    @FunctionalInterface
    private interface ValueGetter {
        Object get(int index);
    }

    /** Any value through ClickHouse's casting rules ({@link ValueConverter}). */
    private Appender generic(DataType t, ValueGetter getter) {
        switch (t.kind()) {
            case TUPLE, MAP, ARRAY ->
                    throw new IllegalArgumentException("a scalar cannot become a " + t.kind());
            default -> {}
        }
        return (i, c) -> converter.append(t, c, getter.get(i), columnName, currentRow);
    }
}
