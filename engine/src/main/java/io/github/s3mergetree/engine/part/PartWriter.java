package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.FloatingPoint;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.projection.ProjectionStateType;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.serde.StreamNames;
import io.github.s3mergetree.engine.serde.SubstreamTypes;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one Wide MergeTree part, byte-compatible with ClickHouse, from a block that is already
 * sorted by the table's sorting key and holds rows of a single partition (ClickHouse's {@code
 * MergedBlockOutputStream} + {@code MergeTreeDataPartWriterWide}).
 *
 * <p>Layout: per column stream a {@code .bin} of compressed blocks and a marks file ({@code .mrk2}
 * adaptive with a final mark, or {@code .mrk} fixed granules when {@code index_granularity_bytes =
 * 0}), {@code primary.idx}, {@code partition.dat} + {@code minmax_*.idx} when partitioned, {@code
 * count.txt}, {@code columns.txt}, {@code default_compression_codec.txt}, {@code
 * metadata_version.txt} and {@code checksums.txt} (version 4). Strings use the classic layout and
 * no {@code serialization.json} is written, so every ClickHouse since 19.11 (18.16 for {@code
 * .mrk}) reads the part.
 *
 * <p>The part is written into the directory given — a key prefix of a {@link TableStore}: a
 * temporary {@code tmp_*} one for inserts (see {@link TemporaryPart}), the final name for merges.
 * {@code checksums.txt}, which makes a part visible to ClickHouse, is written by {@link
 * #write(Input, TableStore, String)} but not by {@link Output#finish()}: a merge publishes it only
 * once its commit won ({@link #writeChecksums}).
 */
public final class PartWriter {
    /** ClickHouse's {@code max_file_name_length}: longer stream names are replaced by a hash. */
    static final int MAX_FILE_NAME_LENGTH = 127;

    private final PartWriterOptions options;

    public PartWriter(PartWriterOptions options) {
        this.options = options;
    }

    /** The options parts are written with (granularity, codecs, skip indexes). */
    public PartWriterOptions options() {
        return options;
    }

    /**
     * What to write.
     *
     * @param ttlInfos the part's TTL times ({@code ttl.txt}), or null for a table without TTL
     */
    public record Input(
            Block block,
            Block primaryKey,
            PartitionData partition,
            Map<String, CompressionCodec> columnCodecs,
            TtlInfos ttlInfos) {

        /** A part of a table without TTL. */
        public Input(
                Block block,
                Block primaryKey,
                PartitionData partition,
                Map<String, CompressionCodec> columnCodecs) {
            this(block, primaryKey, partition, columnCodecs, null);
        }
    }

    /**
     * Writes a whole part from one block into {@code dir} of {@code store} (which must hold no
     * keys), {@code checksums.txt} included.
     *
     * @return the part's checksums and statistics
     */
    public WrittenPartFiles write(Input input, TableStore store, String dir) throws IOException {
        Block block = input.block();
        if (block.rows() == 0) {
            throw new IllegalArgumentException("cannot write a part of 0 rows");
        }
        try (Output out =
                open(
                        store,
                        dir,
                        block.names(),
                        block.types(),
                        input.primaryKey().names(),
                        input.primaryKey().types(),
                        input.partition(),
                        input.columnCodecs())) {
            out.write(block, input.primaryKey());
            out.setTtlInfos(input.ttlInfos());
            WrittenPartFiles files = out.finish();
            writeChecksums(store, dir, files);
            return files;
        }
    }

    /** Writes the part's {@code checksums.txt}: the last file, the one that makes it a part. */
    public void writeChecksums(TableStore store, String dir, WrittenPartFiles files)
            throws IOException {
        store.write(
                PartStorage.fileKey(dir, PartFiles.CHECKSUMS),
                files.checksums().serialize(),
                options.fsync());
    }

    /**
     * Starts writing a part into {@code dir} of {@code store} (which must hold no keys) from blocks
     * that arrive one after another, already in sorting-key order (a merge's output). Memory stays
     * bounded by one block plus the compression buffers (and, on S3, one upload part buffer per
     * column stream).
     */
    public Output open(
            TableStore store,
            String dir,
            List<String> names,
            List<DataType> types,
            List<String> primaryKeyNames,
            List<DataType> primaryKeyTypes,
            PartitionData partition,
            Map<String, CompressionCodec> columnCodecs)
            throws IOException {
        return new Output(
                store,
                dir,
                names,
                types,
                primaryKeyNames,
                primaryKeyTypes,
                partition,
                columnCodecs);
    }

    /**
     * A part being written block by block. Granules never span two {@link #write} calls for
     * adaptive parts; for non-adaptive ({@code .mrk}) parts rows are buffered so that every granule
     * but the last holds exactly {@code index_granularity} rows. Closing without {@link #finish()}
     * abandons the part (its column uploads are aborted; the caller deletes the directory).
     */
    public final class Output implements AutoCloseable {
        private final TableStore store;
        private final String dir;
        private final List<String> names;
        private final List<DataType> types;
        private final PartitionData partition;
        private final List<BulkSerialization> serializations = new ArrayList<>();
        private final List<List<StreamWriter>> columnStreams = new ArrayList<>();
        private final Map<String, StreamWriter> byName = new LinkedHashMap<>();
        private SkipIndexWriter skipIndexes;
        private final ByteArraySink primaryIndex = new ByteArraySink(1024);
        private final List<DataType> pkTypes;
        private final List<String> pkNames;
        private final Block extremes;
        private byte[] lastKey = new byte[0];
        private Block pending;
        private Block pendingKey;
        private int perGranule;
        private long rows;
        private int marks;
        private long bytesInMemory;
        private boolean finished;
        private boolean closed;
        private TtlInfos ttlInfos;
        private boolean allowEmpty;
        private final List<Integer> granuleSizes = new ArrayList<>();
        private final boolean[] written;
        private boolean firstPhaseDone;
        private int gatherColumn = -1;
        private int gatherGranule;
        private Block gatherPending;
        private int gatherOffset;
        private final ProjectionSourceRows projectionRows;

        private Output(
                TableStore store,
                String dir,
                List<String> names,
                List<DataType> types,
                List<String> pkNames,
                List<DataType> pkTypes,
                PartitionData partition,
                Map<String, CompressionCodec> codecs)
                throws IOException {
            this.store = store;
            this.dir = dir;
            this.names = List.copyOf(names);
            this.types = List.copyOf(types);
            this.pkNames = List.copyOf(pkNames);
            this.pkTypes = List.copyOf(pkTypes);
            this.partition = partition;
            List<DataType> minmaxTypes = new ArrayList<>();
            for (String col : partition.minmaxColumns()) {
                int idx = names.indexOf(col);
                if (idx < 0) {
                    throw new IllegalArgumentException(
                            "partition key column " + col + " is not among the part's columns");
                }
                minmaxTypes.add(types.get(idx));
            }
            this.extremes = Block.empty(partition.minmaxColumns(), minmaxTypes, 16);
            this.written = new boolean[names.size()];
            this.projectionRows =
                    options.projections().isEmpty()
                            ? null
                            : new ProjectionSourceRows(names, types, options.projections());
            try {
                List<BulkSerialization> all = columnSerializations(names, types, options);
                for (int c = 0; c < names.size(); c++) {
                    String name = names.get(c);
                    BulkSerialization s = all.get(c);
                    CompressionCodec codec = codecs.getOrDefault(name, options.defaultCodec());
                    // value streams get the column's codecs with parameters from their type,
                    // null maps, sizes and LowCardinality indexes only its generic codecs
                    Map<String, DataType> valueStreams =
                            SubstreamTypes.valueStreams(name, types.get(c));
                    List<StreamWriter> streams = new ArrayList<>();
                    for (String stream : s.streams()) {
                        StreamWriter w =
                                new StreamWriter(
                                        store,
                                        dir,
                                        fileName(stream),
                                        codec.forStream(valueStreams.get(stream)),
                                        options.minCompressBlockSize(),
                                        options.maxCompressBlockSize(),
                                        options.adaptive(),
                                        options.fsync());
                        streams.add(w);
                        byName.put(stream, w);
                    }
                    serializations.add(s);
                    columnStreams.add(streams);
                }
                for (BulkSerialization s : serializations) {
                    s.writePrefix(byName::get);
                }
                skipIndexes = new SkipIndexWriter(options.skipIndexes(), store, dir, options);
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
        }

        /**
         * Appends sorted rows; {@code primaryKey} holds the primary key columns of the same rows.
         */
        public void write(Block block, Block primaryKey) throws IOException {
            if (finished || closed) {
                throw new IllegalStateException("part output is finished");
            }
            int n = block.rows();
            if (n == 0) {
                return;
            }
            if (!pkTypes.isEmpty() && primaryKey.rows() != n) {
                throw new IllegalArgumentException(
                        "primary key has " + primaryKey.rows() + " rows, block has " + n);
            }
            if (options.shareNestedOffsets()) {
                // a shared n.size0 holds one size per row for all of n's arrays
                NestedOffsets.validateArraySizes(
                        block.names(),
                        block.types(),
                        block.columns(),
                        rows + (pending == null ? 0 : pending.rows()));
            }
            if (perGranule == 0) {
                perGranule = granuleRows(block);
            }
            bytesInMemory += block.byteSize();
            updateExtremes(block);
            if (projectionRows != null) {
                projectionRows.append(block);
            }
            if (options.adaptive()) {
                writeGranules(block, primaryKey, n);
                return;
            }
            // non-adaptive: only whole granules, the remainder waits for more rows
            if (pending == null) {
                pending = block.newEmpty(perGranule);
                pendingKey = primaryKey.newEmpty(perGranule);
            }
            pending.appendRange(block, 0, n);
            if (!pkTypes.isEmpty()) {
                pendingKey.appendRange(primaryKey, 0, n);
            }
            int whole = pending.rows() / perGranule * perGranule;
            if (whole > 0) {
                writeGranules(pending, pendingKey, whole);
                Block rest = pending.newEmpty(perGranule);
                rest.appendRange(pending, whole, pending.rows());
                Block restKey = pendingKey.newEmpty(perGranule);
                if (!pkTypes.isEmpty()) {
                    restKey.appendRange(pendingKey, whole, pendingKey.rows());
                }
                pending = rest;
                pendingKey = restKey;
            }
        }

        private void writeGranules(Block block, Block key, int count) {
            int[] columnIndex = columnIndexes(block);
            // column by column, every granule of one column before the next, as ClickHouse's Wide
            // writer does: each column has streams of its own, so the files are the same as
            // granule by granule, while one column's values (a gathered column's chunks), streams
            // and compression buffers are in use at a time
            for (int b = 0; b < columnIndex.length; b++) {
                int c = columnIndex[b];
                Column column = block.column(b);
                BulkSerialization serialization = serializations.get(c);
                List<StreamWriter> streams = columnStreams.get(c);
                for (int from = 0; from < count; from += perGranule) {
                    int g = Math.min(perGranule, count - from);
                    for (StreamWriter w : streams) {
                        w.mark(g);
                    }
                    serialization.serialize(column, from, from + g, byName::get);
                }
            }
            skipIndexes.write(block, count, perGranule);
            for (int from = 0; from < count; from += perGranule) {
                int g = Math.min(perGranule, count - from);
                if (!pkTypes.isEmpty()) {
                    writeKeyRow(key, from, primaryIndex);
                }
                granuleSizes.add(g);
                marks++;
            }
            rows += count;
            if (!pkTypes.isEmpty()) {
                ByteArraySink last = new ByteArraySink(64);
                writeKeyRow(key, count - 1, last);
                lastKey = last.toByteArray();
            }
        }

        private int[] columnIndexes(Block block) {
            int[] out = new int[block.columnCount()];
            for (int b = 0; b < out.length; b++) {
                out[b] = names.indexOf(block.names().get(b));
                if (out[b] < 0) {
                    throw new IllegalArgumentException(
                            "column " + block.names().get(b) + " is not a column of the part");
                }
                if (written[out[b]]) {
                    throw new IllegalStateException(
                            "column " + block.names().get(b) + " was already written");
                }
            }
            return out;
        }

        private void updateExtremes(Block block) {
            for (int i = 0; i < extremes.columnCount(); i++) {
                int idx = block.indexOf(extremes.names().get(i));
                if (idx < 0) {
                    continue;
                }
                int[] mm = minMaxRows(block.types().get(idx), block.column(idx));
                if (mm != null) {
                    extremes.column(i).appendFrom(block.column(idx), mm[0]);
                    extremes.column(i).appendFrom(block.column(idx), mm[1]);
                }
            }
        }

        /**
         * Vertical merges: ends the first phase, in which {@link #write} received only some columns
         * (the merging columns, with the primary key), fixing the granules. The other columns then
         * arrive one at a time through {@link #writeColumn}.
         */
        public void endFirstPhase(Block emptyShapeOfFirstPhase) throws IOException {
            if (pending != null && pending.rows() > 0) {
                writeGranules(pending, pendingKey, pending.rows());
                pending = null;
            }
            for (int b = 0; b < emptyShapeOfFirstPhase.columnCount(); b++) {
                written[names.indexOf(emptyShapeOfFirstPhase.names().get(b))] = true;
            }
            firstPhaseDone = true;
        }

        /**
         * Vertical merges: appends the next rows of one column (a one-column block, rows in the
         * part's order); complete granules of the first phase's sizes are written as they fill. A
         * column's rows must all arrive before the next column's.
         */
        public void writeColumn(Block values) {
            if (!firstPhaseDone || values.columnCount() != 1) {
                throw new IllegalStateException(
                        "writeColumn needs endFirstPhase() first and a one-column block");
            }
            int c = names.indexOf(values.names().get(0));
            if (c < 0 || written[c]) {
                throw new IllegalArgumentException(
                        "column " + values.names().get(0) + " is unknown or already written");
            }
            if (gatherColumn != c) {
                if (gatherColumn >= 0) {
                    throw new IllegalStateException(
                            "column " + names.get(gatherColumn) + " is incomplete");
                }
                gatherColumn = c;
                gatherGranule = 0;
                gatherPending = values.newEmpty(perGranule == 0 ? 1024 : perGranule);
                gatherOffset = 0;
            }
            updateExtremes(values);
            if (projectionRows != null) {
                projectionRows.append(values);
            }
            gatherPending.appendRange(values, 0, values.rows());
            while (gatherGranule < granuleSizes.size()
                    && gatherPending.rows() - gatherOffset >= granuleSizes.get(gatherGranule)) {
                int g = granuleSizes.get(gatherGranule++);
                for (StreamWriter w : columnStreams.get(c)) {
                    w.mark(g);
                }
                serializations
                        .get(c)
                        .serialize(
                                gatherPending.column(0),
                                gatherOffset,
                                gatherOffset + g,
                                byName::get);
                gatherOffset += g;
            }
            if (gatherGranule == granuleSizes.size()) {
                if (gatherPending.rows() != gatherOffset) {
                    throw new IllegalArgumentException(
                            "column "
                                    + names.get(c)
                                    + " got more rows than the part has ("
                                    + rows
                                    + ")");
                }
                written[c] = true;
                gatherColumn = -1;
                gatherPending = null;
            } else if (gatherOffset > 0) {
                // keep only the incomplete granule's rows: memory stays at about one granule
                Block rest = gatherPending.newEmpty(gatherPending.rows() - gatherOffset + 1024);
                rest.appendRange(gatherPending, gatherOffset, gatherPending.rows());
                gatherPending = rest;
                gatherOffset = 0;
            }
        }

        /** Writes the remaining rows, the final marks and the metadata files. */
        public WrittenPartFiles finish() throws IOException {
            if (finished) {
                throw new IllegalStateException("part output is already finished");
            }
            if (pending != null && pending.rows() > 0) {
                writeGranules(pending, pendingKey, pending.rows());
                pending = null;
            }
            if (rows == 0 && !allowEmpty) {
                throw new IllegalStateException("cannot write a part of 0 rows");
            }
            if (firstPhaseDone) {
                for (int c = 0; c < names.size(); c++) {
                    if (!written[c]) {
                        throw new IllegalStateException(
                                "column " + names.get(c) + " of a vertical merge was not written");
                    }
                }
            }
            if (options.adaptive() && rows > 0) {
                for (StreamWriter w : byName.values()) {
                    w.mark(0);
                }
            }
            closeAll(byName.values());
            skipIndexes.finish();
            closed = true;
            Checksums checksums = new Checksums();
            String marksExt = options.adaptive() ? ".mrk2" : ".mrk";
            for (StreamWriter w : byName.values()) {
                checksums.add(w.name() + ".bin", w.checksum());
                writeListed(w.name() + marksExt, w.marks().toByteArray(), checksums);
            }
            for (int i = 0; i < skipIndexes.streams().size(); i++) {
                StreamWriter w = skipIndexes.streams().get(i);
                checksums.add(skipIndexes.dataFileName(i), w.checksum());
                writeListed(w.name() + marksExt, w.marks().toByteArray(), checksums);
            }
            if (!pkTypes.isEmpty()) {
                if (options.adaptive() && rows > 0) {
                    primaryIndex.write(lastKey, 0, lastKey.length);
                }
                writeListed("primary.idx", primaryIndex.toByteArray(), checksums);
            }
            if (partition.partitioned()) {
                writeListed(PartFiles.PARTITION, partition.keyBytes(), checksums);
                // an empty part has no min/max index, as ClickHouse's (its index is not
                // initialized)
                for (int i = 0; rows > 0 && i < extremes.columnCount(); i++) {
                    String col = extremes.names().get(i);
                    writeListed(
                            "minmax_" + fileName(StreamNames.escape(col)) + ".idx",
                            minMax(extremes.types().get(i), extremes.column(i)),
                            checksums);
                }
            }
            writeListed(PartFiles.COUNT, ascii(Long.toString(rows)), checksums);
            if (projectionRows != null && rows > 0) {
                ProjectionPartWriter.writeAll(
                        options, store, dir, projectionRows.rows(), checksums);
            }
            if (ttlInfos != null && !ttlInfos.isEmpty()) {
                writeListed(TtlInfos.FILE_NAME, ttlInfos.serialize(), checksums);
            }
            writeUnlisted(PartFiles.COLUMNS, columnsTxt(names, types));
            writeUnlisted(
                    "default_compression_codec.txt",
                    ascii("CODEC(" + options.defaultCodec().clickHouseName() + ")"));
            writeUnlisted("metadata_version.txt", ascii("0"));
            finished = true;
            return new WrittenPartFiles(
                    (int) Math.min(rows, Integer.MAX_VALUE), marks, checksums, bytesInMemory);
        }

        private void writeListed(String name, byte[] content, Checksums checksums)
                throws IOException {
            writeUnlisted(name, content);
            checksums.add(
                    name,
                    new Checksums.Entry(
                            content.length,
                            HashingOutput.hash(content, 0, content.length),
                            false,
                            0,
                            io.github.s3mergetree.engine.hash.Hash128.ZERO));
        }

        private void writeUnlisted(String name, byte[] content) throws IOException {
            store.write(PartStorage.fileKey(dir, name), content, options.fsync());
        }

        /**
         * The part's TTL times, written as {@code ttl.txt} by {@link #finish()} (as ClickHouse
         * does: not when they are all empty); null for a table without TTL.
         */
        public void setTtlInfos(TtlInfos infos) {
            this.ttlInfos = infos;
        }

        /**
         * Lets {@link #finish()} write a part of no rows, as ClickHouse does when a merge removed
         * every row by TTL: empty column and marks files, an empty primary index, {@code count.txt}
         * 0, {@code partition.dat} but no min/max index. Such a part covers its sources' blocks.
         */
        public void allowEmpty() {
            this.allowEmpty = true;
        }

        /** Without {@link #finish()}: abandons the part, discarding its column uploads. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                for (StreamWriter w : byName.values()) {
                    w.abort();
                }
                if (skipIndexes != null) {
                    skipIndexes.abort();
                }
            }
        }
    }

    /**
     * The serializations of a part's columns, bound to their stream names. With {@code
     * share_nested_offsets} the Array and Map columns of a Nested structure ({@code n.a}, {@code
     * n.b}) share one outer sizes stream ({@code n.size0}), written by the structure's first column
     * in the part's order. Two columns whose streams would have the same file name are refused as
     * ClickHouse refuses such a table at CREATE TABLE (BAD_ARGUMENTS): {@code a Array(T)} beside
     * {@code a.b Array(T)} ({@code a.size0}), a dotted Map beside another column of its prefix
     * (ClickHouse does not check a Map's sizes against the structure's arrays), names hashed alike.
     *
     * @throws IllegalArgumentException naming both columns and the file name
     */
    public static List<BulkSerialization> columnSerializations(
            List<String> names, List<DataType> types, PartWriterOptions options) {
        Map<String, String> sharedSizesWriter = new LinkedHashMap<>();
        Map<String, String> streamColumn = new LinkedHashMap<>();
        List<BulkSerialization> out = new ArrayList<>(names.size());
        for (int c = 0; c < names.size(); c++) {
            String name = names.get(c);
            String shared =
                    options.shareNestedOffsets()
                            ? NestedOffsets.sharedSizesStream(name, types.get(c)).orElse(null)
                            : null;
            String sharedWriter =
                    shared == null ? null : sharedSizesWriter.putIfAbsent(shared, name);
            if (sharedWriter != null
                    && (types.get(c) instanceof MapType
                            || types.get(names.indexOf(sharedWriter)) instanceof MapType)) {
                throw streamCollision(sharedWriter, name, shared);
            }
            BulkSerialization s =
                    types.get(c) instanceof ProjectionStateType
                            ? new ProjectionStateSerialization(StreamNames.escape(name))
                            : BulkSerialization.forColumn(
                                    name,
                                    types.get(c),
                                    false,
                                    shared,
                                    shared != null && sharedWriter == null);
            for (String stream : s.streams()) {
                String other = streamColumn.putIfAbsent(fileName(stream), name);
                if (other != null) {
                    throw streamCollision(other, name, stream);
                }
            }
            out.add(s);
        }
        return out;
    }

    private static IllegalArgumentException streamCollision(
            String first, String second, String stream) {
        return new IllegalArgumentException(
                "Columns '"
                        + first
                        + "' and '"
                        + second
                        + "' have streams with collision in file name "
                        + fileName(stream));
    }

    /** Rows per granule, as ClickHouse's {@code computeIndexGranularityImpl} chooses them. */
    int granuleRows(Block block) {
        if (!options.adaptive()) {
            return options.indexGranularity();
        }
        int rows = block.rows();
        long bytes = block.byteSize();
        long igb = options.indexGranularityBytes();
        long g;
        if (bytes >= igb) {
            g = rows / (bytes / igb);
        } else {
            g = igb / Math.max(bytes / rows, 1);
        }
        return (int) Math.max(1, Math.min(options.indexGranularity(), g));
    }

    private static void writeKeyRow(Block pk, int row, ByteArraySink out) {
        for (int c = 0; c < pk.columnCount(); c++) {
            ValueSerde.write(pk.types().get(c), pk.column(c), row, out);
        }
    }

    /** Rows of the smallest and largest value, NULLs and NaNs ignored; null if there is none. */
    static int[] minMaxRows(DataType type, Column column) {
        RowComparator cmp = RowComparators.forColumn(type, column);
        int min = -1;
        int max = -1;
        for (int r = 0; r < column.size(); r++) {
            if (column instanceof NullableColumn nc && nc.isNull(r)) {
                continue;
            }
            if (FloatingPoint.isNaN(type, column, r)) {
                continue;
            }
            if (min < 0 || cmp.compare(r, min) < 0) {
                min = r;
            }
            if (max < 0 || cmp.compare(r, max) > 0) {
                max = r;
            }
        }
        return min < 0 ? null : new int[] {min, max};
    }

    /** min then max of a column (ClickHouse's {@code getExtremes}): {@code minmax_*.idx}. */
    static byte[] minMax(DataType type, Column column) {
        int[] mm = minMaxRows(type, column);
        ByteArraySink out = new ByteArraySink(32);
        if (mm == null) {
            if (!(type instanceof NullableType)) {
                throw new IllegalStateException("no min/max for column of type " + type.name());
            }
            out.writeByte(1);
            out.writeByte(1);
        } else {
            ValueSerde.write(type, column, mm[0], out);
            ValueSerde.write(type, column, mm[1], out);
        }
        return out.toByteArray();
    }

    /** The file name of a stream: the name, or its SipHash when longer than 127 characters. */
    static String fileName(String streamName) {
        return streamName.length() > MAX_FILE_NAME_LENGTH
                ? SipHash128.sipHash128String(streamName)
                : streamName;
    }

    static byte[] columnsTxt(List<String> names, List<DataType> types) {
        StringBuilder s = new StringBuilder("columns format version: 1\n");
        s.append(names.size()).append(" columns:\n");
        for (int c = 0; c < names.size(); c++) {
            s.append('`');
            String n = names.get(c);
            for (int i = 0; i < n.length(); i++) {
                char ch = n.charAt(i);
                if (ch == '`' || ch == '\\') {
                    s.append('\\');
                }
                s.append(ch);
            }
            s.append("` ").append(types.get(c).name()).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static void closeAll(Iterable<StreamWriter> writers) throws IOException {
        IOException first = null;
        for (StreamWriter w : writers) {
            try {
                w.close();
            } catch (IOException | UncheckedIOException e) {
                IOException io =
                        e instanceof IOException x ? x : ((UncheckedIOException) e).getCause();
                if (first == null) {
                    first = io;
                } else {
                    first.addSuppressed(io);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
