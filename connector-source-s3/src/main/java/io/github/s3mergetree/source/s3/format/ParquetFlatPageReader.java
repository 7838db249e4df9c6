package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
 * unpacked into int arrays (RLE / bit-packed hybrid), PLAIN values are read from the page buffer,
 * and each value is appended to the target column in a tight loop.
 *
 * <p>Handles PLAIN and dictionary (PLAIN_DICTIONARY / RLE_DICTIONARY) encoded INT32, INT64, FLOAT,
 * DOUBLE and BYTE_ARRAY values in v1 and v2 data pages; {@link #supports} tells whether a column
 * chunk's encodings allow it, otherwise the caller uses the general reader.
 */
final class ParquetFlatPageReader {
    /** The physical representation appended. */
    enum Kind {
        INT32,
        INT64,
        FLOAT,
        DOUBLE,
        BINARY
    }

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

    private PageReader pages;
    // dictionary of the current column chunk
    private long[] dictLongs;
    private int[] dictInts;
    private double[] dictDoubles;
    private float[] dictFloats;
    private byte[] dictBytes;
    private int[] dictOffsets; // dictOffsets[i]..dictOffsets[i+1] in dictBytes
    private int dictSize;
    // the current page
    private int[] defs = new int[0];
    private int pageValues;
    private int pagePos;
    private boolean dictEncoded;
    private int[] indices = new int[0];
    private int indexPos;
    private ByteBuffer plain;

    ParquetFlatPageReader(Kind kind, int maxDef) {
        this.kind = kind;
        this.maxDef = maxDef;
    }

    /** Whether a column chunk written with these encodings can be read in bulk. */
    static boolean supports(Set<Encoding> encodings) {
        return SUPPORTED.containsAll(encodings);
    }

    /** Starts a column chunk. */
    void start(PageReader pageReader) throws IOException {
        this.pages = pageReader;
        this.pageValues = 0;
        this.pagePos = 0;
        this.dictSize = -1;
        DictionaryPage dp = pageReader.readDictionaryPage();
        if (dp != null) {
            readDictionary(dp);
        }
    }

    private void readDictionary(DictionaryPage dp) throws IOException {
        int n = dp.getDictionarySize();
        ByteBuffer b = dp.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        dictSize = n;
        switch (kind) {
            case INT32 -> {
                dictInts = new int[n];
                for (int i = 0; i < n; i++) {
                    dictInts[i] = b.getInt();
                }
            }
            case INT64 -> {
                dictLongs = new long[n];
                for (int i = 0; i < n; i++) {
                    dictLongs[i] = b.getLong();
                }
            }
            case FLOAT -> {
                dictFloats = new float[n];
                for (int i = 0; i < n; i++) {
                    dictFloats[i] = b.getFloat();
                }
            }
            case DOUBLE -> {
                dictDoubles = new double[n];
                for (int i = 0; i < n; i++) {
                    dictDoubles[i] = b.getDouble();
                }
            }
            case BINARY -> {
                dictOffsets = new int[n + 1];
                dictBytes = new byte[Math.max(0, b.remaining() - 4 * n)];
                int pos = 0;
                for (int i = 0; i < n; i++) {
                    int len = b.getInt();
                    b.get(dictBytes, pos, len);
                    pos += len;
                    dictOffsets[i + 1] = pos;
                }
            }
        }
    }

    private void nextPage() throws IOException {
        DataPage page = pages.readPage();
        if (page == null) {
            throw new IllegalStateException("the column chunk has fewer values than announced");
        }
        int n = page.getValueCount();
        if (defs.length < n + 8) {
            defs = new int[n + 8];
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
        if (maxDef == 0) {
            java.util.Arrays.fill(defs, 0, n, 0);
        }
        int nonNull = 0;
        for (int i = 0; i < n; i++) {
            nonNull += defs[i] == maxDef ? 1 : 0;
        }
        if (encoding == Encoding.PLAIN_DICTIONARY || encoding == Encoding.RLE_DICTIONARY) {
            if (dictSize < 0) {
                throw new IllegalStateException("a dictionary-encoded page without a dictionary");
            }
            int bitWidth = values.get() & 0xFF;
            if (indices.length < nonNull + 8) {
                indices = new int[nonNull + 8];
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
                for (int i = pagePos; i < pagePos + n; i++) {
                    if (defs[i] == maxDef) {
                        appendValue(values);
                        if (nullable != null) {
                            nullable.addNotNull();
                        }
                    } else if (nullable != null) {
                        nullable.addNull();
                    } else {
                        appendDefault.run();
                    }
                }
                pagePos += n;
                done += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void appendValue(Column c) {
        if (dictEncoded) {
            int k = indices[indexPos++];
            switch (kind) {
                case INT32 -> ((IntColumn) c).add(dictInts[k]);
                case INT64 -> ((LongColumn) c).add(dictLongs[k]);
                case FLOAT -> ((FloatColumn) c).add(dictFloats[k]);
                case DOUBLE -> ((DoubleColumn) c).add(dictDoubles[k]);
                case BINARY ->
                        ((StringColumn) c)
                                .add(
                                        dictBytes,
                                        dictOffsets[k],
                                        dictOffsets[k + 1] - dictOffsets[k]);
            }
            return;
        }
        switch (kind) {
            case INT32 -> ((IntColumn) c).add(plain.getInt());
            case INT64 -> ((LongColumn) c).add(plain.getLong());
            case FLOAT -> ((FloatColumn) c).add(plain.getFloat());
            case DOUBLE -> ((DoubleColumn) c).add(plain.getDouble());
            case BINARY -> {
                int len = plain.getInt();
                StringColumn sc = (StringColumn) c;
                if (plain.hasArray()) {
                    sc.add(plain.array(), plain.arrayOffset() + plain.position(), len);
                    plain.position(plain.position() + len);
                } else {
                    byte[] buf = sc.reserveBytes(len);
                    plain.get(buf, sc.totalBytes(), len);
                    sc.commitRow(len);
                }
            }
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
