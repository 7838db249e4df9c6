package io.github.s3mergetree.source.s3.format;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.convert.ValueConverter;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Line-based text formats into columnar {@link Block}s of a {@link TargetSchema}, with ClickHouse's
 * semantics: {@code CSV} / {@code CSVWithNames} (RFC 4180 quoting, {@code \N} = NULL, empty =
 * default, {@code format_csv_delimiter}), {@code TabSeparated} / {@code TabSeparatedWithNames}
 * (backslash escapes, {@code \N} = NULL) and {@code JSONEachRow} (one object per line). Composite
 * values in CSV/TSV use ClickHouse's literal syntax ({@code [1,2]}, {@code ('a',1)}, {@code
 * {'k':1}}).
 *
 * <p>Uncompressed objects larger than {@code s3.split.size} are read by several readers: a split
 * owns the lines that start inside its byte range (it skips the partial line at its start and
 * finishes the line that crosses its end). The position of such splits is the byte offset of the
 * next line. Compressed objects (by extension or {@code compression_method}) are one split each;
 * their position is the number of rows emitted. Limitation: byte-range splitting assumes no
 * newlines inside quoted CSV fields; set {@code s3.split.size = 0} for such data.
 */
@PublicEvolving
public final class TextBlockFormat implements S3ObjectFormat<Block> {
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
    public TypeInformation<Block> getProducedType() {
        return new BlockTypeInfo(schema);
    }

    @Override
    public boolean isSplittable(String key) {
        return Compression.of(compressionMethod, key) == Compression.NONE;
    }

    @Override
    public FormatReader<Block> createReader(FormatContext context, S3ObjectSplit split)
            throws IOException {
        return new Reader(context, split);
    }

    private final class Reader implements FormatReader<Block> {
        private final FormatContext ctx;
        private final S3ObjectSplit split;
        private final String object;
        private final boolean compressed;
        private final LineReader lines;
        private final InputStream input;
        private final ValueConverter converter;
        private final char delimiter;
        private final boolean skipUnknown;
        private final ObjectMapper json;
        private int[] fieldToColumn; // CSV/TSV: field index -> target column (-1: skip)
        private long rowsEmitted;

        Reader(FormatContext ctx, S3ObjectSplit split) throws IOException {
            this.ctx = ctx;
            this.split = split;
            this.object = ctx.describe(split.key());
            this.converter = new ValueConverter(object, ctx.sessionZone());
            String d = ctx.options().get(S3SourceOptions.FORMAT_CSV_DELIMITER);
            if (d.length() != 1) {
                throw new IllegalArgumentException(
                        "format_csv_delimiter must be one character, got '" + d + "'");
            }
            this.delimiter = d.charAt(0);
            this.skipUnknown = ctx.options().get(S3SourceOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS);
            this.json =
                    kind == Kind.JSON_EACH_ROW
                            ? new ObjectMapper()
                                    .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                                    .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                            : null;
            Compression compression =
                    Compression.of(
                            ctx.options().get(S3SourceOptions.COMPRESSION).equals("auto")
                                    ? compressionMethod
                                    : ctx.options().get(S3SourceOptions.COMPRESSION),
                            split.key());
            this.compressed = compression != Compression.NONE;
            if (!kind.withNames) {
                fieldToColumn = identityMapping();
            }
            if (compressed) {
                if (!split.isWholeObject()) {
                    throw new ObjectFormatException(
                            object + ": a compressed object cannot be read in byte ranges");
                }
                input = compression.decompress(ctx.open(split, 0, split.objectSize()));
                lines = new LineReader(input, 0);
                if (kind.withNames) {
                    readHeaderFromStream();
                }
                long skip = split.offset() == S3ObjectSplit.NOT_STARTED ? 0 : split.recordsToSkip();
                for (long i = 0; i < skip; i++) {
                    if (!nextRecord()) {
                        throw new ObjectFormatException(
                                object + ": has fewer than " + skip + " rows; cannot restore");
                    }
                }
                rowsEmitted = skip;
            } else {
                long start;
                boolean skipPartial = false;
                boolean headerInStream = false;
                if (split.offset() != S3ObjectSplit.NOT_STARTED) {
                    start = split.offset();
                } else if (split.rangeStart() == 0) {
                    start = 0;
                    headerInStream = kind.withNames;
                } else {
                    start = split.rangeStart() - 1;
                    skipPartial = true;
                }
                if (kind.withNames && !headerInStream) {
                    readHeaderSeparately();
                }
                input = new ContinuingInputStream(start);
                lines = new LineReader(input, start);
                if (headerInStream) {
                    readHeaderFromStream();
                }
                if (skipPartial) {
                    lines.next();
                }
            }
        }

