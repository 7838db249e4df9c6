package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.List;

/**
 * LowCardinality(T): a {@code .dict} stream (key version, and ClickHouse's shared dictionaries when
 * present) and an index stream. The writer uses the layout of the Native format: every granule
 * carries its own keys ({@code HasAdditionalKeys}) followed by its indexes, so no global dictionary
 * is needed and any number of distinct values works. Keys start with the default value (for
 * Nullable: a NULL placeholder, then the default), like ClickHouse's {@code ColumnUnique}. The
 * reader understands ClickHouse's full protocol (global dictionaries, updates, additional keys).
 */
final class LowCardinalitySerialization extends BulkSerialization {
    private static final long KEY_VERSION_SHARED_DICTIONARIES = 1;
    private static final long NEED_GLOBAL_DICTIONARY = 0x100;
    private static final long HAS_ADDITIONAL_KEYS = 0x200;
    private static final long NEED_UPDATE_DICTIONARY = 0x400;

    private final String dictStream;
    private final String indexStream;
    private final boolean nullable;
    private final DataType keyType;
    private final BulkSerialization keySerialization;
    private final KeyDictionary dictionary = new KeyDictionary();
    private final ByteArraySink scratch = new ByteArraySink(64);
    private int[] indexes = new int[1024];
    private byte[] indexBytes = new byte[4096];

    /** Whether each granule's flags also say NeedUpdateDictionary (a set index's granules). */
    private final boolean flagDictionaryUpdate;

    LowCardinalitySerialization(LowCardinalityType type, String base) {
        this(type, base, false);
    }

    /**
     * As ClickHouse serializes a LowCardinality column outside a part's column streams (a set index
     * granule, {@code low_cardinality_max_dictionary_size = 0}): the same keys and indexes, flagged
     * {@code NeedUpdateDictionary} when {@code flagDictionaryUpdate}.
     */
    LowCardinalitySerialization(
            LowCardinalityType type, String base, boolean flagDictionaryUpdate) {
        this.flagDictionaryUpdate = flagDictionaryUpdate;
        this.dictStream = base + ".dict";
        this.indexStream = base;
        this.nullable = type.nested() instanceof NullableType;
        this.keyType = nullable ? ((NullableType) type.nested()).nested() : type.nested();
        this.keySerialization = BulkSerialization.create(keyType, "keys", 0);
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(dictStream);
        out.add(indexStream);
    }

    @Override
    public void writePrefix(StreamSinks sinks) {
        sinks.sink(dictStream).writeLongLE(KEY_VERSION_SHARED_DICTIONARIES);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        int rows = to - from;
        if (rows == 0) {
            return;
        }
        Column values = nullable ? ((NullableColumn) column).nested() : column;
        dictionary.clear();
        scratch.reset();
        ValueSerde.writeDefault(keyType, scratch);
        if (nullable) {
            dictionary.addUnique(scratch.buffer(), 0, scratch.size());
        }
        dictionary.indexOf(scratch.buffer(), 0, scratch.size());
        if (indexes.length < rows) {
            indexes = new int[Math.max(rows, indexes.length * 2)];
        }
        indexRows(column, values, from, rows);
        int keys = dictionary.size();
        int widthCode = keys <= 0x100 ? 0 : keys <= 0x10000 ? 1 : 2;
        int width = 1 << widthCode;
        ByteSink out = sinks.sink(indexStream);
        out.writeLongLE(
                HAS_ADDITIONAL_KEYS
                        | (flagDictionaryUpdate ? NEED_UPDATE_DICTIONARY : 0)
                        | widthCode);
        out.writeLongLE(keys);
        // single-value binary keys of String/FixedString/numbers equal their bulk (classic) form
        out.write(dictionary.blob().buffer(), 0, dictionary.blob().size());
        out.writeLongLE(rows);
        if (indexBytes.length < rows * width) {
            indexBytes = new byte[rows * width];
        }
        packIndexes(rows, width);
        out.write(indexBytes, 0, rows * width);
    }

