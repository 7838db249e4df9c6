package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Parses one stream of CSV, TSV or JSONEachRow text into blocks of a {@link TargetSchema} with
 * ClickHouse's rules, and reports every malformed row as ClickHouse would refuse it: naming the
 * object, the line (1-based, a header line counted), the byte offset, the column and the reason.
 *
 * <p>With {@code input_format_allow_errors_num} / {@code input_format_allow_errors_ratio} above 0,
 * malformed rows are skipped (the parser resumes at the next line, as ClickHouse's {@code
 * syncAfterError}) and counted, until there are more than {@code num} of them <em>and</em> they are
 * more than {@code ratio} of the rows read, as in ClickHouse's {@code IRowInputFormat}. The counts
 * are per parser, i.e. per split.
 */
@Internal
public final class TextParser {
    private static final Logger LOG = LoggerFactory.getLogger(TextParser.class);
    private static final int LOGGED_SKIPS = 10;

    /** The text formats, by their ClickHouse names. */
    public enum Format {
        CSV("CSV"),
        CSV_WITH_NAMES("CSVWithNames"),
        TAB_SEPARATED("TabSeparated"),
        TAB_SEPARATED_WITH_NAMES("TabSeparatedWithNames"),
        JSON_EACH_ROW("JSONEachRow");

        private final String clickHouseName;

        Format(String clickHouseName) {
            this.clickHouseName = clickHouseName;
        }

        public String clickHouseName() {
            return clickHouseName;
        }
    }

    private final Format format;
    private final TargetSchema schema;
    private final RowReader rows;
    private final String object;
    private final long allowErrorsNum;
    private final double allowErrorsRatio;
    private final String where;
    private TextCursor in;
    private LongSupplier newlinesBeforeStream;
    private long firstLineOfStream;
    private long rowsRead;
    private long rowsAttempted;
    private long errors;
    private boolean finished;
    private long stopAt = -1;

    /**
     * @param object the object as the user named it, for messages
     * @param where how to name a place in the stream: "" for the object's bytes, or e.g. " of the
     *     decompressed data"
     */
    public TextParser(
            Format format,
            TargetSchema schema,
            TextSettings settings,
            long allowErrorsNum,
            double allowErrorsRatio,
            String object,
            String where) {
        this.format = format;
        this.schema = schema;
        this.object = object;
        this.where = where;
        this.allowErrorsNum = allowErrorsNum;
        this.allowErrorsRatio = allowErrorsRatio;
        this.rows =
                switch (format) {
                    case CSV -> new CsvRowReader(schema, settings, false);
                    case CSV_WITH_NAMES -> new CsvRowReader(schema, settings, true);
                    case TAB_SEPARATED -> new TsvRowReader(schema, settings, false);
                    case TAB_SEPARATED_WITH_NAMES -> new TsvRowReader(schema, settings, true);
                    case JSON_EACH_ROW -> new JsonEachRowReader(schema, settings);
                };
    }

    /**
     * Whether an uncompressed object of this format and schema may be read in byte ranges by
     * different readers: only TabSeparated without Array/Map/Tuple columns, whose row ends a reader
     * starting anywhere can find for sure ({@link TsvRowReader#safeBoundary}). A quoted CSV field
     * or a JSON string may hold line breaks, so a reader starting inside one could not tell.
     */
    public static boolean splittable(Format format, TargetSchema schema) {
        if (format != Format.TAB_SEPARATED && format != Format.TAB_SEPARATED_WITH_NAMES) {
            return false;
        }
        for (DataType t : schema.types()) {
            if (composite(t)) {
                return false;
            }
        }
        return true;
    }

    private static boolean composite(DataType t) {
        if (t instanceof LowCardinalityType lc) {
            return composite(lc.nested());
        }
        if (t instanceof NullableType n) {
            return composite(n.nested());
        }
        return t instanceof ArrayType || t instanceof MapType || t instanceof TupleType;
    }