        private int[] identityMapping() {
            int[] m = new int[schema.size()];
            for (int i = 0; i < m.length; i++) {
                m[i] = i;
            }
            return m;
        }

        /** Bytes [start, rangeEnd), then lazily [rangeEnd, size) for the line crossing the end. */
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

        private void readHeaderFromStream() throws IOException {
            if (!lines.next()) {
                fieldToColumn = new int[0];
                return;
            }
            mapHeader(lines.line(), lines.lineLength());
        }

        private void readHeaderSeparately() throws IOException {
            long len = Math.min(split.objectSize(), 64 * 1024);
            while (true) {
                byte[] head = ctx.objectReader().readFully(split.key(), split.etag(), 0, len);
                int nl = -1;
                for (int i = 0; i < head.length; i++) {
                    if (head[i] == '\n') {
                        nl = i;
                        break;
                    }
                }
                if (nl >= 0 || len == split.objectSize()) {
                    int end = nl < 0 ? head.length : nl;
                    if (end > 0 && head[end - 1] == '\r') {
                        end--;
                    }
                    mapHeader(head, end);
                    return;
                }
                len = Math.min(split.objectSize(), len * 4);
            }
        }

        private void mapHeader(byte[] line, int len) throws ObjectFormatException {
            List<Object> names = fields(new String(line, 0, len, StandardCharsets.UTF_8));
            fieldToColumn = new int[names.size()];
            for (int i = 0; i < names.size(); i++) {
                String name = names.get(i) == null ? "" : names.get(i).toString();
                int c = schema.indexOf(name);
                if (c < 0 && !skipUnknown) {
                    throw new ObjectFormatException(
                            object
                                    + ": header column '"
                                    + name
                                    + "' is not in the target schema (input_format_skip_unknown_fields = 0)");
                }
                fieldToColumn[i] = c;
            }
        }

        /** Reads the next non-empty record into the line reader; false at the end. */
        private boolean nextRecord() throws IOException {
            while (true) {
                if (!compressed && lines.position() >= split.rangeEnd()) {
                    return false; // the next line starts in the next split
                }
                if (!lines.next()) {
                    return false;
                }
                if (kind == Kind.CSV || kind == Kind.CSV_WITH_NAMES) {
                    while (unbalancedQuotes() && lines.continueLine()) {
                        // a quoted field spans lines
                    }
                }
                if (lines.lineLength() > 0) {
                    return true;
                }
            }
        }

        private boolean unbalancedQuotes() {
            int q = 0;
            byte[] l = lines.line();
            for (int i = 0; i < lines.lineLength(); i++) {
                if (l[i] == '"') {
                    q++;
                }
            }
            return (q & 1) == 1;
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            int max = ctx.maxBlockSize();
            Block block = Block.empty(schema.names(), schema.types(), Math.min(max, 1024));
            Object[] row = new Object[schema.size()];
            boolean[] present = new boolean[schema.size()];
            int rows = 0;
            while (rows < max && nextRecord()) {
                Arrays.fill(row, null);
                Arrays.fill(present, false);
                String text =
                        new String(lines.line(), 0, lines.lineLength(), StandardCharsets.UTF_8);
                try {
                    parseRow(text, row, present);
                } catch (RuntimeException e) {
                    throw new ObjectFormatException(
                            where()
                                    + ": cannot parse "
                                    + kind.clickHouseName
                                    + " row: "
                                    + e.getMessage(),
                            e);
                }
                for (int c = 0; c < row.length; c++) {
                    DataType t = schema.types().get(c);
                    if (!present[c]) {
                        Columns.appendDefault(t, block.column(c));
                        continue;
                    }
                    try {
                        converter.append(
                                t,
                                block.column(c),
                                composite(t, row[c]),
                                schema.names().get(c),
                                rowsEmitted);
                    } catch (RuntimeException e) {
                        throw new ObjectFormatException(
                                where()
                                        + ", column '"
                                        + schema.names().get(c)
                                        + "': "
                                        + e.getMessage(),
                                e);
                    }
                }
                rows++;
                rowsEmitted++;
            }
            if (rows == 0) {
                return null;
            }
            return List.of(
                    compressed
                            ? new PositionedRecord<>(block, 0, rowsEmitted)
                            : new PositionedRecord<>(block, lines.position(), 0));
        }

        @Override
        public void close() throws IOException {
            input.close();
        }

        private String where() {
            return compressed
                    ? object + ": row " + rowsEmitted
                    : object + ": line at byte offset " + lines.lineStart();
        }

