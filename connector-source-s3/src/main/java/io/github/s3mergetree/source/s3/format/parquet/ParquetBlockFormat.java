package io.github.s3mergetree.source.s3.format.parquet;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.convert.ValueConverter;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.ObjectBytes;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ProjectableBlockFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.parquet.HadoopFreeReadOptions;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Parquet objects into columnar {@link Block}s of a {@link TargetSchema}, column by column (lists,
 * structs and maps become Arrays, Tuples and Maps: see {@link ParquetColumnDecoder}).
 *
 * <p>Only the target's columns are fetched: for each row group the column chunks of those columns
 * are downloaded (parallel ranged GETs when large) before decoding. A split of a large object owns
 * the row groups whose midpoint lies in its byte range, so readers share one object without reading
 * its footer in the enumerator. Positions are (row group index, rows emitted from it).
 */
@PublicEvolving
public final class ParquetBlockFormat implements ProjectableBlockFormat {
    private static final long serialVersionUID = 1L;
    private static final int TAIL_BYTES = 256 * 1024;
    private static final long MERGE_GAP = 1024 * 1024;

    private final TargetSchema schema;

    /**
     * Built once (shared by every reader): Parquet's read options without Hadoop, {@link
     * HadoopFreeReadOptions}.
     */
    private static volatile ParquetReadOptions readOptions;

    private static ParquetReadOptions readOptions() {
        ParquetReadOptions o = readOptions;
        if (o == null) {
            synchronized (ParquetBlockFormat.class) {
                o = readOptions;
                if (o == null) {
                    // row groups as views of the prefetched chunk bytes (vectored IO); pages
                    // with a CRC are checked (CRC32, an intrinsic): ClickHouse refuses a page whose
                    // checksum is wrong
                    o =
                            HadoopFreeReadOptions.create(
                                    DecompressOnlyCodecFactory.INSTANCE, true, true);
                    readOptions = o;
                }
            }
        }
        return o;
    }

    public ParquetBlockFormat(TargetSchema schema) {
        this.schema = java.util.Objects.requireNonNull(schema, "schema");
    }

    @Override
    public TargetSchema schema() {
        return schema;
    }

    @Override
    public ParquetBlockFormat withSchema(TargetSchema columns) {
        return new ParquetBlockFormat(columns);
    }

    @Override
    public TypeInformation<Block> getProducedType() {
        return new BlockTypeInfo(schema);
    }

