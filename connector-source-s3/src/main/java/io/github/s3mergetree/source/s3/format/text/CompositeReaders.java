package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TupleType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** {@link ValueReader}s of Nullable, Array, Map and Tuple, after ClickHouse's serializations. */
final class CompositeReaders {
    private CompositeReaders() {}

    /** TSV's NULL: {@code \N} followed by a tab, a newline or the end; consumed if so. */
    static boolean escapedNull(TextCursor in) {
        if (!in.at('\\')) {
            return false;
        }
        long start = in.pin();
        try {
            in.pos++;
            if (in.check('N')) {
                int c = in.peek();
                if (c < 0 || c == '\t' || c == '\n') {
                    return true;
                }
            }
            in.rewind(start);
            return false;
        } finally {
            in.unpin();
        }
    }

    /** CSV's NULL: {@code \N} followed by the delimiter, a line end or the end; consumed if so. */
    static boolean csvNull(TextCursor in, char delimiter) {
        if (!in.at('\\')) {
            return false;
        }
        long start = in.pin();
        try {
            in.pos++;
            if (in.check('N')) {
                int c = in.peek();
                if (c < 0 || c == delimiter || c == '\r' || c == '\n') {
                    return true;
                }
            }
            in.rewind(start);
            return false;
        } finally {
            in.unpin();
        }
    }

    /** A literal's NULL ({@code NULL} in any case); consumed if so. */
    static boolean quotedNull(TextCursor in) {
        int c = in.peek();
        if (c != 'N' && c != 'n') {
            return false;
        }
        long start = in.pin();
        try {
            for (char x : new char[] {'n', 'u', 'l', 'l'}) {
                int d = in.peek();
                if (d != x && d != Character.toUpperCase(x)) {
                    in.rewind(start);
                    return false;
                }
                in.pos++;
            }
            return true;
        } finally {
            in.unpin();
        }
    }

    /** JSON's {@code null}; consumed if so. */
    static boolean jsonNull(TextCursor in) {
        return in.at('n') && in.checkAscii("null");
    }

    /** Nullable(T): NULL as {@code \N} (TSV, CSV), {@code NULL} (literals), {@code null} (JSON). */
    static final class NullableReader extends ValueReader {
        private final ValueReader nested;

        NullableReader(DataType type, ValueReader nested, Scratch s) {
            super(type, s);
            this.nested = nested;
        }

        ValueReader nested() {
            return nested;
        }

        @Override
        boolean isNullable() {
            return true;
        }

        @Override
        boolean isStringLike() {
            return nested.isStringLike();
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            NullableColumn n = (NullableColumn) c;
            if (escapedNull(in)) {
                n.addNull();
                return;
            }
            nested.readEscaped(in, n.nested());
            n.addNotNull();
        }

        @Override
        void readQuoted(TextCursor in, Column c) {
            NullableColumn n = (NullableColumn) c;
            if (quotedNull(in)) {
                n.addNull();
                return;
            }
            nested.readQuoted(in, n.nested());
            n.addNotNull();
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            NullableColumn n = (NullableColumn) c;
            if (csvNull(in, settings().delimiter())) {
                n.addNull();
                return;
            }
            nested.readCsv(in, n.nested());
            n.addNotNull();
        }

        @Override
        void readJson(TextCursor in, Column c) {
            NullableColumn n = (NullableColumn) c;
            if (jsonNull(in)) {
                n.addNull();
                return;
            }
            nested.readJson(in, n.nested());
            n.addNotNull();
        }
    }

    /** Reads a CSV field as a string, then parses it as a literal that must fill it entirely. */
    private abstract static class LiteralInCsv extends ValueReader {
        private final ByteBuf field = new ByteBuf();

        LiteralInCsv(DataType type, Scratch s) {
            super(type, s);
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            field.clear();
            TextStrings.readCsv(in, field, settings());
            byte[] copy = java.util.Arrays.copyOf(field.b, field.len);
            TextCursor t = TextCursor.over(copy, 0, copy.length);
            readEscaped(t, c);
            if (!t.eof()) {
                throw new TextParseException(
                        "Unexpected data '"
                                + TextCursor.escape(copy, t.pos, copy.length - t.pos)
                                + "' after parsed "
                                + type.name()
                                + " value '"
                                + TextCursor.escape(copy, 0, t.pos)
                                + "'");
            }
        }
    }