        private void parseRow(String text, Object[] row, boolean[] present) throws IOException {
            if (kind == Kind.JSON_EACH_ROW) {
                JsonNode node = json.readTree(text);
                if (!node.isObject()) {
                    throw new IllegalArgumentException("not a JSON object");
                }
                Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> e = it.next();
                    int c = schema.indexOf(e.getKey());
                    if (c < 0) {
                        if (!skipUnknown) {
                            throw new IllegalArgumentException(
                                    "field '" + e.getKey() + "' is not in the target schema");
                        }
                        continue;
                    }
                    row[c] = javaValue(e.getValue());
                    present[c] = true;
                }
                return;
            }
            List<Object> fields = fields(text);
            for (int i = 0; i < fields.size() && i < fieldToColumn.length; i++) {
                int c = fieldToColumn[i];
                if (c < 0) {
                    continue;
                }
                Object v = fields.get(i);
                if (v == EMPTY) {
                    continue; // empty CSV field: the column default
                }
                row[c] = v;
                present[c] = true;
            }
        }

        private List<Object> fields(String text) {
            return kind == Kind.TAB_SEPARATED || kind == Kind.TAB_SEPARATED_WITH_NAMES
                    ? tsvFields(text)
                    : csvFields(text, delimiter);
        }
    }

    private static final Object EMPTY = new Object();

    /** Turns a CSV/TSV string holding a composite literal into lists/maps. */
    private static Object composite(DataType type, Object v) {
        if (!(v instanceof String s)) {
            return v;
        }
        DataType t = type;
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        if (t instanceof NullableType n) {
            t = n.nested();
        }
        if (t instanceof ArrayType || t instanceof TupleType || t instanceof MapType) {
            return TextValues.parse(s);
        }
        return v;
    }

    private static Object javaValue(JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (n.isTextual()) {
            return n.textValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isIntegralNumber()) {
            return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
        }
        if (n.isNumber()) {
            return n.decimalValue();
        }
        if (n.isArray()) {
            List<Object> out = new ArrayList<>(n.size());
            for (JsonNode e : n) {
                out.add(javaValue(e));
            }
            return out;
        }
        if (n.isObject()) {
            Map<Object, Object> out = new LinkedHashMap<>();
            Iterator<Map.Entry<String, JsonNode>> it = n.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(e.getKey(), javaValue(e.getValue()));
            }
            return out;
        }
        return n.asText();
    }

    /** TabSeparated fields: backslash escapes, {@code \N} = NULL. */
    static List<Object> tsvFields(String line) {
        List<Object> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean nullField = false;
        for (int i = 0; i <= line.length(); i++) {
            if (i == line.length() || line.charAt(i) == '\t') {
                out.add(nullField && b.length() == 0 ? null : b.toString());
                b.setLength(0);
                nullField = false;
                continue;
            }
            char c = line.charAt(i);
            if (c == '\\' && i + 1 < line.length()) {
                char e = line.charAt(++i);
                if (e == 'N'
                        && b.length() == 0
                        && (i + 1 == line.length() || line.charAt(i + 1) == '\t')) {
                    nullField = true;
                    continue;
                }
                b.append(
                        switch (e) {
                            case 'n' -> '\n';
                            case 't' -> '\t';
                            case 'r' -> '\r';
                            case '0' -> '\0';
                            case 'b' -> '\b';
                            case 'f' -> '\f';
                            case 'a' -> (char) 7;
                            case 'v' -> (char) 11;
                            default -> e;
                        });
            } else {
                b.append(c);
            }
        }
        return out;
    }

    /** CSV fields: RFC 4180 quotes, unquoted {@code \N} = NULL, unquoted empty = default. */
    static List<Object> csvFields(String line, char delimiter) {
        List<Object> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (true) {
            if (i < n && line.charAt(i) == '"') {
                StringBuilder b = new StringBuilder();
                i++;
                while (i < n) {
                    char c = line.charAt(i);
                    if (c == '"') {
                        if (i + 1 < n && line.charAt(i + 1) == '"') {
                            b.append('"');
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    b.append(c);
                    i++;
                }
                out.add(b.toString());
                while (i < n && line.charAt(i) != delimiter) {
                    i++;
                }
            } else {
                int start = i;
                while (i < n && line.charAt(i) != delimiter) {
                    i++;
                }
                String raw = line.substring(start, i);
                String t = raw.strip();
                out.add(t.equals("\\N") ? null : t.isEmpty() ? EMPTY : raw);
            }
            if (i >= n) {
                break;
            }
            i++; // delimiter
            if (i == n) {
                out.add(EMPTY);
                break;
            }
        }
        return out;
    }
}
