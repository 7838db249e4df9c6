package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.index.SkipIndex;
import io.github.s3mergetree.engine.part.PartBlockReader;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.TtlInfos;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.sort.KeySorter;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.ttl.TtlMerge;
import io.github.s3mergetree.engine.types.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Merges sorted parts of one partition into one part (ClickHouse's {@code MergeTask} with the
 * horizontal algorithm): a streaming k-way merge over blocks of {@code merge_max_block_size} rows
 * read lazily from each source, so memory stays bounded by one block per source whatever the part
 * sizes. Rows with equal keys keep the order of the sources (older block numbers first) and, per
 * engine, are kept, replaced, summed or collapsed ({@link MergingMode}).
 *
 * <p>Progress is observable while the merge runs ({@link Progress}), and a merge can be cancelled
 * between blocks.
 */
public final class PartMerger {
    /** ClickHouse's {@code merge_max_block_size_bytes} default: 10 MiB per source block. */
    static final long MERGE_MAX_BLOCK_SIZE_BYTES = 10L << 20;

    private final PartWriter writer;
    private final TableStore scratch;

    /**
     * A merger writing with {@code writer}; {@code scratch} holds the vertical algorithm's
     * temporary row-source file (a local directory, also for tables on S3).
     */
    public PartMerger(PartWriter writer, TableStore scratch) {
        this.writer = writer;
        this.scratch = scratch;
    }

    /** Live counters of one merge, like a row of ClickHouse's {@code system.merges}. */
    public static final class Progress {
        final AtomicLong rowsRead = new AtomicLong();
        final AtomicLong rowsWritten = new AtomicLong();
        final AtomicLong bytesReadUncompressed = new AtomicLong();
        final AtomicBoolean cancelled = new AtomicBoolean();

        public long rowsRead() {
            return rowsRead.get();
        }

        public long rowsWritten() {
            return rowsWritten.get();
        }

        public long bytesReadUncompressed() {
            return bytesReadUncompressed.get();
        }

        /** Asks the merge to stop at the next block boundary. */
        public void cancel() {
            cancelled.set(true);
        }

        public boolean isCancelled() {
            return cancelled.get();
        }
    }

    /** Thrown by {@link #merge} when its {@link Progress} was cancelled. */
    public static final class MergeCancelledException extends IOException {
        public MergeCancelledException(String message) {
            super(message);
        }
    }

    /**
     * Merges {@code sources} (ordered by block number) into a new part written in directory {@code
     * outDir} of {@code out}, without its {@code checksums.txt} (the caller publishes it, see
     * {@link PartWriter#writeChecksums}).
     *
     * @return what was written
     */
    public WrittenPartFiles merge(
            List<PartReader> sources,
            MergeSpec spec,
            PartitionData partition,
            TableStore out,
            String outDir,
            Progress progress)
            throws IOException {
        return merge(sources, spec, partition, out, outDir, progress, null);
    }

    /** ClickHouse's {@code vertical_merge_algorithm_min_rows_to_activate}. */
    static final long VERTICAL_MIN_ROWS = 131072;

    /** ClickHouse's {@code vertical_merge_algorithm_min_columns_to_activate}. */
    static final int VERTICAL_MIN_COLUMNS = 11;

    /**
     * A horizontal merge holds about one compressed and one decompressed block (≤ 1 MiB each) per
     * source and column; below this many (sources × columns) that is cheap, and the horizontal
     * algorithm is faster here (measured: posts, 10 parts × 22 columns, 104 vs 45 MB/s), so the
     * vertical one is used only above it.
     */
    static final long VERTICAL_MIN_SOURCE_STREAMS = 256;