    @Override
    public boolean isSplittable(String key) {
        return true;
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
        private final CachedRangeInputFile file;
        private final ParquetFileReader reader;
        private final List<BlockMetaData> rowGroups;
        private final List<Integer> owned = new ArrayList<>();
        private final ParquetColumnDecoder[][] decoders;
        private final Set<String> requestedTop = new HashSet<>();
        private final List<Type> requestedTypes;
        private final boolean hasMissingColumns;
        private int ownedPos;
        private int currentRowGroup = -1;
        private long rowsInCurrent;
        private long rowsReadInCurrent;
        private long pendingSkip;
        private Block previous;

        Reader(FormatContext ctx, S3ObjectSplit split) throws IOException {
            this.ctx = ctx;
            this.split = split;
            this.object = ctx.describe(split.key());
            long size = split.objectSize();
            if (size < 12) {
                throw new ObjectFormatException(
                        object + ": not a Parquet file (" + size + " bytes, too small)");
            }
            this.file = new CachedRangeInputFile(ctx, split);
            // a small object prefetched whole serves the footer and every row group: no more GETs
            ObjectBytes whole = split.isWholeObject() ? ctx.takePrefetchedObject(split) : null;
            long tailStart = whole != null ? 0 : Math.max(0, size - TAIL_BYTES);
            ObjectBytes tail =
                    whole != null ? whole : ObjectBytes.of(ctx.readFully(split, tailStart, size));
            byte[] t = tail.array();
            int n = tail.length();
            if (t[n - 4] != 'P' || t[n - 3] != 'A' || t[n - 2] != 'R' || t[n - 1] != '1') {
                ctx.release(tail);
                throw new ObjectFormatException(
                        object
                                + ": not a Parquet file (no PAR1 magic at the end, found '"
                                + ValueConverter.escapeBytes(
                                        java.util.Arrays.copyOfRange(t, n - 4, n))
                                + "': truncated, or another format)");
            }
            long footerLen =
                    ByteBuffer.wrap(t, n - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt()
                            & 0xFFFFFFFFL;
            if (footerLen + 8 > n && footerLen + 8 <= size) {
                tailStart = size - footerLen - 8;
                ctx.release(tail);
                tail = ObjectBytes.of(ctx.readFully(split, tailStart, size));
            }
            file.cache(tailStart, tail, true);
            ParquetFileReader opened;
            try {
                opened = ParquetFileReader.open(file, readOptions());
            } catch (IOException | RuntimeException e) {
                // fastparquet's fixed-length text columns: a footer parquet-mr refuses
                long footerStart = size - 8 - footerLen;
                ParquetMetadata fixed = null;
                if (String.valueOf(e.getMessage()).contains("can only annotate")
                        && footerStart >= tailStart) {
                    try {
                        fixed =
                                FixedTextFooter.read(
                                        tail.array(),
                                        (int) (footerStart - tailStart),
                                        (int) footerLen);
                    } catch (IOException | RuntimeException again) {
                        e.addSuppressed(again);
                    }
                }
                try {
                    if (fixed == null) {
                        throw e;
                    }
                    opened = ParquetFileReader.open(file, fixed, readOptions(), file.newStream());
                } catch (IOException | RuntimeException failed) {
                    file.releaseAll();
                    throw new ObjectFormatException(
                            object
                                    + ": cannot read the Parquet footer: "
                                    + ParquetColumnDecoder.causeMessage(failed),
                            failed);
                }
            }
            this.reader = opened;
            MessageType fileSchema = reader.getFooter().getFileMetaData().getSchema();
            String createdBy = reader.getFooter().getFileMetaData().getCreatedBy();
            this.rowGroups = reader.getRowGroups();
            for (int i = 0; i < rowGroups.size(); i++) {
                BlockMetaData b = rowGroups.get(i);
                long mid = b.getStartingPos() + b.getCompressedSize() / 2;
                boolean mine =
                        split.isWholeObject()
                                || (mid >= split.rangeStart() && mid < split.rangeEnd());
                if (mine && b.getRowCount() > 0) {
                    owned.add(i);
                }
            }
            ValueConverter converter = new ValueConverter(object, ctx.sessionZone());
            VersionParser.ParsedVersion writerVersion =
                    ParquetColumnDecoder.writerVersion(createdBy);
            // the file's leaf columns by top-level field, listed once: getColumns() builds them
            // anew on every call, and a call per table column was quadratic in the columns
            Map<String, List<ColumnDescriptor>> leavesByField = new HashMap<>();
            for (ColumnDescriptor d : fileSchema.getColumns()) {
                leavesByField.computeIfAbsent(d.getPath()[0], k -> new ArrayList<>()).add(d);
            }
            decoders = new ParquetColumnDecoder[schema.size()][];
            List<Type> requested = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (int c = 0; c < schema.size(); c++) {
                String name = schema.names().get(c);
                if (!fileSchema.containsField(name)) {
                    missing.add(name); // default values
                    continue;
                }
                List<ColumnDescriptor> leaves = leavesByField.getOrDefault(name, List.of());
                // one decoder per leaf: a struct or map fills its Tuple / Map column leaf by leaf
                ParquetColumnDecoder[] forColumn = new ParquetColumnDecoder[leaves.size()];
                for (int l = 0; l < forColumn.length; l++) {
                    forColumn[l] =
                            new ParquetColumnDecoder(
                                    object,
                                    fileSchema,
                                    leaves.get(l),
                                    name,
                                    schema.types().get(c),
                                    converter,
                                    writerVersion);
                }
                decoders[c] = forColumn;
                requested.add(fileSchema.getType(name));
                requestedTop.add(name);
            }
            this.requestedTypes = requested;
            this.hasMissingColumns = !missing.isEmpty();
            if (hasMissingColumns) {
                List<String> fileColumns = new ArrayList<>();
                for (Type field : fileSchema.getFields()) {
                    fileColumns.add(field.getName());
                }
                try {
                    ConfigOption<Boolean> allow =
                            S3SourceOptions.INPUT_FORMAT_PARQUET_ALLOW_MISSING_COLUMNS;
                    ctx.missingColumns()
                            .check(
                                    object,
                                    "Parquet",
                                    missing,
                                    fileColumns,
                                    allow.key(),
                                    ctx.options().get(allow));
                } catch (ObjectFormatException e) {
                    close();
                    throw e;
                }
            }
            reader.setRequestedSchema(new MessageType(fileSchema.getName(), requested));
            if (split.offset() != S3ObjectSplit.NOT_STARTED) {
                while (ownedPos < owned.size() && owned.get(ownedPos) < split.offset()) {
                    ownedPos++;
                }
                if (ownedPos < owned.size() && owned.get(ownedPos) == split.offset()) {
                    pendingSkip = split.recordsToSkip();
                }
            }
        }

        private boolean openNextRowGroup() throws IOException {
            if (ownedPos >= owned.size()) {
                return false;
            }
            int rg = owned.get(ownedPos++);
            BlockMetaData b = rowGroups.get(rg);
            // every row of the previous row group is decoded: its pages are read no more
            file.releaseDropped();
            prefetchChunks(b);
            PageReadStore store;
            try {
                store = reader.readRowGroup(rg);
            } catch (IOException | RuntimeException e) {
                file.dropUnpinned();
                throw new ObjectFormatException(
                        object
                                + ": row group "
                                + rg
                                + failingColumn(rg)
                                + ": cannot read: "
                                + ParquetColumnDecoder.causeMessage(e)
                                + (e.getMessage() != null && e.getMessage().contains("CRC")
                                        ? " (Page CRC checksum verification failed)"
                                        : ""),
                        e);
            } finally {
                file.dropUnpinned();
            }
            for (ParquetColumnDecoder[] ds : decoders) {
                if (ds != null) {
                    for (ParquetColumnDecoder d : ds) {
                        d.startRowGroup(rg, store, b);
                    }
                }
            }
            currentRowGroup = rg;
            rowsInCurrent = b.getRowCount();
            rowsReadInCurrent = 0;
            if (pendingSkip > 0) {
                long skip = Math.min(pendingSkip, rowsInCurrent);
                pendingSkip = 0;
                while (skip > 0) {
                    int n = (int) Math.min(skip, ctx.maxBlockSize());
                    decode(n); // decoded and dropped: already emitted before the checkpoint
                    skip -= n;
                }
            }
            return true;
        }

        /**
         * After reading row group {@code rg} failed (a page whose CRC checksum is wrong, a page
         * header that does not parse): {@code ", column 'c'"} naming the first requested column
         * whose chunk alone fails too, or "" when none does. Reads the chunks again, one column at
         * a time: the error path only.
         */
        private String failingColumn(int rg) {
            MessageType all = reader.getFileMetaData().getSchema();
            MessageType requested = new MessageType(all.getName(), requestedTypes);
            try {
                for (Type t : requestedTypes) {
                    reader.setRequestedSchema(new MessageType(all.getName(), List.of(t)));
                    try {
                        reader.readRowGroup(rg);
                    } catch (IOException | RuntimeException e) {
                        return ", column '" + t.getName() + "'";
                    } finally {
                        file.dropUnpinned();
                    }
                }
            } finally {
                reader.setRequestedSchema(requested);
            }
            return "";
        }

        /** Downloads the requested columns' chunks of a row group, merging near ranges. */
        private void prefetchChunks(BlockMetaData b) throws IOException {
            List<long[]> ranges = new ArrayList<>();
            for (ColumnChunkMetaData c : b.getColumns()) {
                if (!requestedTop.contains(c.getPath().toArray()[0])) {
                    continue;
                }
                ranges.add(new long[] {c.getStartingPos(), c.getStartingPos() + c.getTotalSize()});
            }
            ranges.sort((x, y) -> Long.compare(x[0], y[0]));
            long s = -1;
            long e = -1;
            for (long[] r : ranges) {
                if (s < 0) {
                    s = r[0];
                    e = r[1];
                } else if (r[0] <= e + MERGE_GAP) {
                    e = Math.max(e, r[1]);
                } else {
                    file.fetch(s, e);
                    s = r[0];
                    e = r[1];
                }
            }
            if (s >= 0) {
                file.fetch(s, Math.min(e, split.objectSize()));
            }
        }

        private Block decode(int rows) throws IOException {
            Block block = previous == null ? firstBlock(rows) : sizedAfter(previous, rows);
            previous = block;
            for (int c = 0; c < decoders.length; c++) {
                Column col = block.column(c);
                if (decoders[c] != null) {
                    for (ParquetColumnDecoder d : decoders[c]) {
                        d.read(rows, col);
                    }
                } else {
                    DataType t = schema.types().get(c);
                    for (int i = 0; i < rows; i++) {
                        Columns.appendDefault(t, col);
                    }
                }
            }
            rowsReadInCurrent += rows;
            return block;
        }

        /**
         * A block sized like the previous one, its String columns with an eighth more bytes per row
         * than the previous block had: the values of the next rows are rarely longer on average by
         * more than that, and a column that outgrows its buffer doubles it (copying the bytes, and
         * keeping up to twice the memory while the insert block holds it).
         */
        private static Block sizedAfter(Block previous, int rows) {
            List<Column> cols = new ArrayList<>(previous.columnCount());
            for (int c = 0; c < previous.columnCount(); c++) {
                Column p = previous.column(c);
                if (p instanceof StringColumn s && s.size() > 0) {
                    long perRow = s.totalBytes() / s.size() + 1;
                    long bytes = perRow * rows + (perRow * rows >> 3);
                    cols.add(new StringColumn(rows, (int) Math.min(1 << 30, bytes)));
                } else {
                    cols.add(p.newEmpty(rows));
                }
            }
            return new Block(previous.names(), previous.types(), cols);
        }

        /**
         * The object's first block, its String columns sized from the row group's uncompressed
         * column chunk sizes (for PLAIN pages a little more than the values: 4 length bytes per
         * value plus page headers), so they do not grow by doubling, copying their bytes each time.
         */
        private Block firstBlock(int rows) {
            BlockMetaData rg = rowGroups.get(currentRowGroup);
            List<Column> cols = new ArrayList<>(schema.size());
            for (int c = 0; c < schema.size(); c++) {
                DataType type = schema.types().get(c);
                Column col = null;
                // a String column sized by its chunk's bytes (not first made at 16 bytes per row)
                if (Columns.isStringColumn(type) && decoders[c] != null && rg.getRowCount() > 0) {
                    long chunkBytes = 0;
                    for (ColumnChunkMetaData m : rg.getColumns()) {
                        if (m.getPath().toArray()[0].equals(schema.names().get(c))) {
                            chunkBytes += m.getTotalUncompressedSize();
                        }
                    }
                    long hint = chunkBytes * rows / rg.getRowCount();
                    if (hint > 16L * rows) {
                        col = new StringColumn(rows, (int) Math.min(1 << 30, hint));
                    }
                }
                cols.add(col != null ? col : Columns.create(type, rows));
            }
            return new Block(schema.names(), schema.types(), cols);
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            while (currentRowGroup < 0 || rowsReadInCurrent >= rowsInCurrent) {
                if (!openNextRowGroup()) {
                    return null;
                }
            }
            int n = (int) Math.min(ctx.maxBlockSize(), rowsInCurrent - rowsReadInCurrent);
            Block block = decode(n);
            if (hasMissingColumns) {
                ctx.missingColumns().filled(n);
            }
            PositionedRecord<Block> rec =
                    rowsReadInCurrent >= rowsInCurrent
                            ? new PositionedRecord<>(block, currentRowGroup + 1, 0)
                            : new PositionedRecord<>(block, currentRowGroup, rowsReadInCurrent);
            return List.of(rec);
        }

        @Override
        public void close() throws IOException {
            if (decoders != null) {
                for (ParquetColumnDecoder[] forColumn : decoders) {
                    if (forColumn != null) {
                        for (ParquetColumnDecoder d : forColumn) {
                            d.release();
                        }
                    }
                }
            }
            try {
                reader.close();
            } finally {
                file.releaseAll();
            }
        }
    }
}
