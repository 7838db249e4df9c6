package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code JSONEachRow} as ClickHouse's {@code JSONEachRowRowInputFormat} reads it: a JSON object per
 * row (on one line or several), optionally separated by commas, optionally the whole enclosed in
 * {@code [ ]}; keys matched to columns by name, unknown keys skipped ({@code
 * input_format_skip_unknown_fields}), a key given twice refused, missing keys the columns'
 * defaults, {@code null} the default of a non-Nullable column.
 */
final class JsonEachRowReader extends RowReader {
    private static final int KEYS = 1000;

    /** Column index by the key's bytes (as ISO-8859-1 chars, a lossless byte mapping). */
    private final Map<String, Integer> byKey = new HashMap<>();

    private final byte[][] keyBytes;
    private final boolean[] seen;

    /** The target columns some row read so far had (missing keys of others are ordinary JSON). */
    private final boolean[] inSomeRow;

    /** The keys of the rows read so far, in order of first appearance, up to {@link #KEYS}. */
    private final Set<String> keys = new LinkedHashSet<>();

    private final ByteBuf key = new ByteBuf();
    private final ByteBuf skipped = new ByteBuf();
    private boolean inBrackets;
    private boolean allowNewRows = true;
    private long rowsAttempted;

    JsonEachRowReader(TargetSchema schema, TextSettings settings) {
        super(schema, settings);
        this.keyBytes = new byte[schema.size()][];
        this.seen = new boolean[schema.size()];
        this.inSomeRow = new boolean[schema.size()];
        for (int i = 0; i < schema.size(); i++) {
            byte[] k = schema.names().get(i).getBytes(StandardCharsets.UTF_8);
            keyBytes[i] = k;
            byKey.put(new String(k, StandardCharsets.ISO_8859_1), i);
        }
    }

    @Override
    String formatName() {
        return "JSONEachRow";
    }

    @Override
    void readPrefix(boolean atObjectStart) {
        if (!atObjectStart) {
            rowsAttempted = 1; // a resumed or later stream is never at the first row
            return;
        }
        skipBom(in);
        TextStrings.skipWhitespace(in);
        inBrackets = in.check('[');
    }

    /** Whether the data is enclosed in {@code [ ]} (known from the object's start). */
    boolean inBrackets() {
        return inBrackets;
    }

    void setInBrackets(boolean b) {
        inBrackets = b;
    }

    @Override
    boolean readRow(Column[] columns) {
        column = -1;
        lastColumn = -1;
        hint = null;
        if (!allowNewRows) {
            return false;
        }
        TextStrings.skipWhitespace(in);
        boolean firstRow = rowsAttempted == 0;
        rowsAttempted++;
        if (!in.eof()) {
            if (!firstRow && in.at(',')) {
                in.pos++;
            } else if (!inBrackets && in.at(';')) {
                allowNewRows = false;
                return false;
            } else if (inBrackets && in.at(']')) {
                allowNewRows = false;
                return false;
            }
        }
        TextStrings.skipWhitespace(in);
        if (in.eof()) {
            return false;
        }
        rowStart = in.pinRowStart();
        Arrays.fill(seen, false);
        in.expect('{');
        for (int k = 0; ; k++) {
            TextStrings.skipWhitespace(in);
            if (in.eof()) {
                throw new TextParseException(
                        "Unexpected end of stream while parsing JSONEachRow format");
            }
            if (in.check('}')) {
                break;
            }
            if (k > 0) {
                TextStrings.skipWhitespace(in);
                in.expect(',');
                TextStrings.skipWhitespace(in);
            }
            int c = readKey(k);
            TextStrings.skipWhitespace(in);
            in.expect(':');
            TextStrings.skipWhitespace(in);
            if (c < 0) {
                String name = RowReader.name(key);
                if (!settings.skipUnknownFields()) {
                    throw new TextParseException(
                            "Unknown field found while parsing JSONEachRow format: "
                                    + name
                                    + " (input_format_skip_unknown_fields = 0)");
                }
                if (keys.size() < KEYS) {
                    keys.add(name);
                }
                TextStrings.skipJsonValue(in, name, skipped, 0);
                continue;
            }
            if (seen[c]) {
                throw new TextParseException(
                        "Duplicate field found while parsing JSONEachRow format: "
                                + schema.names().get(c));
            }
            seen[c] = true;
            if (!inSomeRow[c]) {
                inSomeRow[c] = true;
                if (keys.size() < KEYS) {
                    keys.add(schema.names().get(c));
                }
            }
            column = c;
            fieldStart = in.offset();
            ValueReader r = readers[c];
            if (settings.nullAsDefault() && !r.isNullable() && CompositeReaders.jsonNull(in)) {
                r.appendDefault(columns[c]);
            } else {
                r.readJson(in, columns[c]);
            }
            lastColumn = c;
            column = -1;
        }
        for (int c = 0; c < seen.length; c++) {
            if (!seen[c]) {
                readers[c].appendTypeDefault(columns[c]);
            }
        }
        return true;
    }

    /**
     * The target columns that no row read so far had: ClickHouse gives every row their default;
     * reported (unlike a key only some rows lack) because such a column is likely misnamed.
     */
    List<String> columnsInNoRow() {
        List<String> out = new ArrayList<>();
        for (int c = 0; c < inSomeRow.length; c++) {
            if (!inSomeRow[c]) {
                out.add(schema.names().get(c));
            }
        }
        return out;
    }

    /** The keys of the rows read so far, in order of first appearance (at most 1000). */
    Set<String> keys() {
        return keys;
    }

    /** Reads a key; its column, trying first the column at the same position as in the schema. */
    private int readKey(int index) {
        key.clear();
        TextStrings.readJson(in, key);
        if (index < keyBytes.length && equal(keyBytes[index], key)) {
            return index;
        }
        Integer c = byKey.get(new String(key.b, 0, key.len, StandardCharsets.ISO_8859_1));
        return c == null ? -1 : c;
    }

    private static boolean equal(byte[] a, ByteBuf b) {
        if (a.length != b.len) {
            return false;
        }
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b.b[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    void syncAfterError() {
        skipToUnescapedNextLine(in);
    }

    @Override
    void readSuffix() {
        TextStrings.skipWhitespace(in);
        if (inBrackets) {
            in.expect(']');
            TextStrings.skipWhitespace(in);
        }
        if (in.check(';')) {
            TextStrings.skipWhitespace(in);
        }
        if (!in.eof()) {
            throw TextParseException.expected("eof", in);
        }
    }
}
