package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.DeserializationState;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.types.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads some columns of a part sequentially in blocks of at most {@code maxRows} rows, reading and
 * decompressing one compressed block per stream at a time from the store (ranged GETs on S3), so a
 * merge holds only one compressed block per stream and one block of rows per source part in memory,
 * whatever the part sizes. Every compressed block's checksum is verified as it is read.
 */
public final class PartBlockReader implements AutoCloseable {
    private final List<StreamingCompressedSource> open = new ArrayList<>();
    private final List<String> names;
    private final List<DataType> types;
    private final List<BulkSerialization> serializations = new ArrayList<>();
    private final List<Map<String, ByteSource>> sources = new ArrayList<>();
    private final List<DeserializationState> states = new ArrayList<>();
    private final long totalRows;
    private final int maxRows;
    private final long maxBytes;
    private double bytesPerRow;
    private Block previous;
    private long rowsRead;

    PartBlockReader(PartReader part, List<String> columns, int maxRows, long maxBytes)
            throws IOException {
        if (maxRows <= 0) {
            throw new IllegalArgumentException("maxRows must be positive, got " + maxRows);
        }
        this.maxRows = maxRows;
        this.maxBytes = maxBytes;
        this.totalRows = part.rows();
        this.names = List.copyOf(columns);
        List<DataType> t = new ArrayList<>();
        for (String col : columns) {
            int i = part.columnNames().indexOf(col);
            if (i < 0) {
                throw new IllegalArgumentException(
                        "part " + part.describe("") + " has no column " + col);
            }
            DataType type = part.columnTypes().get(i);
            t.add(type);
            BulkSerialization s = part.serialization(col, type);
            Map<String, ByteSource> streams = new HashMap<>();
            for (String stream : s.streams()) {
                String f = PartWriter.fileName(stream) + ".bin";
                StreamingCompressedSource src =
                        new StreamingCompressedSource(
                                part.describe(f),
                                part.store()
                                        .openRandomAccess(
                                                PartStorage.fileKey(part.directory(), f),
                                                part.fileSize(f)),
                                part.store().readAheadBytes());
                open.add(src);
                streams.put(stream, src);
            }
            DeserializationState state = new DeserializationState();
            s.readPrefix(streams::get, state);
            serializations.add(s);
            sources.add(streams);
            states.add(state);
        }
        this.types = List.copyOf(t);
    }

    public List<String> names() {
        return names;
    }

    public List<DataType> types() {
        return types;
    }

    /** Whether rows remain. */
    public boolean hasNext() {
        return rowsRead < totalRows;
    }

    /**
     * The next block: at most {@code maxRows} rows, and fewer when the rows read so far suggest the
     * block would exceed {@code maxBytes} (ClickHouse's {@code merge_max_block_size_bytes}), so
     * wide rows do not blow up a merge's memory.
     */
    public Block next() {
        int rows = maxRows;
        if (maxBytes > 0 && bytesPerRow > 0) {
            rows = (int) Math.max(1, Math.min(maxRows, maxBytes / bytesPerRow));
        }
        int n = (int) Math.min(rows, totalRows - rowsRead);
        List<Column> cols = new ArrayList<>(names.size());
        for (int c = 0; c < names.size(); c++) {
            // the previous block's columns size the new ones (string bytes included)
            Column col =
                    previous == null
                            ? Columns.create(types.get(c), n)
                            : previous.column(c).newEmpty(n);
            serializations.get(c).deserialize(col, n, sources.get(c)::get, states.get(c));
            cols.add(col);
        }
        rowsRead += n;
        Block b = new Block(names, types, cols);
        bytesPerRow = (double) b.byteSize() / n;
        previous = b;
        return b;
    }

    /** Closes the stream files. */
    @Override
    public void close() throws IOException {
        for (StreamingCompressedSource s : open) {
            s.close();
        }
    }
}
