package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.util.List;

/**
 * {@code CSV} and {@code CSVWithNames} as ClickHouse's {@code CSVRowInputFormat} reads them: every
 * row has exactly as many fields as columns (or header names), one extra trailing delimiter
 * allowed; quoted fields may hold delimiters, quotes ({@code ""}) and line breaks, kept as they
 * are; {@code \N} is NULL; blanks around fields are dropped; an empty unquoted field is the
 * column's default; rows end with {@code \n}, {@code \r\n} or {@code \n\r}.
 */
final class CsvRowReader extends RowReader {
    private final boolean withNames;
    private final char delimiter;
    private final ByteBuf text = new ByteBuf();
    private int[] map;
    private int[] missing = new int[0];
    private List<String> header = List.of();

    CsvRowReader(TargetSchema schema, TextSettings settings, boolean withNames) {
        super(schema, settings);
        this.withNames = withNames;
        this.delimiter = settings.delimiter();
        this.map = identity();
    }

    @Override
    String formatName() {
        return withNames ? "CSVWithNames" : "CSV";
    }

    @Override
    void readPrefix(boolean atObjectStart) {
        if (!atObjectStart) {
            return;
        }
        if (withNames || !readers[0].isStringLike()) {
            skipBom(in);
        }
        if (withNames) {
            if (in.eof()) {
                return;
            }
            rowStart = in.pinRowStart();
            setHeader(readStringRow());
        } else if (settings.csvDetectHeader() && !in.eof()) {
            rowStart = in.pinRowStart();
            long start = rowStart;
            List<String> first = readStringRow();
            if (!looksLikeNames(first)) {
                in.rewind(start);
                return;
            }
            setHeader(first);
            if (in.eof()) {
                return;
            }
            long second = in.pin();
            List<String> types = readStringRow();
            if (!checkTypesRow(types, map)) {
                in.rewind(second);
            }
            in.unpin();
        }
    }

    /** Maps the fields of the header {@code names} to the target columns. */
    private void setHeader(List<String> names) {
        map = mapHeader(names);
        missing = missingColumns(map);
        header = names;
    }

    @Override
    List<String> columnsNotInHeader() {
        return names(missing);
    }

    @Override
    List<String> headerNames() {
        return header;
    }

    /** A row of fields read as strings (a header). */
    private List<String> readStringRow() {
        List<String> out = newList();
        do {
            TextStrings.skipBlanks(in);
            text.clear();
            TextStrings.readCsv(in, text, settings);
            out.add(name(text));
            TextStrings.skipBlanks(in);
        } while (in.check(delimiter));
        rowEnd();
        return out;
    }

    @Override
    boolean readRow(Column[] columns) {
        column = -1;
        field = -1;
        lastColumn = -1;
        hint = null;
        if (in.eof()) {
            return false;
        }
        rowStart = in.pinRowStart();
        int n = map.length;
        for (int f = 0; f < n; f++) {
            field = f;
            int c = map[f];
            boolean last = f == n - 1;
            if (c >= 0) {
                column = c;
                fieldStart = in.offset();
                readField(columns[c], readers[c], last);
            } else {
                TextStrings.skipBlanks(in);
                text.clear();
                TextStrings.readCsv(in, text, settings);
            }
            lastColumn = c;
            column = -1;
            if (!last) {
                TextStrings.skipBlanks(in);
                if (!in.check(delimiter)) {
                    int x = in.peek();
                    hint =
                            x == '\n' || x == '\r' || x < 0
                                    ? "the row ends after "
                                            + (f + 1)
                                            + " of "
                                            + n
                                            + " fields (fewer fields than columns, or an"
                                            + " unescaped quote in a value)"
                                    : notValid("no delimiter after field " + (f + 1));
                    throw TextParseException.expected(String.valueOf(delimiter), in);
                }
            }
        }
        field = -1;
        rowEnd();
        for (int c : missing) {
            readers[c].appendDefault(columns[c]);
        }
        return true;
    }

    private void readField(Column col, ValueReader r, boolean last) {
        TextStrings.skipBlanks(in);
        fieldStart = in.offset();
        int x = in.peek();
        boolean atDelimiter = x == delimiter;
        boolean atLineEnd = last && (x < 0 || x == '\n' || x == '\r');
        if (settings.csvEmptyAsDefault() && (atDelimiter || atLineEnd)) {
            r.appendDefault(col);
            return;
        }
        if (settings.nullAsDefault()
                && !r.isNullable()
                && CompositeReaders.csvNull(in, delimiter)) {
            r.appendDefault(col);
            return;
        }
        r.readCsv(in, col);
    }

    /** ClickHouse's {@code skipRowEndDelimiter} for CSV. */
    private void rowEnd() {
        TextStrings.skipBlanks(in);
        if (in.eof()) {
            return;
        }
        if (in.check(delimiter)) {
            TextStrings.skipBlanks(in);
            if (in.eof()) {
                return;
            }
        }
        int x = in.peek();
        if (x == '\n') {
            in.pos++;
            in.check('\r');
        } else if (x == '\r') {
            in.pos++;
            if (!in.check('\n')) {
                throw new TextParseException(
                        "Cannot parse CSV format: found \\r (CR) not followed by \\n (LF). Line"
                                + " must end by \\n (LF) or \\r\\n (CR LF) or \\n\\r.");
            }
        } else {
            hint =
                    x == delimiter
                            ? "more fields than the " + map.length + " expected"
                            : notValid(
                                    "more fields than the "
                                            + map.length
                                            + " expected, or an unquoted value with the"
                                            + " delimiter");
            throw new TextParseException(
                    "Expected end of line"
                            + (in.snippet(1) == null ? "" : " before: '" + in.snippet(40) + "'"));
        }
    }

    /** A hint naming the value of the last column as the likely culprit. */
    private String notValid(String otherwise) {
        return lastColumn < 0
                ? otherwise
                : "the value of column '"
                        + schema.names().get(lastColumn)
                        + "' is not a valid "
                        + schema.types().get(lastColumn).name()
                        + ", or "
                        + otherwise;
    }

    @Override
    void syncAfterError() {
        skipToNextLine(in);
    }
}
