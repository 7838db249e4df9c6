package io.github.s3mergetree.source.s3.format.parquet;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.EnumType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.bitpacking.BytePacker;
import org.apache.parquet.column.values.bitpacking.Packer;

/**
 * Bulk decoding of a flat Parquet column (a required or optional top-level primitive) page by page,
 * without parquet-mr's value-at-a-time column reader: definition levels and dictionary indices are
 * unpacked into int arrays (RLE / bit-packed hybrid), and a run of rows without NULLs is appended
 * to the target column in one tight loop per representation (a bulk copy for PLAIN numbers, an
 * array lookup per row for dictionary pages, length-prefixed byte copies for PLAIN strings). In a
 * run with NULLs, each stretch of defined values between them is appended the same way.
 *
 * <p>Handles PLAIN and dictionary (PLAIN_DICTIONARY / RLE_DICTIONARY) encoded INT32, INT64, FLOAT,
 * DOUBLE and BYTE_ARRAY values in v1 and v2 data pages, copied as they are, INT32 values narrowed
 * to 16 or 8 bits (Parquet INT(16) / INT(8) annotations, both signs), DATE days to Date and
 * TIMESTAMPs to DateTime seconds (range-checked like the value-by-value path), and BYTE_ARRAY names
 * mapped to Enum codes (a dictionary is mapped once; a value that names no element goes to the
 * caller's {@link EnumFallback}). {@link #supports} tells whether a column chunk's encodings allow
 * it, otherwise the caller uses the general reader.
 */
final class ParquetFlatPageReader {
    /** The physical representation appended. */
    enum Kind {
        INT32,
        INT64,
        FLOAT,
        DOUBLE,
        BINARY,
        /** INT32 values stored as 16 bits (ShortColumn), like the value-by-value cast. */
        INT32_TO_INT16,
        /** INT32 values stored as 8 bits (ByteColumn). */
        INT32_TO_INT8,
        /** BYTE_ARRAY names to Enum8 codes (ByteColumn). */
        ENUM8,
        /** BYTE_ARRAY names to Enum16 codes (ShortColumn). */
        ENUM16,
        /**
         * INT32 DATE days to Date (ShortColumn of UInt16 days); a day outside
         * 1970-01-01..2149-06-06 fails, as the value-by-value path does.
         */
        DATE,
        /**
         * INT64 TIMESTAMP ticks to DateTime seconds (IntColumn of UInt32), floored to the second; a
         * time outside 1970..2106 fails, as the value-by-value path does.
         */
        TIMESTAMP_TO_DATETIME
    }

    /**
     * A value the target type cannot hold. {@link #index} is the position it would have taken in
     * the column appended to (one value per row), so the caller can name its row.
     */
    static final class ValueOutOfRange extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        final int index;

