package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the rows of one text format from a {@link TextCursor} into the columns of a {@link
 * TargetSchema}, like ClickHouse's {@code IRowInputFormat} subclasses: {@link #readPrefix} (BOM,
 * header), {@link #readRow} (one row or the end), {@link #syncAfterError} (skip to the next row
 * after a bad one, for {@code input_format_allow_errors_*}) and {@link #readSuffix}.
 *
 * <p>While a row is read, {@link #column} names the target column being parsed (-1 between fields)
 * and {@link #hint} may explain a structural error, for the message.
 */
abstract class RowReader {
    final TargetSchema schema;
    final TextSettings settings;
    final ValueReader[] readers;
    final ValueReader.Scratch scratch;
    TextCursor in;

    /** The target column being parsed, or -1. */
    int column = -1;

    /** The 0-based field of the input row being parsed (CSV/TSV), or -1. */
    int field = -1;

    /** The target column parsed last in this row (for errors between fields), or -1. */
    int lastColumn = -1;

    /** Absolute offset where the field (or JSON value) being parsed starts. */
    long fieldStart;

    /** Absolute offset where the current row starts. */
    long rowStart;

    /** An explanation of the last structural error, or null. */
    String hint;

    RowReader(TargetSchema schema, TextSettings settings) {
        this.schema = schema;
        this.settings = settings;
        this.scratch = new ValueReader.Scratch(settings);
        this.readers = new ValueReader[schema.size()];
        for (int i = 0; i < readers.length; i++) {
            readers[i] = ValueReader.of(schema.types().get(i), scratch);
        }
    }

    void setInput(TextCursor in) {
        this.in = in;
    }

    /**
     * Reads what precedes the rows at the start of the object: a byte order mark, a header. {@code
     * atObjectStart} is false for a stream that starts in the middle of an object.
     */
    abstract void readPrefix(boolean atObjectStart);

    /**
     * Reads one row into {@code columns} (every column gets one value); false at the end of the
     * data.
     *
     * @throws TextParseException if the row is malformed (some columns may then hold a value more)
     */
    abstract boolean readRow(Column[] columns);

    /** Skips to where the next row starts after a malformed one. */
    abstract void syncAfterError();

    /** Checks what follows the last row. */
    void readSuffix() {}

    /** A short name of the format for messages. */
    abstract String formatName();

    /**
     * The target columns the object's header does not name, known once {@link #readPrefix} has read
     * it: they get the type's default in every row. Empty without a header (columns by position)
     * and for formats that name columns per row.
     */
    List<String> columnsNotInHeader() {
        return List.of();
    }

    /** The names of the object's header ({@link #columnsNotInHeader}), or empty without one. */
    List<String> headerNames() {
        return List.of();
    }

    /** The names of the target columns at {@code indexes}. */
    List<String> names(int[] indexes) {
        List<String> out = new ArrayList<>(indexes.length);
        for (int c : indexes) {
            out.add(schema.names().get(c));
        }
        return out;
    }

    /** ClickHouse's {@code skipBOMIfExists}. */
    static void skipBom(TextCursor in) {
        if (in.at((char) 0xEF)) {
            long start = in.pin();
            try {
                in.pos++;
                if (in.check((char) 0xBB) && in.check((char) 0xBF)) {
                    return;
                }
                in.rewind(start);
            } finally {
                in.unpin();
            }
        }
    }

    /** ClickHouse's {@code skipToNextLineOrEOF}. */
    static void skipToNextLine(TextCursor in) {
        while (in.pos < in.end || in.fill()) {
            byte[] b = in.buf;
            int p = in.pos;
            int e = in.end;
            while (p < e && b[p] != '\n') {
                p++;
            }
            in.pos = p;
            if (p < e) {
                in.pos++;
                return;
            }
        }
    }

    /** ClickHouse's {@code skipToUnescapedNextLineOrEOF}. */
    static void skipToUnescapedNextLine(TextCursor in) {
        while (in.pos < in.end || in.fill()) {
            byte c = in.buf[in.pos];
            in.pos++;
            if (c == '\n') {
                return;
            }
            if (c == '\\') {
                if (in.eof()) {
                    return;
                }
                in.pos++;
            }
        }
    }

    /**
     * Maps the fields of a header to target columns, as ClickHouse's {@code addInputColumn}:
     * unknown names are skipped (or refused without {@code input_format_skip_unknown_fields}), a
     * name given twice is refused.
     */
    int[] mapHeader(List<String> names) {
        int[] map = new int[names.size()];
        boolean[] seen = new boolean[schema.size()];
        for (int i = 0; i < map.length; i++) {
            String n = names.get(i);
            int c = schema.indexOf(n);
            if (c < 0) {
                if (!settings.skipUnknownFields()) {
                    throw new TextParseException(
                            "Unknown field found in "
                                    + formatName()
                                    + " header: '"
                                    + n
                                    + "' at position "
                                    + i
                                    + "; set input_format_skip_unknown_fields = 1 to skip it");
                }
                map[i] = -1;
                continue;
            }
            if (seen[c]) {
                throw new TextParseException(
                        "Duplicate field found while parsing format header: " + n);
            }
            seen[c] = true;
            map[i] = c;
        }
        return map;
    }

    /** The target columns no field of {@code map} fills (they get defaults). */
    int[] missingColumns(int[] map) {
        boolean[] seen = new boolean[schema.size()];
        for (int c : map) {
            if (c >= 0) {
                seen[c] = true;
            }
        }
        int n = 0;
        for (boolean b : seen) {
            n += b ? 0 : 1;
        }
        int[] out = new int[n];
        int k = 0;
        for (int c = 0; c < seen.length; c++) {
            if (!seen[c]) {
                out[k++] = c;
            }
        }
        return out;
    }

    /** The identity mapping: the i-th field is the i-th column. */
    int[] identity() {
        int[] m = new int[schema.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = i;
        }
        return m;
    }

    /**
     * {@code input_format_*_detect_header}: whether the first row's values, as a set, contain or
     * are contained in the set of column names.
     */
    boolean looksLikeNames(List<String> values) {
        Set<String> v = new HashSet<>(values);
        Set<String> names = new HashSet<>(schema.names());
        return names.containsAll(v) || v.containsAll(names);
    }

    /**
     * Whether a row of the header holds type names (all of them parse as ClickHouse types); if so,
     * each must be the type of its column.
     */
    boolean checkTypesRow(List<String> values, int[] map) {
        for (String v : values) {
            try {
                io.github.s3mergetree.engine.types.DataTypeParser.parse(v);
            } catch (RuntimeException e) {
                return false;
            }
        }
        if (values.size() != map.length) {
            throw new TextParseException(
                    "The number of data types differs from the number of column names in input"
                            + " data");
        }
        for (int i = 0; i < map.length; i++) {
            if (map[i] < 0) {
                continue;
            }
            String expected = schema.types().get(map[i]).name();
            if (!expected.equals(values.get(i))) {
                throw new TextParseException(
                        "Type of '"
                                + schema.names().get(map[i])
                                + "' must be "
                                + expected
                                + ", not "
                                + values.get(i));
            }
        }
        return true;
    }

    /** The bytes of a header field as a name (names are UTF-8 text). */
    static String name(ByteBuf b) {
        return new String(b.b, 0, b.len, java.nio.charset.StandardCharsets.UTF_8);
    }

    static List<String> newList() {
        return new ArrayList<>();
    }
}
