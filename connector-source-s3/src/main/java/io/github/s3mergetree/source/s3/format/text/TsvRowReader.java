package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.util.List;

/**
 * {@code TabSeparated} and {@code TabSeparatedWithNames} as ClickHouse's {@code
 * TabSeparatedRowInputFormat} reads them: fields separated by tabs, rows ended by {@code \n},
 * exactly as many fields as columns; values backslash-escaped ({@code \t}, {@code \n}, {@code \\},
 * {@code \xHH}, ...), {@code \N} is NULL. A {@code \r} at the end of the first row is refused (DOS
 * line ends), as in ClickHouse.
 */
final class TsvRowReader extends RowReader {
    private final boolean withNames;
    private final ByteBuf text = new ByteBuf();
    private int[] map;
    private int[] missing = new int[0];
    private List<String> header = List.of();
    private boolean firstRowEnd = true;

    TsvRowReader(TargetSchema schema, TextSettings settings, boolean withNames) {
        super(schema, settings);
        this.withNames = withNames;
        this.map = identity();
    }

    @Override
    String formatName() {
        return withNames ? "TabSeparatedWithNames" : "TabSeparated";
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

    @Override
    void readPrefix(boolean atObjectStart) {
        if (!atObjectStart) {
            firstRowEnd = false;
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
        } else if (settings.tsvDetectHeader() && !in.eof()) {
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

    private List<String> readStringRow() {
        List<String> out = newList();
        do {
            text.clear();
            TextStrings.readEscaped(in, text);
            out.add(name(text));
        } while (in.check('\t'));
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
                TextStrings.skipEscaped(in, text);
            }
            lastColumn = c;
            column = -1;
            if (!last && !in.check('\t')) {
                int x = in.peek();
                hint =
                        x == '\n' || x < 0
                                ? "the row ends after "
                                        + (f + 1)
                                        + " of "
                                        + n
                                        + " fields (fewer fields than columns, or an unescaped"
                                        + " backslash before a tab)"
                                : x == '\r'
                                        ? "carriage return where a tab is expected"
                                        : notValid("no tab after field " + (f + 1));
                throw TextParseException.expected("\t", in);
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
        int x = in.peek();
        if (settings.tsvEmptyAsDefault()
                && ((!last && x == '\t') || (last && (x < 0 || x == '\n')))) {
            r.appendDefault(col);
            return;
        }
        if (settings.nullAsDefault() && !r.isNullable() && CompositeReaders.escapedNull(in)) {
            r.appendDefault(col);
            return;
        }
        r.readEscaped(in, col);
    }

    /** ClickHouse's {@code skipRowEndDelimiter} for TSV. */
    private void rowEnd() {
        if (in.eof()) {
            return;
        }
        if (firstRowEnd) {
            firstRowEnd = false;
            if (in.at('\r') || in.byteBefore(1) == '\r') {
                throw new TextParseException(
                        "You have carriage return (\\r, 0x0D, ASCII 13) at end of first row. It's"
                                + " like your input data has DOS/Windows style line separators,"
                                + " that are illegal in TabSeparated format. You must transform"
                                + " your file to Unix format. But if you really need carriage"
                                + " return at end of string value of last column, you need to"
                                + " escape it as \\r");
            }
        }
        if (!in.check('\n')) {
            hint =
                    in.at('\t')
                            ? "more fields than the "
                                    + map.length
                                    + " expected, or an unescaped tab"
                            : notValid("garbage at the end of the row");
            throw TextParseException.expected("\n", in);
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
        skipToUnescapedNextLine(in);
    }

    /**
     * Whether a row boundary at the current position (just after a {@code \n}) can be found by a
     * reader that starts in the middle of the object: no backslash in the three bytes before the
     * {@code \n}, so it cannot belong to an escape sequence ({@code \<LF>}, {@code \x<LF>?}, {@code
     * \x?<LF>}) and ends a row in every reading.
     */
    static boolean safeBoundary(TextCursor in) {
        if (in.byteBefore(1) != '\n') {
            return false;
        }
        for (int back = 2; back <= 4; back++) {
            if (in.byteBefore(back) == '\\') {
                return false;
            }
        }
        return true;
    }
}
