package io.github.s3mergetree.source.s3.format.text;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.MissingColumns;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ProjectableBlockFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.compression.Compression;
import io.github.s3mergetree.source.s3.format.compression.DecompressingInputStream;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Text formats into columnar {@link Block}s of a {@link TargetSchema}, parsed byte by byte as
 * ClickHouse parses them ({@link TextParser}): {@code CSV} / {@code CSVWithNames}, {@code
 * TabSeparated} / {@code TabSeparatedWithNames} and {@code JSONEachRow}. A row ClickHouse refuses
 * (too few or too many fields, an unclosed quote, a bad escape, a value of the wrong type) fails
 * the read with a message naming the object, line, byte offset and column, unless {@code
 * input_format_allow_errors_num/ratio} allow skipping it; String values are stored as the bytes
 * they are, never decoded.
 *
 * <p>Byte ranges: an uncompressed TabSeparated object without Array/Map/Tuple columns that is
 * larger than {@code s3.split.size} is read by several readers; a split owns the rows that start at
 * a safe row boundary inside its range ({@link TextParser#seekSafeBoundary}), so the readers agree
 * on every boundary. CSV and JSONEachRow objects are never cut: a quoted field or string may hold
 * line breaks, and a reader starting inside one could not know it (ClickHouse's parallel parsing
 * reads such formats from the start too); they are still downloaded by parallel ranged GETs. The
 * position of an uncompressed split is the byte offset of its next row; of a compressed object (by
 * extension or {@code compression_method}), the number of rows emitted.
 */
@PublicEvolving
public final class TextBlockFormat implements ProjectableBlockFormat {
    private static final long serialVersionUID = 1L;

    /** The supported text formats, by their ClickHouse names. */
    @PublicEvolving
    public enum Kind {
        CSV("CSV", false),
        CSV_WITH_NAMES("CSVWithNames", true),
        TAB_SEPARATED("TabSeparated", false),
        TAB_SEPARATED_WITH_NAMES("TabSeparatedWithNames", true),
        JSON_EACH_ROW("JSONEachRow", false);

        private final String clickHouseName;
        private final boolean withNames;

        Kind(String clickHouseName, boolean withNames) {
            this.clickHouseName = clickHouseName;
            this.withNames = withNames;
        }

        public String clickHouseName() {
            return clickHouseName;
        }

        TextParser.Format parserFormat() {
            return switch (this) {
                case CSV -> TextParser.Format.CSV;
                case CSV_WITH_NAMES -> TextParser.Format.CSV_WITH_NAMES;
                case TAB_SEPARATED -> TextParser.Format.TAB_SEPARATED;
                case TAB_SEPARATED_WITH_NAMES -> TextParser.Format.TAB_SEPARATED_WITH_NAMES;
                case JSON_EACH_ROW -> TextParser.Format.JSON_EACH_ROW;
            };
        }

        /** The kind named {@code name} (ClickHouse spelling, e.g. {@code TSVWithNames}). */
        public static Kind of(String name) {
            String n = name.toLowerCase(java.util.Locale.ROOT);
            return switch (n) {
                case "csv" -> CSV;
                case "csvwithnames" -> CSV_WITH_NAMES;
                case "tabseparated", "tsv" -> TAB_SEPARATED;
                case "tabseparatedwithnames", "tsvwithnames" -> TAB_SEPARATED_WITH_NAMES;
                case "jsoneachrow", "ndjson", "jsonlines" -> JSON_EACH_ROW;
                default ->
                        throw new IllegalArgumentException(
                                "unknown text format '"
                                        + name
                                        + "' (CSV, CSVWithNames, TabSeparated,"
                                        + " TabSeparatedWithNames, JSONEachRow)");
            };
        }
    }

    private final Kind kind;
    private final TargetSchema schema;
    private final String compressionMethod;

    public TextBlockFormat(Kind kind, TargetSchema schema) {
        this(kind, schema, "auto");
    }

    /**
     * @param compressionMethod {@code auto} (by extension) or a {@link Compression} name
     */
    public TextBlockFormat(Kind kind, TargetSchema schema, String compressionMethod) {
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
        this.schema = java.util.Objects.requireNonNull(schema, "schema");
        Compression.of(compressionMethod, "x"); // validates
        this.compressionMethod = compressionMethod;
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public TargetSchema schema() {
        return schema;
    }

    @Override
    public TextBlockFormat withSchema(TargetSchema columns) {
        return new TextBlockFormat(kind, columns, compressionMethod);
    }

    @Override
    public TypeInformation<Block> getProducedType() {
        return new BlockTypeInfo(schema);
    }

    @Override
    public boolean isSplittable(String key) {
        return Compression.of(compressionMethod, key) == Compression.NONE
                && TextParser.splittable(kind.parserFormat(), schema);
    }

    @Override
    public FormatReader<Block> createReader(FormatContext context, S3ObjectSplit split)
            throws IOException {
        return new Reader(context, split);
    }

    /** The {@link TextSettings} of the source options. */
    static TextSettings settings(ReadableConfig o, java.time.ZoneId zone) {
        String d = o.get(S3SourceOptions.FORMAT_CSV_DELIMITER);
        if (d.length() != 1) {
            throw new IllegalArgumentException(
                    "format_csv_delimiter must be one character, got '" + d + "'");
        }
        return new TextSettings(
                d.charAt(0),
                o.get(S3SourceOptions.FORMAT_CSV_ALLOW_SINGLE_QUOTES),
                o.get(S3SourceOptions.FORMAT_CSV_ALLOW_DOUBLE_QUOTES),
                o.get(S3SourceOptions.INPUT_FORMAT_CSV_EMPTY_AS_DEFAULT),
                o.get(S3SourceOptions.INPUT_FORMAT_TSV_EMPTY_AS_DEFAULT),
                o.get(S3SourceOptions.INPUT_FORMAT_NULL_AS_DEFAULT),
                o.get(S3SourceOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS),
                o.get(S3SourceOptions.INPUT_FORMAT_CSV_DETECT_HEADER),
                o.get(S3SourceOptions.INPUT_FORMAT_TSV_DETECT_HEADER),
                TextSettings.DateTimeInputFormat.of(o.get(S3SourceOptions.DATE_TIME_INPUT_FORMAT)),
                zone);
    }

    private final class Reader implements FormatReader<Block> {
        private final FormatContext ctx;
        private final S3ObjectSplit split;
        private final String object;
        private final boolean compressed;
        private final TextParser parser;
        private final InputStream input;
        private final DecompressingInputStream decompressed;
        private long rowsEmitted;
        private long skippedReported;

        /** Whether the object's header lacks target columns (each row then gets defaults). */
        private boolean headerLacksColumns;

        /** Whether the end of the rows was reported to {@link MissingColumns} (JSONEachRow). */
        private boolean endReported;

        Reader(FormatContext ctx, S3ObjectSplit split) throws IOException {
            this.ctx = ctx;
            this.split = split;
            this.object = ctx.describe(split.key());
            ReadableConfig o = ctx.options();
            TextSettings settings = settings(o, ctx.sessionZone());
            long allowNum = o.get(S3SourceOptions.INPUT_FORMAT_ALLOW_ERRORS_NUM);
            double allowRatio = o.get(S3SourceOptions.INPUT_FORMAT_ALLOW_ERRORS_RATIO);
            if (allowNum < 0 || allowRatio < 0 || allowRatio > 1) {
                throw new IllegalArgumentException(
                        "input_format_allow_errors_num must be >= 0 and"
                                + " input_format_allow_errors_ratio in [0, 1], got "
                                + allowNum
                                + " and "
                                + allowRatio);
            }
            Compression compression =
                    Compression.of(
                            o.get(S3SourceOptions.COMPRESSION).equals("auto")
                                    ? compressionMethod
                                    : o.get(S3SourceOptions.COMPRESSION),
                            split.key());
            this.compressed = compression != Compression.NONE;
            this.parser =
                    new TextParser(
                            kind.parserFormat(),
                            schema,
                            settings,
                            allowNum,
                            allowRatio,
                            object,
                            compressed ? " of the decompressed data" : "");
            boolean started = split.offset() != S3ObjectSplit.NOT_STARTED;
            if (compressed) {
                if (!split.isWholeObject()) {
                    throw new ObjectFormatException(
                            object + ": a compressed object cannot be read in byte ranges");
                }
                input =
                        compression.decompress(
                                ctx.open(split, 0, split.objectSize()), object, split.objectSize());
                decompressed = (DecompressingInputStream) input;
                parser.startAtObjectStart(new TextCursor(input, 0, 1));
                checkHeader();
                long skip = started ? split.recordsToSkip() : 0;
                Block scratch = emptyBlock();
                long skipped = 0;
                while (skipped < skip) {
                    int n = parse(scratch, (int) Math.min(skip - skipped, 65536));
                    if (n == 0) {
                        throw new ObjectFormatException(
                                object + ": has fewer than " + skip + " rows; cannot restore");
                    }
                    skipped += n;
                    for (int c = 0; c < scratch.columnCount(); c++) {
                        scratch.column(c).clear();
                    }
                }
                rowsEmitted = skip;
                return;
            }
            decompressed = null;
            if (!split.isWholeObject() && !isSplittable(split.key())) {
                throw new ObjectFormatException(
                        object
                                + ": a "
                                + kind.clickHouseName()
                                + " object cannot be read in byte ranges (a split of an older"
                                + " version); start the ingest from a fresh state");
            }
            long start;
            boolean seek = false;
            if (started) {
                start = split.offset();
            } else if (split.rangeStart() == 0) {
                start = 0;
            } else {
                start = split.rangeStart();
                seek = true;
            }
            long streamStart = seek ? Math.max(0, start - 4) : start;
            input = new ContinuingInputStream(streamStart);
            TextCursor cursor = new TextCursor(input, streamStart, start == 0 ? 1 : 0);
            if (streamStart == 0 && !seek) {
                parser.startAtObjectStart(cursor);
            } else {
                try (InputStream head =
                        ctx.objectReader().open(split.key(), split.etag(), 0, split.objectSize())) {
                    parser.startInside(
                            new TextCursor(head, 0, 1), cursor, () -> newlinesBefore(streamStart));
                }
            }
            checkHeader();
            if (split.rangeEnd() < split.objectSize()) {
                parser.stopAt(split.rangeEnd());
            }
            if (seek && !parser.seekSafeBoundary(start)) {
                parser.stopAt(0);
            }
        }

        /**
         * Says which target columns the object's header does not name: ClickHouse gives every row
         * their default (no setting refuses such an object), and so does the source, but not
         * silently.
         */
        private void checkHeader() throws ObjectFormatException {
            List<String> absent = parser.columnsNotInHeader();
            headerLacksColumns = !absent.isEmpty();
            ctx.missingColumns()
                    .check(
                            object,
                            kind.clickHouseName(),
                            absent,
                            parser.objectColumns(),
                            null,
                            true);
        }

        /**
         * At the end of a JSONEachRow object, says which target columns no row had (a key that only
         * some rows lack is ordinary JSON and not reported) and counts the rows so filled.
         */
        private void checkColumnsInNoRow() throws ObjectFormatException {
            if (endReported || !parser.finished()) {
                return;
            }
            endReported = true;
            List<String> none = parser.columnsInNoRow();
            long rows = parser.rowsRead();
            if (rows > 0 && !none.isEmpty()) {
                ctx.missingColumns()
                        .check(
                                object,
                                kind.clickHouseName(),
                                none,
                                parser.objectColumns(),
                                null,
                                true);
                ctx.missingColumns().filled(rows);
            }
        }

        private Block emptyBlock() {
            return Block.empty(schema.names(), schema.types(), Math.min(ctx.maxBlockSize(), 1024));
        }

        /** Counts the newlines of the object before {@code offset} (for a message's line). */
        private long newlinesBefore(long offset) {
            long n = 0;
            byte[] b = new byte[64 * 1024];
            try (InputStream s = ctx.objectReader().open(split.key(), split.etag(), 0, offset)) {
                int r;
                while ((r = s.read(b)) > 0) {
                    for (int i = 0; i < r; i++) {
                        if (b[i] == '\n') {
                            n++;
                        }
                    }
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return n;
        }

        /** Bytes [start, rangeEnd), then lazily [rangeEnd, size) for the row crossing the end. */
        private final class ContinuingInputStream extends InputStream {
            private InputStream current;
            private boolean continued;

            ContinuingInputStream(long start) throws IOException {
                long end = Math.max(start, split.rangeEnd());
                current = ctx.open(split, start, end);
                continued = end >= split.objectSize();
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                int n = current.read(b, off, len);
                if (n < 0 && !continued) {
                    current.close();
                    continued = true;
                    current =
                            ctx.objectReader()
                                    .open(
                                            split.key(),
                                            split.etag(),
                                            split.rangeEnd(),
                                            split.objectSize());
                    return read(b, off, len);
                }
                return n;
            }

            @Override
            public void close() throws IOException {
                current.close();
            }
        }

        /**
         * Parses up to {@code max} rows; a parse error of a compressed object that turns out to be
         * corrupt is reported as the corruption.
         */
        private int parse(Block block, int max) throws IOException {
            try {
                return parser.read(block, max);
            } catch (ObjectFormatException e) {
                if (decompressed != null && !e.getMessage().startsWith("corrupt ")) {
                    IOException corrupt = decompressed.verifyRest();
                    if (corrupt != null) {
                        corrupt.addSuppressed(e);
                        throw corrupt;
                    }
                }
                throw e;
            }
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            Block block = emptyBlock();
            int rows = parse(block, ctx.maxBlockSize());
            long skipped = parser.skippedRows();
            if (skipped > skippedReported) {
                ctx.metrics().rowsSkipped(skipped - skippedReported);
                skippedReported = skipped;
            }
            if (rows == 0) {
                checkColumnsInNoRow();
                return null;
            }
            rowsEmitted += rows;
            if (headerLacksColumns) {
                ctx.missingColumns().filled(rows);
            }
            return List.of(
                    compressed
                            ? new PositionedRecord<>(block, 0, rowsEmitted)
                            : new PositionedRecord<>(block, parser.position(), 0));
        }

        @Override
        public void close() throws IOException {
            input.close();
        }
    }
}