    /**
     * Array(T): {@code [a, b]} with quoted elements (NULL stores the element's default unless it is
     * Nullable); JSON arrays in JSON. In CSV the field is read as a string first and, as in
     * ClickHouse, the brackets are optional there and what follows the closing one is ignored.
     */
    static final class ArrayReader extends ValueReader {
        private final ValueReader element;
        private final ByteBuf field = new ByteBuf();

        ArrayReader(DataType type, ValueReader element, Scratch s) {
            super(type, s);
            this.element = element;
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            read(in, (ArrayColumn) c, false, false);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            read(in, (ArrayColumn) c, true, false);
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            field.clear();
            TextStrings.readCsv(in, field, settings());
            if (field.len == 0) {
                throw new TextParseException(
                        "Cannot read array from text, expected opening bracket '[' or array"
                                + " element");
            }
            byte[] copy = java.util.Arrays.copyOf(field.b, field.len);
            read(TextCursor.over(copy, 0, copy.length), (ArrayColumn) c, false, true);
        }

        private void read(TextCursor in, ArrayColumn a, boolean json, boolean allowUnenclosed) {
            boolean braces = in.check('[');
            if (!braces && !allowUnenclosed) {
                throw new TextParseException("Array does not start with '[' character");
            }
            Column e = a.elements();
            boolean first = true;
            while (!in.eof() && !in.at(']')) {
                if (!first) {
                    if (!in.check(',')) {
                        throw new TextParseException(
                                "Cannot read array from text, expected comma or end of array,"
                                        + " found '"
                                        + in.snippet(1)
                                        + "'");
                    }
                }
                first = false;
                TextStrings.skipWhitespace(in);
                if (in.at(']')) {
                    break;
                }
                if (json) {
                    if (settings().nullAsDefault() && !element.isNullable() && jsonNull(in)) {
                        element.appendDefault(e);
                    } else {
                        element.readJson(in, e);
                    }
                } else if (settings().nullAsDefault() && !element.isNullable() && quotedNull(in)) {
                    element.appendDefault(e);
                } else {
                    element.readQuoted(in, e);
                }
                TextStrings.skipWhitespace(in);
            }
            if (braces) {
                in.expect(']');
            } else if (!in.eof()) {
                throw TextParseException.expected("eof", in);
            }
            a.endRow();
        }
    }

    /** Map(K, V): {@code {k: v, ...}} with quoted keys and values; JSON objects in JSON. */
    static final class MapReader extends LiteralInCsv {
        private final ValueReader key;
        private final ValueReader value;
        private final ByteBuf keyText = new ByteBuf();

        MapReader(DataType type, ValueReader key, ValueReader value, Scratch s) {
            super(type, s);
            this.key = key;
            this.value = value;
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            read(in, (ArrayColumn) c, false);
        }

        @Override
        void readJson(TextCursor in, Column c) {
            read(in, (ArrayColumn) c, true);
        }

        private void read(TextCursor in, ArrayColumn a, boolean json) {
            TupleColumn kv = (TupleColumn) a.elements();
            in.expect('{');
            if (json) {
                TextStrings.skipWhitespace(in);
            }
            boolean first = true;
            while (!in.eof() && !in.at('}')) {
                if (!first) {
                    if (json) {
                        TextStrings.skipWhitespace(in);
                    }
                    if (!in.check(',')) {
                        throw new TextParseException(
                                "Cannot read Map from text, expected ',' or '}', found '"
                                        + in.snippet(1)
                                        + "'");
                    }
                }
                first = false;
                TextStrings.skipWhitespace(in);
                if (in.at('}')) {
                    break;
                }
                if (json) {
                    keyText.clear();
                    TextStrings.readJson(in, keyText);
                    key.readWhole(keyText, kv.element(0));
                } else {
                    key.readQuoted(in, kv.element(0));
                }
                TextStrings.skipWhitespace(in);
                in.expect(':');
                TextStrings.skipWhitespace(in);
                if (settings().nullAsDefault()
                        && !value.isNullable()
                        && (json ? jsonNull(in) : quotedNull(in))) {
                    value.appendDefault(kv.element(1));
                } else if (json) {
                    value.readJson(in, kv.element(1));
                } else {
                    value.readQuoted(in, kv.element(1));
                }
                TextStrings.skipWhitespace(in);
            }
            in.expect('}');
            a.endRow();
        }
    }