    /** The dictionary index of each row of {@code [from, from + rows)} into {@link #indexes}. */
    private void indexRows(Column column, Column values, int from, int rows) {
        for (int i = 0; i < rows; i++) {
            int row = from + i;
            if (nullable && ((NullableColumn) column).isNull(row)) {
                indexes[i] = 0;
                continue;
            }
            scratch.reset();
            ValueSerde.write(keyType, values, row, scratch);
            indexes[i] = dictionary.indexOf(scratch.buffer(), 0, scratch.size());
        }
    }

    /** The first {@code rows} indexes as little-endian integers of {@code width} bytes. */
    private void packIndexes(int rows, int width) {
        for (int i = 0, p = 0; i < rows; i++) {
            int v = indexes[i];
            for (int b = 0; b < width; b++) {
                indexBytes[p++] = (byte) (v >>> (8 * b));
            }
        }
    }

    /** Reader state of one LowCardinality stream. */
    private static final class ReadState {
        Column global;
        Column additional;
        long pendingRows;
        int width;
        boolean useGlobal;
    }

    @Override
    public void readPrefix(StreamSources sources, DeserializationState state) {
        long version = sources.source(dictStream).readLongLE();
        if (version != KEY_VERSION_SHARED_DICTIONARIES) {
            throw new IllegalArgumentException(
                    "unsupported LowCardinality key version " + version + " in " + dictStream);
        }
        state.put(indexStream, new ReadState());
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        ReadState st = state.get(indexStream);
        ByteSource in = sources.source(indexStream);
        while (rows > 0) {
            if (st.pendingRows == 0) {
                long type = in.readLongLE();
                int code = (int) (type & 0xFF);
                if (code > 3) {
                    throw new IllegalArgumentException(
                            "bad LowCardinality index type " + type + " in " + indexStream);
                }
                st.width = 1 << code;
                st.useGlobal = (type & NEED_GLOBAL_DICTIONARY) != 0;
                if (st.useGlobal && (type & NEED_UPDATE_DICTIONARY) != 0) {
                    ByteSource dict = sources.source(dictStream);
                    st.global = readKeys(dict, dict.readLongLE());
                }
                if (st.useGlobal && st.global == null) {
                    throw new IllegalArgumentException(
                            "LowCardinality granule needs a global dictionary that "
                                    + dictStream
                                    + " never provided");
                }
                st.additional =
                        (type & HAS_ADDITIONAL_KEYS) != 0 ? readKeys(in, in.readLongLE()) : null;
                st.pendingRows = in.readLongLE();
            }
            int take = (int) Math.min(rows, st.pendingRows);
            for (int i = 0; i < take; i++) {
                long idx = readIndex(in, st.width);
                appendKey(column, st, idx);
            }
            st.pendingRows -= take;
            rows -= take;
        }
    }

    private Column readKeys(ByteSource in, long n) {
        if (n < 0 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(
                    "bad LowCardinality key count " + n + " in " + indexStream);
        }
        Column keys = Columns.create(keyType, (int) n);
        keySerialization.deserialize(keys, (int) n, name -> in, new DeserializationState());
        return keys;
    }

    private static long readIndex(ByteSource in, int width) {
        return switch (width) {
            case 1 -> in.readByte();
            case 2 -> in.readShortLE();
            case 4 -> in.readIntLE() & 0xFFFFFFFFL;
            default -> in.readLongLE();
        };
    }

    private void appendKey(Column column, ReadState st, long idx) {
        Column keys;
        long k = idx;
        if (st.useGlobal && idx < st.global.size()) {
            keys = st.global;
        } else {
            keys = st.additional;
            k = st.useGlobal ? idx - st.global.size() : idx;
        }
        if (keys == null || k >= keys.size()) {
            throw new IllegalArgumentException(
                    "LowCardinality index " + idx + " out of the dictionary in " + indexStream);
        }
        boolean isNull = nullable && idx == 0;
        if (nullable) {
            NullableColumn nc = (NullableColumn) column;
            if (isNull) {
                nc.addNull();
            } else {
                nc.nested().appendFrom(keys, (int) k);
                nc.addNotNull();
            }
        } else {
            column.appendFrom(keys, (int) k);
        }
    }
}