        ValueOutOfRange(int index, String message) {
            super(message);
            this.index = index;
        }
    }

    /** Appends a value that names no Enum element, by ClickHouse's casting rules (or fails). */
    @FunctionalInterface
    interface EnumFallback {
        void append(Column target, byte[] bytes, int off, int len);
    }

    private static final int NO_CODE = Integer.MIN_VALUE;

    private static final Set<Encoding> SUPPORTED =
            Set.of(
                    Encoding.PLAIN,
                    Encoding.PLAIN_DICTIONARY,
                    Encoding.RLE_DICTIONARY,
                    Encoding.RLE,
                    // levels only here: parquet-mr's v1 writer lists it for repetition levels
                    Encoding.BIT_PACKED);

    private final Kind kind;
    private final int maxDef;
    private final long ticksPerSecond; // TIMESTAMP_TO_DATETIME: the timestamp's unit; else 1
    private final Map<ByteBuffer, Integer> enumCodes; // ENUM8 / ENUM16: name bytes -> code
    private final EnumFallback enumFallback;

    private PageReader pages;

    /** This reader's page arrays, from the thread's pool (null until the first chunk). */
    private PageBuffers buffers;

    // dictionary of the current column chunk
    private long[] dictLongs;
    private int[] dictInts;
    private double[] dictDoubles;
    private float[] dictFloats;
    private byte[] dictBytes;
    private int[] dictOffsets; // dictOffsets[i]..dictOffsets[i+1] in dictBytes
    private int[] dictCodes; // ENUM8 / ENUM16: the code of each entry, or NO_CODE
    private int dictSize;
    // the current page
    private int[] defs;
    private int pageValues;
    private int pagePos;
    private boolean pageAllDefined;
    private boolean dictEncoded;
    private int[] indices;
    private int indexPos;
    private ByteBuffer plain;

    ParquetFlatPageReader(Kind kind, int maxDef) {
        this(kind, maxDef, null, null);
    }

    /**
     * A reader of INT64 timestamps of {@code ticksPerSecond} ticks per second (1,000 for MILLIS,
     * 1,000,000 for MICROS, 10^9 for NANOS) into DateTime seconds ({@link
     * Kind#TIMESTAMP_TO_DATETIME}).
     */
    static ParquetFlatPageReader timestampToDateTime(int maxDef, long ticksPerSecond) {
        return new ParquetFlatPageReader(
                Kind.TIMESTAMP_TO_DATETIME, maxDef, null, null, ticksPerSecond);
    }

    /**
     * A reader of Enum names ({@link Kind#ENUM8} / {@link Kind#ENUM16}) into the codes of {@code
     * type}; {@code fallback} appends a value that names no element.
     */
    ParquetFlatPageReader(Kind kind, int maxDef, EnumType type, EnumFallback fallback) {
        this(kind, maxDef, type, fallback, 1);
    }

    private ParquetFlatPageReader(
            Kind kind, int maxDef, EnumType type, EnumFallback fallback, long ticksPerSecond) {
        if (ticksPerSecond < 1 || (ticksPerSecond != 1 && kind != Kind.TIMESTAMP_TO_DATETIME)) {
            throw new IllegalArgumentException(
                    ticksPerSecond + " ticks per second for a reader of " + kind);
        }
        this.ticksPerSecond = ticksPerSecond;
        boolean isEnum = kind == Kind.ENUM8 || kind == Kind.ENUM16;
        if (isEnum && (type == null || fallback == null)) {
            throw new IllegalArgumentException(
                    "an Enum reader needs the Enum type and a fallback for " + kind);
        }
        this.kind = kind;
        this.maxDef = maxDef;
        this.enumFallback = fallback;
        this.enumCodes = new HashMap<>();
        if (type != null) {
            for (String name : type.names()) {
                enumCodes.put(
                        ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8)), type.valueOf(name));
            }
        }
    }

    /**
     * Ends this reader's use of its page arrays (they go back to the thread's pool); after this, it
     * reads nothing more. Called when the object's reader closes.
     */
    void release() {
        if (buffers != null) {
            PageBuffers b = buffers;
            buffers = null;
            defs = null;
            indices = null;
            plain = null;
            pages = null;
            dictLongs = null;
            dictInts = null;
            dictDoubles = null;
            dictFloats = null;
            dictBytes = null;
            dictOffsets = null;
            dictCodes = null;
            b.release();
        }
    }

    /** Whether a column chunk written with these encodings can be read in bulk. */
    static boolean supports(Set<Encoding> encodings) {
        return SUPPORTED.containsAll(encodings);
    }

    /** Starts a column chunk. */
    void start(PageReader pageReader) throws IOException {
        if (buffers == null) {
            buffers = PageBuffers.acquire();
            defs = buffers.defs;
            indices = buffers.indices;
        }
        this.pages = pageReader;
        this.pageValues = 0;
        this.pagePos = 0;
        this.dictSize = -1;
        // the dictionary page is decompressed into the lent page buffer too: readDictionary copies
        // every entry out before the first data page reuses the buffer
        buffers.scratch.lend();
        try {
            DictionaryPage dp = pageReader.readDictionaryPage();
            if (dp != null) {
                readDictionary(dp);
            }
        } finally {
            buffers.scratch.takeBack();
        }
    }

    private void readDictionary(DictionaryPage dp) throws IOException {
        int n = dp.getDictionarySize();
        ByteBuffer b = dp.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        dictSize = n;
        switch (kind) {
            case INT32, INT32_TO_INT16, INT32_TO_INT8, DATE -> {
                dictInts = buffers.dictInts(n);
                b.asIntBuffer().get(dictInts, 0, n);
            }
            case INT64, TIMESTAMP_TO_DATETIME -> {
                dictLongs = buffers.dictLongs(n);
                b.asLongBuffer().get(dictLongs, 0, n);
            }
            case FLOAT -> {
                dictFloats = buffers.dictFloats(n);
                b.asFloatBuffer().get(dictFloats, 0, n);
            }
            case DOUBLE -> {
                dictDoubles = buffers.dictDoubles(n);
                b.asDoubleBuffer().get(dictDoubles, 0, n);
            }
            case BINARY, ENUM8, ENUM16 -> {
                dictOffsets = buffers.dictOffsets(n + 1);
                dictOffsets[0] = 0;
                dictBytes = buffers.dictBytes(Math.max(0, b.remaining() - 4 * n));
                int pos = 0;
                for (int i = 0; i < n; i++) {
                    int len = b.getInt();
                    b.get(dictBytes, pos, len);
                    pos += len;
                    dictOffsets[i + 1] = pos;
                }
                if (kind != Kind.BINARY) {
                    dictCodes = buffers.dictCodes(n);
                    for (int i = 0; i < n; i++) {
                        dictCodes[i] = codeOf(dictBytes, dictOffsets[i], dictOffsets[i + 1]);
                    }
                }
            }
        }
    }

    private int codeOf(byte[] bytes, int from, int to) {
        Integer code = enumCodes.get(ByteBuffer.wrap(bytes, from, to - from));
        return code == null ? NO_CODE : code;
    }

    private void nextPage() throws IOException {
        DataPage page;
        buffers.scratch.lend();
        try {
            page = pages.readPage();
        } finally {
            buffers.scratch.takeBack();
        }
        if (page == null) {
            throw new IllegalStateException("the column chunk has fewer values than announced");
        }
        int n = page.getValueCount();
        if (maxDef > 0 && defs.length < n + 8) {
            // (no definition levels without a nullable column: every value is defined)
            defs = new int[n + 8];
            buffers.defs = defs;
        }
        ByteBuffer values;
        Encoding encoding;
        if (page instanceof DataPageV1 v1) {
            ByteBuffer all = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            if (maxDef > 0) {
                if (v1.getDlEncoding() == Encoding.RLE) {
                    int len = all.getInt();
                    ByteBuffer levels = all.slice().order(ByteOrder.LITTLE_ENDIAN);
                    levels.limit(len);
                    decodeHybrid(levels, 1, defs, n);
                    all.position(all.position() + len);
                } else if (v1.getDlEncoding() == Encoding.BIT_PACKED) {
                    // deprecated: big-endian bit packing, no length prefix, 1 bit per level
                    int len = (n + 7) / 8;
                    byte[] packed = new byte[len + 1];
                    all.get(packed, 0, len);
                    BytePacker be = Packer.BIG_ENDIAN.newBytePacker(1);
                    for (int i = 0; i < n; i += 8) {
                        be.unpack8Values(packed, i / 8, defs, i);
                    }
                } else {
                    throw new IllegalStateException(
                            "definition levels encoded " + v1.getDlEncoding());
                }
            }
            values = all.slice().order(ByteOrder.LITTLE_ENDIAN);
            encoding = v1.getValueEncoding();
        } else {
            DataPageV2 v2 = (DataPageV2) page;
            if (maxDef > 0) {
                BytesInput dl = v2.getDefinitionLevels();
                decodeHybrid(dl.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN), 1, defs, n);
            }
            values = v2.getData().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            encoding = v2.getDataEncoding();
        }
        int nonNull = n;
        if (maxDef > 0) {
            nonNull = 0;
            for (int i = 0; i < n; i++) {
                nonNull += defs[i] == maxDef ? 1 : 0;
            }
        }
        pageAllDefined = nonNull == n;
        if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
            if (dictSize < 0) {
                throw new IllegalStateException("a dictionary-encoded page without a dictionary");
            }
            int bitWidth = values.get() & 0xFF;
            if (indices.length < nonNull + 8) {
                indices = new int[nonNull + 8];
                buffers.indices = indices;
            }
            decodeHybrid(values, bitWidth, indices, nonNull);
            for (int i = 0; i < nonNull; i++) {
                if (indices[i] < 0 || indices[i] >= dictSize) {
                    throw new IllegalStateException(
                            "dictionary index " + indices[i] + " of " + dictSize + " entries");
                }
            }
            dictEncoded = true;
            indexPos = 0;
        } else if (encoding == Encoding.PLAIN) {
            dictEncoded = false;
            plain = values;
        } else {
            throw new IllegalStateException("values encoded " + encoding);
        }
        pageValues = n;
        pagePos = 0;
    }

    /** Appends the next {@code rows} values (one per row) to the column. */
    void read(int rows, Column values, NullableColumn nullable, Runnable appendDefault) {
        int done = 0;
        try {
            while (done < rows) {
                if (pagePos >= pageValues) {
                    nextPage();
                    continue;
                }
                int n = Math.min(rows - done, pageValues - pagePos);
                if (pageAllDefined) {
                    appendDefined(values, nullable, n);
                } else {
                    appendWithNulls(values, nullable, appendDefault, pagePos + n);
                }
                pagePos += n;
                done += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Appends the page's values up to {@code to} (positions in {@link #defs}, from {@link
     * #pagePos}): each run of defined values in bulk, each undefined one as a NULL (or the target's
     * default where the target is not Nullable).
     */
    private void appendWithNulls(
            Column values, NullableColumn nullable, Runnable appendDefault, int to) {
        int[] d = defs;
        int max = maxDef;
        int i = pagePos;
        while (i < to) {
            int runEnd = i;
            while (runEnd < to && d[runEnd] == max) {
                runEnd++;
            }
            if (runEnd > i) {
                appendDefined(values, nullable, runEnd - i);
                i = runEnd;
            } else {
                if (nullable != null) {
                    nullable.addNull();
                } else {
                    appendDefault.run();
                }
                i++;
            }
        }
    }

    /** Appends the next {@code n} values, none of them NULL, and marks them present. */
    private void appendDefined(Column values, NullableColumn nullable, int n) {
        appendRun(values, n);
        if (nullable != null) {
            nullable.addNotNull(n);
        }
    }

    /** Appends the next {@code n} values, none of them NULL. */
    private void appendRun(Column c, int n) {
        switch (kind) {
            case INT32 -> appendInts((IntColumn) c, n);
            case INT64 -> appendLongs((LongColumn) c, n);
            case FLOAT -> appendFloats((FloatColumn) c, n);
            case DOUBLE -> appendDoubles((DoubleColumn) c, n);
            case BINARY -> appendStrings((StringColumn) c, n);
            case INT32_TO_INT16 -> appendShorts((ShortColumn) c, n);
            case INT32_TO_INT8 -> appendBytes((ByteColumn) c, n);
            case DATE -> appendDates((ShortColumn) c, n);
            case TIMESTAMP_TO_DATETIME -> appendDateTimes((IntColumn) c, n);
            case ENUM8, ENUM16 -> {
                for (int i = 0; i < n; i++) {
                    appendEnum(c);
                }
            }
        }
    }

    // The four physical number types: the next n values of the page, looked up in the
    // dictionary or copied from PLAIN, written to 'into' from 'at'. One loop per primitive type
    // (no boxing, no per-value call through an interface).

    private void readInts(int[] into, int at, int n) {
        if (dictEncoded) {
            gather(dictInts, into, at, n);
        } else {
            plain.asIntBuffer().get(into, at, n);
            skipPlain(Integer.BYTES * n);
        }
    }

    private void readLongs(long[] into, int at, int n) {
        if (dictEncoded) {
            gather(dictLongs, into, at, n);
        } else {
            plain.asLongBuffer().get(into, at, n);
            skipPlain(Long.BYTES * n);
        }
    }

    private void readFloats(float[] into, int at, int n) {
        if (dictEncoded) {
            gather(dictFloats, into, at, n);
        } else {
            plain.asFloatBuffer().get(into, at, n);
            skipPlain(Float.BYTES * n);
        }
    }

    private void readDoubles(double[] into, int at, int n) {
        if (dictEncoded) {
            gather(dictDoubles, into, at, n);
        } else {
            plain.asDoubleBuffer().get(into, at, n);
            skipPlain(Double.BYTES * n);
        }
    }

    private void gather(int[] dict, int[] into, int at, int n) {
        int[] idx = indices;
        int p = takeIndices(n);
        for (int i = 0; i < n; i++) {
            into[at + i] = dict[idx[p + i]];
        }
    }

    private void gather(long[] dict, long[] into, int at, int n) {
        int[] idx = indices;
        int p = takeIndices(n);
        for (int i = 0; i < n; i++) {
            into[at + i] = dict[idx[p + i]];
        }
    }

    private void gather(float[] dict, float[] into, int at, int n) {
        int[] idx = indices;
        int p = takeIndices(n);
        for (int i = 0; i < n; i++) {
            into[at + i] = dict[idx[p + i]];
        }
    }

    private void gather(double[] dict, double[] into, int at, int n) {
        int[] idx = indices;
        int p = takeIndices(n);
        for (int i = 0; i < n; i++) {
            into[at + i] = dict[idx[p + i]];
        }
    }

    /** The position of the next {@code n} dictionary indices in {@link #indices}, consumed. */
    private int takeIndices(int n) {
        int p = indexPos;
        indexPos = p + n;
        return p;
    }

    private void skipPlain(int bytes) {
        plain.position(plain.position() + bytes);
    }

    /** The next {@code n} INT32 values in a scratch array (valid until the next run). */
    private int[] runOfInts(int n) {
        int[] v = buffers.runInts(n);
        readInts(v, 0, n);
        return v;
    }

    /** The next {@code n} INT64 values in a scratch array (valid until the next run). */
    private long[] runOfLongs(int n) {
        long[] v = buffers.runLongs(n);
        readLongs(v, 0, n);
        return v;
    }

    private void appendInts(IntColumn c, int n) {
        readInts(c.reserve(n), c.size(), n);
        c.setSize(c.size() + n);
    }

    private void appendLongs(LongColumn c, int n) {
        readLongs(c.reserve(n), c.size(), n);
        c.setSize(c.size() + n);
    }

    private void appendFloats(FloatColumn c, int n) {
        readFloats(c.reserve(n), c.size(), n);
        c.setSize(c.size() + n);
    }

    private void appendDoubles(DoubleColumn c, int n) {
        readDoubles(c.reserve(n), c.size(), n);
        c.setSize(c.size() + n);
    }

    /** INT32 values narrowed to 16 bits. */
    private void appendShorts(ShortColumn c, int n) {
        int[] v = runOfInts(n);
        int s = c.size();
        short[] d = c.reserve(n);
        for (int i = 0; i < n; i++) {
            d[s + i] = (short) v[i];
        }
        c.setSize(s + n);
    }

    /** INT32 values narrowed to 8 bits. */
    private void appendBytes(ByteColumn c, int n) {
        int[] v = runOfInts(n);
        int s = c.size();
        byte[] d = c.reserve(n);
        for (int i = 0; i < n; i++) {
            d[s + i] = (byte) v[i];
        }
        c.setSize(s + n);
    }

    private void appendDates(ShortColumn c, int n) {
        int[] v = runOfInts(n);
        int s = c.size();
        short[] d = c.reserve(n);
        for (int i = 0; i < n; i++) {
            d[s + i] = date(v[i], s + i);
        }
        c.setSize(s + n);
    }

    private void appendDateTimes(IntColumn c, int n) {
        long[] v = runOfLongs(n);
        int s = c.size();
        int[] d = c.reserve(n);
        for (int i = 0; i < n; i++) {
            d[s + i] = dateTime(v[i], s + i);
        }
        c.setSize(s + n);
    }

    /** {@code days} as a Date, or a {@link ValueOutOfRange} at column position {@code index}. */
    private static short date(int days, int index) {
        if (!TemporalRanges.isDate(days)) {
            throw new ValueOutOfRange(index, TemporalRanges.dateMessage(days));
        }
        return (short) days;
    }

    /**
     * {@code ticks} floored to DateTime seconds, or a {@link ValueOutOfRange} at column position
     * {@code index}.
     */
    private int dateTime(long ticks, int index) {
        long seconds = Math.floorDiv(ticks, ticksPerSecond);
        if (!TemporalRanges.isDateTime(seconds)) {
            throw new ValueOutOfRange(index, TemporalRanges.dateTimeMessage(seconds));
        }
        return (int) seconds;
    }

    private void appendStrings(StringColumn c, int n) {
        if (dictEncoded) {
            appendDictionaryStrings(c, n);
        } else if (plain.hasArray()) {
            appendPlainStrings(c, n);
        } else {
            for (int i = 0; i < n; i++) {
                int len = plain.getInt();
                byte[] buf = c.reserveBytes(len);
                plain.get(buf, c.totalBytes(), len);
                c.commitRow(len);
            }
        }
    }

    private void appendDictionaryStrings(StringColumn c, int n) {
        int[] idx = indices;
        int p = takeIndices(n);
        int[] dOff = dictOffsets;
        long total = 0;
        for (int i = 0; i < n; i++) {
            int k = idx[p + i];
            total += dOff[k + 1] - dOff[k];
        }
        int s = c.size();
        int pos = c.totalBytes();
        byte[] bytes = c.reserveBytes(Math.toIntExact(total));
        int[] offsets = c.reserveRows(n);
        byte[] dict = dictBytes;
        for (int i = 0; i < n; i++) {
            int k = idx[p + i];
            int from = dOff[k];
            int len = dOff[k + 1] - from;
            System.arraycopy(dict, from, bytes, pos, len);
            pos += len;
            offsets[s + i] = pos;
        }
        c.setSize(s + n);
    }

    /** PLAIN BYTE_ARRAY: each value is a 4-byte little-endian length and the bytes. */
    private void appendPlainStrings(StringColumn c, int n) {
        ByteBuffer b = plain;
        byte[] page = b.array();
        int base = b.arrayOffset();
        int start = b.position();
        int limit = b.limit();
        int at = start;
        for (int i = 0; i < n; i++) {
            int len = b.getInt(at);
            if (len < 0 || len > limit - at - 4) {
                throw new IllegalStateException(
                        "a PLAIN string of "
                                + len
                                + " bytes at page offset "
                                + at
                                + " runs past the page end ("
                                + limit
                                + ")");
            }
            at += 4 + len;
        }
        int s = c.size();
        int pos = c.totalBytes();
        byte[] bytes = c.reserveBytes(at - start - 4 * n);
        int[] offsets = c.reserveRows(n);
        at = start;
        for (int i = 0; i < n; i++) {
            int len = b.getInt(at);
            System.arraycopy(page, base + at + 4, bytes, pos, len);
            pos += len;
            offsets[s + i] = pos;
            at += 4 + len;
        }
        b.position(at);
        c.setSize(s + n);
    }

    /** The next value, an Enum name, as its code (or through the fallback if it names none). */
    private void appendEnum(Column c) {
        byte[] name;
        int off;
        int len;
        int code;
        if (dictEncoded) {
            int k = indices[indexPos++];
            name = dictBytes;
            off = dictOffsets[k];
            len = dictOffsets[k + 1] - off;
            code = dictCodes[k];
        } else {
            len = plain.getInt();
            name = new byte[len];
            plain.get(name);
            off = 0;
            code = codeOf(name, 0, len);
        }
        if (code == NO_CODE) {
            enumFallback.append(c, name, off, len);
        } else if (kind == Kind.ENUM8) {
            ((ByteColumn) c).add((byte) code);
        } else {
            ((ShortColumn) c).add((short) code);
        }
    }

    /**
     * Decodes {@code count} values of the RLE / bit-packed hybrid encoding into {@code out} (which
     * has room for 8 more: bit-packed groups are unpacked whole).
     */
    static void decodeHybrid(ByteBuffer in, int bitWidth, int[] out, int count) {
        if (bitWidth == 0) {
            java.util.Arrays.fill(out, 0, count, 0);
            return;
        }
        if (bitWidth > 32) {
            throw new IllegalStateException("bit width " + bitWidth);
        }
        BytePacker packer = Packer.LITTLE_ENDIAN.newBytePacker(bitWidth);
        int bytesPerValue = (bitWidth + 7) / 8;
        int n = 0;
        while (n < count) {
            int header = readUnsignedVarInt(in);
            if ((header & 1) == 0) {
                int run = header >>> 1;
                int v = 0;
                for (int i = 0; i < bytesPerValue; i++) {
                    v |= (in.get() & 0xFF) << (8 * i);
                }
                int end = Math.min(count, n + run);
                java.util.Arrays.fill(out, n, end, v);
                n = end;
            } else {
                int groups = header >>> 1;
                if (in.hasArray() && in.remaining() >= groups * bitWidth) {
                    // the byte[] unpacker: no ByteBuffer bounds check per byte
                    byte[] a = in.array();
                    int at = in.arrayOffset() + in.position();
                    int g = 0;
                    for (; g < groups && n < count; g++, n += 8) {
                        packer.unpack8Values(a, at + g * bitWidth, out, n);
                    }
                    in.position(in.position() + groups * bitWidth);
                    continue;
                }
                for (int g = 0; g < groups; g++) {
                    if (n < count) {
                        packer.unpack8Values(in, in.position(), out, n);
                        n += 8;
                    }
                    in.position(in.position() + bitWidth);
                }
            }
        }
    }

    private static int readUnsignedVarInt(ByteBuffer in) {
        int value = 0;
        int shift = 0;
        int b;
        do {
            b = in.get() & 0xFF;
            value |= (b & 0x7F) << shift;
            shift += 7;
        } while ((b & 0x80) != 0);
        return value;
    }
}
