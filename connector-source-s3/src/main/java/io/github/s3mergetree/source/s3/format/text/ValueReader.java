package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
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

/**
 * Parses values of one ClickHouse type from text straight into a column, in each of the forms the
 * text formats use, as ClickHouse's {@code ISerialization::deserializeText*} methods do: {@link
 * #readEscaped} (TabSeparated), {@link #readQuoted} (elements of Array/Tuple/Map literals), {@link
 * #readCsv} and {@link #readJson}. A reader either appends exactly one value or throws a {@link
 * TextParseException} (the row reader then truncates the columns back to the row's start).
 *
 * <p>One tree of readers per format reader: they share its scratch buffers, so they are not
 * thread-safe.
 */
abstract class ValueReader {
    final DataType type;
    final Scratch scratch;

    /** Buffers shared by the readers of one format reader. */
    static final class Scratch {
        final TextSettings settings;
        final ByteBuf bytes = new ByteBuf();
        final ByteBuf bytes2 = new ByteBuf();
        final DateTimes.Parsed parsed = new DateTimes.Parsed();

        Scratch(TextSettings settings) {
            this.settings = settings;
        }
    }

    ValueReader(DataType type, Scratch scratch) {
        this.type = type;
        this.scratch = scratch;
    }

    TextSettings settings() {
        return scratch.settings;
    }

    /** TabSeparated: {@code deserializeTextEscaped}. */
    abstract void readEscaped(TextCursor in, Column c);

    /** An element of an Array/Tuple/Map literal: {@code deserializeTextQuoted}. */
    void readQuoted(TextCursor in, Column c) {
        readEscaped(in, c);
    }

    /** CSV: {@code deserializeTextCSV}; by default {@code readCSVSimple} (optional quotes). */
    void readCsv(TextCursor in, Column c) {
        if (in.eof()) {
            throw TextParseException.afterEof();
        }
        byte q = in.buf[in.pos];
        if (q == '\'' || q == '"') {
            in.pos++;
            readEscaped(in, c);
            in.expect((char) q);
        } else {
            readEscaped(in, c);
        }
    }

    /** JSONEachRow: {@code deserializeTextJSON}. */
    abstract void readJson(TextCursor in, Column c);

    /**
     * All of {@code text} as one value ({@code deserializeWholeText}, e.g. a JSON object's key into
     * a Map's key column): strings as they are, other types parsed with nothing left over.
     */
    void readWhole(ByteBuf text, Column c) {
        byte[] copy = java.util.Arrays.copyOf(text.b, text.len);
        TextCursor t = TextCursor.over(copy, 0, copy.length);
        readEscaped(t, c);
        if (!t.eof()) {
            throw new TextParseException(
                    "Cannot parse '"
                            + text.describe()
                            + "' as "
                            + type.name()
                            + ": unexpected data after the value");
        }
    }

    /**
     * Appends the column's default, as ClickHouse's {@code IColumn::insertDefault} (an empty or
     * NULL field, a column absent from a header): zero bytes, so an Enum gets 0 even if no element
     * has that value, exactly as ClickHouse stores it.
     */
    void appendDefault(Column c) {
        c.appendDefault();
    }

    /**
     * Appends the type's default, as ClickHouse's {@code IDataType::insertDefaultInto} (a key
     * missing from a JSONEachRow object): an Enum's first element.
     */
    void appendTypeDefault(Column c) {
        Columns.appendDefault(type, c);
    }

    /** Whether the value can be NULL (Nullable, possibly inside LowCardinality). */
    boolean isNullable() {
        return false;
    }

    /** Whether the type is String or FixedString (possibly Nullable). */
    boolean isStringLike() {
        return false;
    }

    /** The reader of {@code type}. */
    static ValueReader of(DataType type, Scratch s) {
        if (type instanceof LowCardinalityType lc) {
            return of(lc.nested(), s);
        }
        if (type instanceof NullableType n) {
            return new CompositeReaders.NullableReader(type, of(n.nested(), s), s);
        }
        if (type instanceof ArrayType a) {
            return new CompositeReaders.ArrayReader(type, of(a.element(), s), s);
        }
        if (type instanceof MapType m) {
            return new CompositeReaders.MapReader(type, of(m.key(), s), of(m.value(), s), s);
        }
        if (type instanceof TupleType t) {
            ValueReader[] e = new ValueReader[t.elements().size()];
            for (int i = 0; i < e.length; i++) {
                e[i] = of(t.elements().get(i), s);
            }
            return new CompositeReaders.TupleReader(t, e, s);
        }
        return switch (type.kind()) {
            case UINT8, UINT16, UINT32, UINT64, INT8, INT16, INT32, INT64 ->
                    new ScalarReaders.IntReader(type, s);
            case UINT128, UINT256, INT128, INT256 -> new ScalarReaders.WideIntReader(type, s);
            case FLOAT32, FLOAT64 -> new ScalarReaders.FloatReader(type, s);
            case DECIMAL -> new ScalarReaders.DecimalReader((DecimalType) type, s);
            case BOOL -> new ScalarReaders.BoolReader(type, s);
            case STRING -> new ScalarReaders.StringReader(type, s);
            case FIXED_STRING -> new ScalarReaders.FixedStringReader((FixedStringType) type, s);
            case DATE, DATE32 -> new ScalarReaders.DateReader(type, s);
            case DATETIME ->
                    new ScalarReaders.DateTimeReader(
                            type, ((DateTimeType) type).zoneOr(s.settings.sessionZone()), 0, s);
            case DATETIME64 -> {
                DateTime64Type t = (DateTime64Type) type;
                yield new ScalarReaders.DateTimeReader(
                        type, t.zoneOr(s.settings.sessionZone()), t.precision(), s);
            }
            case UUID -> new ScalarReaders.UuidReader(type, s);
            case IPV4 -> new ScalarReaders.Ipv4Reader(type, s);
            case IPV6 -> new ScalarReaders.Ipv6Reader(type, s);
            case ENUM8, ENUM16 -> new ScalarReaders.EnumReader((EnumType) type, s);
            default ->
                    throw new IllegalArgumentException(
                            "type " + type.name() + " cannot be read from text formats");
        };
    }
}