    /**
     * Tuple(T1, ...): {@code (a, b)} with quoted elements; in CSV one field per element ({@code
     * input_format_csv_deserialize_separate_columns_into_tuple = 1}); in JSON an array, or an
     * object for a named tuple.
     */
    static final class TupleReader extends ValueReader {
        private final ValueReader[] elements;
        private final List<String> names;

        TupleReader(TupleType type, ValueReader[] elements, Scratch s) {
            super(type, s);
            this.elements = elements;
            this.names = type.names().orElse(null);
        }

        @Override
        void readEscaped(TextCursor in, Column c) {
            TupleColumn t = (TupleColumn) c;
            in.expect('(');
            for (int i = 0; i < elements.length; i++) {
                TextStrings.skipWhitespace(in);
                if (i != 0) {
                    in.expect(',');
                    TextStrings.skipWhitespace(in);
                }
                if (settings().nullAsDefault() && !elements[i].isNullable() && quotedNull(in)) {
                    elements[i].appendDefault(t.element(i));
                } else {
                    elements[i].readQuoted(in, t.element(i));
                }
            }
            if (elements.length == 1) {
                TextStrings.skipWhitespace(in);
                in.check(',');
            }
            TextStrings.skipWhitespace(in);
            in.expect(')');
        }

        @Override
        void readCsv(TextCursor in, Column c) {
            TupleColumn t = (TupleColumn) c;
            char d = settings().delimiter();
            for (int i = 0; i < elements.length; i++) {
                if (i != 0) {
                    TextStrings.skipWhitespace(in);
                    in.expect(d);
                    TextStrings.skipWhitespace(in);
                }
                if (settings().nullAsDefault() && !elements[i].isNullable() && csvNull(in, d)) {
                    elements[i].appendDefault(t.element(i));
                } else {
                    elements[i].readCsv(in, t.element(i));
                }
            }
        }

        @Override
        void readJson(TextCursor in, Column c) {
            TupleColumn t = (TupleColumn) c;
            if (names != null && in.at('{')) {
                readJsonObject(in, t);
                return;
            }
            in.expect('[');
            for (int i = 0; i < elements.length; i++) {
                TextStrings.skipWhitespace(in);
                if (i != 0) {
                    in.expect(',');
                    TextStrings.skipWhitespace(in);
                }
                if (settings().nullAsDefault() && !elements[i].isNullable() && jsonNull(in)) {
                    elements[i].appendDefault(t.element(i));
                } else {
                    elements[i].readJson(in, t.element(i));
                }
            }
            TextStrings.skipWhitespace(in);
            in.expect(']');
        }

        private void readJsonObject(TextCursor in, TupleColumn t) {
            in.expect('{');
            boolean[] seen = new boolean[elements.length];
            ByteBuf name = new ByteBuf();
            boolean first = true;
            while (true) {
                TextStrings.skipWhitespace(in);
                if (in.eof()) {
                    throw new TextParseException("Unexpected end of data while reading a tuple");
                }
                if (in.check('}')) {
                    break;
                }
                if (!first) {
                    in.expect(',');
                    TextStrings.skipWhitespace(in);
                }
                first = false;
                name.clear();
                TextStrings.readJson(in, name);
                TextStrings.skipWhitespace(in);
                in.expect(':');
                TextStrings.skipWhitespace(in);
                String n = new String(name.b, 0, name.len, StandardCharsets.UTF_8);
                int i = names.indexOf(n);
                if (i < 0) {
                    TextStrings.skipJsonValue(in, n, scratch.bytes2, 0);
                    continue;
                }
                if (seen[i]) {
                    throw new TextParseException(
                            "Duplicate field '" + n + "' while parsing a named tuple");
                }
                seen[i] = true;
                if (settings().nullAsDefault() && !elements[i].isNullable() && jsonNull(in)) {
                    elements[i].appendDefault(t.element(i));
                } else {
                    elements[i].readJson(in, t.element(i));
                }
            }
            for (int i = 0; i < elements.length; i++) {
                if (!seen[i]) {
                    elements[i].appendDefault(t.element(i));
                }
            }
        }
    }
}