    /**
     * Reads the object's prefix (byte order mark, header) from {@code in}, which starts at the
     * object's first byte, and goes on reading rows from it.
     */
    public void startAtObjectStart(TextCursor in) throws IOException {
        this.in = in;
        this.firstLineOfStream = 1;
        rows.setInput(in);
        try {
            rows.readPrefix(true);
        } catch (TextParseException e) {
            throw error(e, "while reading the header");
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Reads the object's prefix from {@code head} (a stream of the object from its first byte),
     * then reads rows from {@code in}, which starts at a row boundary in the middle of the object.
     *
     * @param newlinesBefore counts the newlines before {@code in}'s start, for the line numbers of
     *     messages (called only when a message needs one)
     */
    public void startInside(TextCursor head, TextCursor in, LongSupplier newlinesBefore)
            throws IOException {
        if (head != null) {
            rows.setInput(head);
            try {
                rows.readPrefix(true);
            } catch (TextParseException e) {
                this.in = head;
                this.firstLineOfStream = 1;
                throw error(e, "while reading the header");
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
        this.in = in;
        this.newlinesBeforeStream = newlinesBefore;
        rows.setInput(in);
        rows.readPrefix(false);
    }

    /**
     * Stops before the first row that starts at or after {@code offset} at a boundary that {@link
     * #seekSafeBoundary} would find (the end of a byte-range split).
     */
    public void stopAt(long offset) {
        this.stopAt = offset;
    }

    /**
     * Skips to the first row boundary at or after {@code offset} that a reader of the previous
     * range stops at ({@link TsvRowReader#safeBoundary}); false if there is none (the range owns no
     * row). The stream must start at most 4 bytes before {@code offset}.
     */
    public boolean seekSafeBoundary(long offset) throws IOException {
        try {
            while (in.offset() < offset) {
                if (in.eof()) {
                    return false;
                }
                in.pos++;
            }
            while (!TsvRowReader.safeBoundary(in) && !(in.offset() == 0)) {
                RowReader.skipToNextLine(in);
                if (in.eof()) {
                    return false;
                }
            }
            return !in.eof();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Appends up to {@code max} rows to {@code block}; the number appended, 0 at the end of the
     * data.
     *
     * @throws ObjectFormatException for a malformed row beyond the allowed errors; the block may
     *     then hold rows of this call, which the caller must not emit
     */
    public int read(Block block, int max) throws IOException {
        if (finished) {
            return 0;
        }
        Column[] columns = new Column[block.columnCount()];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = block.column(i);
        }
        int n = 0;
        try {
            while (n < max) {
                if (stopAt >= 0 && in.offset() >= stopAt && TsvRowReader.safeBoundary(in)) {
                    finished = true;
                    break;
                }
                int size = block.rows();
                try {
                    rowsAttempted++;
                    if (!rows.readRow(columns)) {
                        rowsAttempted--;
                        finished = true;
                        try {
                            rows.readSuffix();
                        } catch (TextParseException e) {
                            throw error(e, "after the last row");
                        }
                        break;
                    }
                    n++;
                    rowsRead++;
                } catch (TextParseException e) {
                    // back to the row's start, nested values included (ClickHouse's rollback)
                    for (Column c : columns) {
                        c.truncate(size);
                    }
                    if ((allowErrorsNum == 0 && allowErrorsRatio == 0) || !e.skippable()) {
                        throw error(e, null);
                    }
                    errors++;
                    double ratio = (double) errors / rowsAttempted;
                    if (errors > allowErrorsNum && ratio > allowErrorsRatio) {
                        throw error(
                                e,
                                null,
                                " (already "
                                        + errors
                                        + " errors out of "
                                        + rowsAttempted
                                        + " rows, "
                                        + ratio
                                        + " of all rows; input_format_allow_errors_num = "
                                        + allowErrorsNum
                                        + ", input_format_allow_errors_ratio = "
                                        + allowErrorsRatio
                                        + ")");
                    }
                    if (errors <= LOGGED_SKIPS) {
                        LOG.warn(
                                "Skipping a malformed row ({} of {} so far): {}",
                                errors,
                                rowsAttempted,
                                error(e, null).getMessage());
                    }
                    rows.syncAfterError();
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return n;
    }

    /** Offset after the last row read (or skipped): where a reader may resume. */
    public long position() {
        return in.offset();
    }

    /** Rows read (not skipped). */
    public long rowsRead() {
        return rowsRead;
    }

    /** Malformed rows skipped so far. */
    public long skippedRows() {
        return errors;
    }

    public boolean finished() {
        return finished;
    }

    /**
     * The target columns the object's header does not name (CSVWithNames, TabSeparatedWithNames, or
     * a detected header of CSV / TabSeparated), known once the parser has started: every row gets
     * their default. Empty without a header and for JSONEachRow ({@link #columnsInNoRow}).
     */
    public List<String> columnsNotInHeader() {
        return rows.columnsNotInHeader();
    }

    /**
     * For JSONEachRow, the target columns that no row read so far had (every row got their
     * default); empty for the other formats.
     */
    public List<String> columnsInNoRow() {
        return rows instanceof JsonEachRowReader j ? j.columnsInNoRow() : List.of();
    }

    /**
     * The columns the object has, for messages: the names of its header, or for JSONEachRow the
     * keys of the rows read so far (in order of first appearance, at most 1000).
     */
    public Collection<String> objectColumns() {
        return rows instanceof JsonEachRowReader j ? j.keys() : rows.headerNames();
    }

    /** Whether the JSONEachRow data is enclosed in {@code [ ]} (from the object's start). */
    boolean jsonInBrackets() {
        return rows instanceof JsonEachRowReader j && j.inBrackets();
    }

    private ObjectFormatException error(TextParseException e, String phase) {
        return error(e, phase, "");
    }

    /**
     * The message of a malformed row: the object, then where the row starts (line, byte offset), or
     * where the bad field starts when a column is named, the column and its type, ClickHouse's
     * reason, an explanation of structural errors, where parsing stopped if elsewhere, and the row
     * as text (escaped, never raw binary).
     */
    private ObjectFormatException error(TextParseException e, String phase, String suffix) {
        long stopped = in.offset();
        boolean inRow = phase == null && rows.rowStart <= stopped;
        long at =
                !inRow
                        ? stopped
                        : rows.column >= 0 && rows.fieldStart >= rows.rowStart
                                ? rows.fieldStart
                                : rows.rowStart;
        long line = line(at);
        StringBuilder m = new StringBuilder();
        m.append(object).append(": cannot parse ").append(format.clickHouseName()).append(" input");
        if (phase != null) {
            m.append(' ').append(phase);
        }
        m.append(" at ");
        if (line > 0) {
            m.append("line ").append(line).append(", ");
        }
        m.append("byte offset ").append(at).append(where);
        if (rows.column >= 0) {
            m.append(", column '")
                    .append(schema.names().get(rows.column))
                    .append("' (")
                    .append(schema.types().get(rows.column).name())
                    .append(')');
        } else if (rows.lastColumn >= 0) {
            m.append(", after column '").append(schema.names().get(rows.lastColumn)).append('\'');
        }
        m.append(": ").append(e.getMessage());
        if (rows.hint != null) {
            m.append("; ").append(rows.hint);
        }
        if (inRow && stopped != at) {
            long stopLine = line(stopped);
            m.append("; parsing stopped at ");
            if (stopLine > 0) {
                m.append("line ").append(stopLine).append(", ");
            }
            m.append("byte offset ").append(stopped);
        }
        if (inRow) {
            m.append("; row: '").append(in.text(rows.rowStart, stopped + 40, 200)).append('\'');
        }
        m.append(suffix);
        return new ObjectFormatException(m.toString());
    }

    /** The 1-based line of {@code offset} (in the buffer), or 0 if it cannot be told. */
    private long line(long offset) {
        if (firstLineOfStream == 0 && newlinesBeforeStream != null) {
            try {
                firstLineOfStream = newlinesBeforeStream.getAsLong() + 1;
            } catch (RuntimeException ex) {
                LOG.debug("cannot count the lines before byte {} of {}", offset, object, ex);
                firstLineOfStream = -1;
            }
        }
        if (firstLineOfStream <= 0) {
            return 0;
        }
        return firstLineOfStream + in.newlinesBefore(offset);
    }
}