    /**
     * As {@link #merge(List, MergeSpec, PartitionData, TableStore, String, Progress)}; {@code
     * vertical} forces the algorithm (null: ClickHouse's rule — vertical for plain MergeTree merges
     * of at least 131072 rows with at least 11 columns outside the sorting key — when the merge
     * also reads more than {@value #VERTICAL_MIN_SOURCE_STREAMS} source columns). The vertical
     * algorithm merges the sorting-key columns first, recording which source each row came from,
     * then gathers every other column one at a time, so memory holds one column per source instead
     * of all of them.
     */
    public WrittenPartFiles merge(
            List<PartReader> sources,
            MergeSpec spec,
            PartitionData partition,
            TableStore out,
            String outDir,
            Progress progress,
            Boolean vertical)
            throws IOException {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("nothing to merge");
        }
        for (PartReader p : sources) {
            if (!p.columnNames().equals(spec.columnNames())
                    || !p.columnTypes().equals(spec.columnTypes())) {
                throw new IllegalArgumentException(
                        "part "
                                + p.store().describe(p.directory())
                                + " has columns "
                                + p.columnNames()
                                + " "
                                + p.columnTypes()
                                + ", the table has "
                                + spec.columnNames()
                                + " "
                                + spec.columnTypes());
            }
        }
        // the sorting key's columns and, as the part writer builds the skip indexes from the
        // first phase's blocks, the columns the indexes read
        Set<String> mergingSet = new HashSet<>(spec.sortingKey().requiredColumns());
        for (SkipIndex index : writer.options().skipIndexes()) {
            mergingSet.addAll(index.requiredColumns());
        }
        List<String> merging = new ArrayList<>();
        for (String c : spec.columnNames()) {
            if (mergingSet.contains(c)) {
                merging.add(c);
            }
        }
        long totalRows = sources.stream().mapToLong(PartReader::rows).sum();
        List<TtlInfos> sourceTtl = new ArrayList<>();
        for (PartReader p : sources) {
            sourceTtl.add(spec.ttl().isEmpty() ? null : p.ttlInfos());
        }
        TtlMerge ttl = TtlMerge.plan(spec.ttl(), sourceTtl, spec.timeOfMerge(), spec.evaluation());
        // a merge that applies TTL reads every column at once, as ClickHouse's does
        boolean useVertical =
                (ttl == null || !ttl.applies())
                        && spec.mode().kind() == MergingMode.Kind.ORDINARY
                        && !merging.isEmpty()
                        && merging.size() < spec.columnNames().size()
                        && (vertical != null
                                ? vertical
                                : totalRows >= VERTICAL_MIN_ROWS
                                        && spec.columnNames().size() - merging.size()
                                                >= VERTICAL_MIN_COLUMNS
                                        && (long) sources.size() * spec.columnNames().size()
                                                > VERTICAL_MIN_SOURCE_STREAMS);
        List<String> firstPhase = useVertical ? merging : spec.columnNames();
        List<Cursor> cursors = new ArrayList<>();
        List<PartBlockReader> readers = new ArrayList<>();
        try {
            for (int i = 0; i < sources.size(); i++) {
                PartBlockReader r =
                        sources.get(i)
                                .blocks(
                                        firstPhase,
                                        spec.mergeMaxBlockSize(),
                                        MERGE_MAX_BLOCK_SIZE_BYTES);
                readers.add(r);
                Cursor c = new Cursor(i, r, spec, progress);
                if (c.load()) {
                    cursors.add(c);
                }
            }
            return mergeCursors(
                    cursors,
                    sources,
                    spec,
                    partition,
                    out,
                    outDir,
                    progress,
                    useVertical ? merging : null,
                    ttl);
        } finally {
            for (PartBlockReader r : readers) {
                r.close();
            }
        }
    }

    private WrittenPartFiles mergeCursors(
            List<Cursor> cursors,
            List<PartReader> sources,
            MergeSpec spec,
            PartitionData partition,
            TableStore store,
            String outDir,
            Progress progress,
            List<String> verticalMergingColumns,
            TtlMerge ttl)
            throws IOException {
        RowSources rowSources = verticalMergingColumns == null ? null : new RowSources(scratch);
        List<String> pkNames = spec.sortingKey().columnNames().subList(0, spec.primaryKeySize());
        List<DataType> pkTypes = spec.sortingKey().types().subList(0, spec.primaryKeySize());
        try (PartWriter.Output out =
                writer.open(
                        store,
                        outDir,
                        spec.columnNames(),
                        spec.columnTypes(),
                        pkNames,
                        pkTypes,
                        partition,
                        spec.columnCodecs())) {
            OutputBuffer buffer =
                    new OutputBuffer(
                            spec, out, progress, ttl != null && ttl.applies() ? ttl : null);
            RowReducer reducer = RowReducer.create(spec, buffer);
            PriorityQueue<Cursor> heap = new PriorityQueue<>(Cursor::compareTo);
            heap.addAll(cursors);
            while (!heap.isEmpty()) {
                if (progress.isCancelled()) {
                    throw new MergeCancelledException("merge into " + outDir + " was cancelled");
                }
                Cursor c = heap.poll();
                Cursor next = heap.peek();
                int end = c.pos + 1;
                int rows = c.rows;
                if (next == null) {
                    end = rows;
                } else {
                    while (end < rows && c.compareRowTo(end, next) <= 0) {
                        end++;
                    }
                }
                reducer.accept(c.block, c.keys, c.pos, end);
                if (rowSources != null) {
                    rowSources.add(c.index, end - c.pos);
                }
                c.pos = end;
                if (c.pos < rows || c.load()) {
                    heap.add(c);
                }
            }
            reducer.finish();
            buffer.flush();
            if (rowSources != null) {
                out.endFirstPhase(cursorsShape(verticalMergingColumns, spec));
                try (rowSources) {
                    rowSources.finishWriting();
                    for (int c = 0; c < spec.columnNames().size(); c++) {
                        String column = spec.columnNames().get(c);
                        if (!verticalMergingColumns.contains(column)) {
                            gather(column, sources, rowSources, spec, out, progress);
                        }
                    }
                }
            }
            if (ttl != null) {
                out.setTtlInfos(ttl.finish());
                if (ttl.applies()) {
                    // every row may have expired: ClickHouse writes an empty part then
                    out.allowEmpty();
                }
            }
            return out.finish();
        }
    }

    private static Block cursorsShape(List<String> columns, MergeSpec spec) {
        List<DataType> types = new ArrayList<>();
        for (String c : columns) {
            types.add(spec.columnTypes().get(spec.columnNames().indexOf(c)));
        }
        return Block.empty(columns, types, 1);
    }

    /** Vertical merge, second phase: one column gathered from the sources in merged order. */
    private static void gather(
            String column,
            List<PartReader> sources,
            RowSources rowSources,
            MergeSpec spec,
            PartWriter.Output out,
            Progress progress)
            throws IOException {
        List<PartBlockReader> readers = new ArrayList<>();
        try {
            Block[] current = new Block[sources.size()];
            int[] pos = new int[sources.size()];
            int[] rowsOf = new int[sources.size()];
            for (PartReader p : sources) {
                readers.add(
                        p.blocks(
                                List.of(column),
                                spec.mergeMaxBlockSize(),
                                MERGE_MAX_BLOCK_SIZE_BYTES));
            }
            MergedBlockBuilder outBlock = new MergedBlockBuilder();
            RowSources.Reader runs = rowSources.reader();
            while (runs.next()) {
                int s = runs.source();
                long remaining = runs.length();
                while (remaining > 0) {
                    if (progress.isCancelled()) {
                        throw new MergeCancelledException(
                                "merge was cancelled while gathering " + column);
                    }
                    if (current[s] == null || pos[s] == rowsOf[s]) {
                        if (!readers.get(s).hasNext()) {
                            throw new IllegalStateException(
                                    "source " + s + " ran out of rows while gathering " + column);
                        }
                        current[s] = readers.get(s).next();
                        rowsOf[s] = current[s].rows();
                        pos[s] = 0;
                    }
                    int take = (int) Math.min(remaining, rowsOf[s] - pos[s]);
                    take = Math.min(take, spec.mergeMaxBlockSize() - outBlock.rows());
                    // the reader returns a new block each time: the recorded runs stay valid
                    outBlock.add(current[s], pos[s], pos[s] + take);
                    pos[s] += take;
                    remaining -= take;
                    if (outBlock.rows() >= spec.mergeMaxBlockSize()) {
                        out.writeColumn(outBlock.take());
                    }
                }
            }
            Block last = outBlock.take();
            if (last != null) {
                out.writeColumn(last);
            }
        } finally {
            for (PartBlockReader r : readers) {
                r.close();
            }
        }
    }

    /** One source part being read: its current block, evaluated sort key and position. */
    static final class Cursor implements Comparable<Cursor> {
        final int index;
        final PartBlockReader reader;
        final MergeSpec spec;
        final Progress progress;
        Block block;

        /** {@code block.rows()}, read once per block. */
        int rows;

        List<Column> keys;
        KeySorter.NormalizedKeys normalized;
        final List<DataType> keyTypes;
        int pos;
        long generation;
        private Cursor cachedOther;
        private long cachedOtherGeneration = -1;
        private long cachedGeneration = -1;
        private RowComparator cached;

        Cursor(int index, PartBlockReader reader, MergeSpec spec, Progress progress) {
            this.index = index;
            this.reader = reader;
            this.spec = spec;
            this.progress = progress;
            this.keyTypes = spec.sortingKey().types();
        }

        /** Loads the next block; false at the end of the part. */
        boolean load() {
            if (!reader.hasNext()) {
                block = null;
                return false;
            }
            block = reader.next();
            rows = block.rows();
            keys = spec.sortingKey().evaluate(block, spec.evaluation());
            normalized = KeySorter.normalize(keyTypes, keys);
            pos = 0;
            generation++;
            progress.rowsRead.addAndGet(rows);
            progress.bytesReadUncompressed.addAndGet(block.byteSize());
            return rows > 0 || load();
        }

        private RowComparator against(Cursor other) {
            if (cached == null
                    || cachedOther != other
                    || cachedOtherGeneration != other.generation
                    || cachedGeneration != generation) {
                List<RowComparator> parts = new ArrayList<>();
                for (int k = 0; k < keyTypes.size(); k++) {
                    parts.add(
                            RowComparators.forColumns(
                                    keyTypes.get(k), keys.get(k), other.keys.get(k)));
                }
                cached = parts.isEmpty() ? (a, b) -> 0 : RowComparators.lexicographic(parts);
                cachedOther = other;
                cachedOtherGeneration = other.generation;
                cachedGeneration = generation;
            }
            return cached;
        }

        /** Compares row {@code row} of this cursor's block with {@code other}'s current row. */
        int compareRowTo(int row, Cursor other) {
            int c = normalized.compare(row, other.normalized, other.pos);
            if (c == 0 && !normalized.exact()) {
                c = against(other).compare(row, other.pos);
            }
            return c != 0 ? c : Integer.compare(index, other.index);
        }

        @Override
        public int compareTo(Cursor other) {
            return compareRowTo(pos, other);
        }
    }

    /**
     * Collects output rows into blocks of merge_max_block_size and writes them. A plain MergeTree
     * merge's rows are recorded as runs and built column by column ({@link MergedBlockBuilder});
     * the engines that reduce rows append each reduced row as it comes (their rows come from
     * per-group blocks, one or two rows each).
     */
    static final class OutputBuffer implements RowReducer.RowSink {
        private final MergeSpec spec;
        private final PartWriter.Output out;
        private final Progress progress;
        private final MergedBlockBuilder runs;
        private final TtlMerge ttl;
        private Block block;

        OutputBuffer(MergeSpec spec, PartWriter.Output out, Progress progress, TtlMerge ttl) {
            this.spec = spec;
            this.out = out;
            this.progress = progress;
            this.ttl = ttl;
            this.runs =
                    spec.mode().kind() == MergingMode.Kind.ORDINARY
                            ? new MergedBlockBuilder()
                            : null;
        }

        @Override
        public void append(Block src, int from, int to) throws IOException {
            if (runs != null) {
                runs.add(src, from, to);
                if (runs.rows() >= spec.mergeMaxBlockSize()) {
                    flush();
                }
                return;
            }
            if (block == null) {
                block = src.newEmpty(spec.mergeMaxBlockSize());
            }
            block.appendRange(src, from, to);
            if (block.rows() >= spec.mergeMaxBlockSize()) {
                flush();
            }
        }

        void flush() throws IOException {
            if (runs != null) {
                block = runs.take();
            }
            if (block == null || block.rows() == 0) {
                return;
            }
            Block rows = block;
            if (ttl != null) {
                block = ttl.apply(block);
                if (block.rows() == 0) {
                    block = runs != null ? null : rows.newEmpty(spec.mergeMaxBlockSize());
                    return;
                }
            }
            List<Column> keys = spec.sortingKey().evaluate(block, spec.evaluation());
            Block pk =
                    new Block(
                            spec.sortingKey().columnNames().subList(0, spec.primaryKeySize()),
                            spec.sortingKey().types().subList(0, spec.primaryKeySize()),
                            keys.subList(0, spec.primaryKeySize()));
            out.write(block, pk);
            progress.rowsWritten.addAndGet(block.rows());
            block = runs != null ? null : rows.newEmpty(spec.mergeMaxBlockSize());
        }
    }
}
