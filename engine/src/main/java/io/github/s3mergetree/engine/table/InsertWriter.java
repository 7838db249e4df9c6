package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.GatheredFixedColumn;
import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.merge.InsertReduction;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.store.Uninterruptibly;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Turns one insert block into temporary parts (ClickHouse's {@code MergeTreeDataWriter}): evaluates
 * the partition and sorting keys, splits and sorts ({@link BlockSplitter}), applies the engine's
 * reduction when {@code optimize_on_insert}, and writes each partition's rows as a part into a
 * fresh {@code tmp_<purpose>_<partition>_<millis>_<uuid>} directory of the table's store (the time
 * in the name is when it was started: orphans of dead writers are removed {@code
 * temporary_directories_lifetime} after it). Nothing is visible until the parts are committed.
 * Stateless apart from the table it writes for; safe to use from several threads.
 */
public final class InsertWriter {
    /** Where the time of {@link #write} went, in nanoseconds (accumulated). */
    public static final class Timings {
        /** Key evaluation, split, sort and engine reduction. */
        public long sortNanos;

        /** Serialization, compression, checksums and file writes. */
        public long writeNanos;
    }

    private final TableLayout layout;
    private final TableStore store;
    private final Clock clock;
    private final PartWriter writer;
    private final boolean[] lazyColumns;
    private final InsertSettings insertSettings;

    /** Writes parts of {@code layout}'s table into {@code store}, with default insert settings. */
    public InsertWriter(TableLayout layout, TableStore store, Clock clock) {
        this(layout, store, clock, InsertSettings.DEFAULTS);
    }

    /**
     * Writes parts of {@code layout}'s table into {@code store}, enforcing {@code insertSettings}
     * ({@code max_partitions_per_insert_block}, ...) on every block.
     */
    public InsertWriter(
            TableLayout layout, TableStore store, Clock clock, InsertSettings insertSettings) {
        this.insertSettings = java.util.Objects.requireNonNull(insertSettings, "insertSettings");
        this.layout = layout;
        this.store = store;
        this.clock = clock;
        this.writer = new PartWriter(layout.partFormat());
        this.lazyColumns = lazyColumns(layout);
    }

    /**
     * The columns whose sorted values the part writer may read straight from the insert block's
     * chunks ({@link GatheredStringColumn}, {@link GatheredFixedColumn}): plain String and
     * fixed-width columns that are only serialized — not in the partition's min/max index, not
     * reduced by {@code optimize_on_insert}, and written with adaptive granularity (fixed granules
     * buffer rows by copying). Null when there are none. The sorting key's columns are among them:
     * the primary index is written from the key columns sorted on their own.
     */
    private static boolean[] lazyColumns(TableLayout layout) {
        boolean reduces =
                layout.settings().optimizeOnInsert()
                        && layout.mergingMode().kind() != MergingMode.Kind.ORDINARY;
        if (reduces || !layout.partFormat().adaptive()) {
            return null;
        }
        List<String> names = layout.columnNames();
        boolean[] lazy = new boolean[names.size()];
        boolean any = false;
        for (int c = 0; c < lazy.length; c++) {
            DataType type = layout.columnTypes().get(c);
            lazy[c] =
                    (type.equals(DataTypes.STRING_TYPE) || BulkSerialization.writesFixedWidth(type))
                            && !layout.minmaxColumns().contains(names.get(c));
            any |= lazy[c];
        }
        return any ? lazy : null;
    }

    /**
     * Writes {@code block} (the table's columns, in order) as one temporary part per partition, in
     * directories named {@code tmp_<purpose>_<partition>_<uuid>}.
     */
    public List<TemporaryPart> write(Block block, String purpose, Timings timings)
            throws IOException {
        return write(BlockChunks.of(block), purpose, timings);
    }

    /**
     * Writes an insert block kept as chunks (see {@link BlockChunks}): the keys are evaluated per
     * chunk and concatenated, and each part's rows are gathered from the chunks in sorted order.
     *
     * @throws TooManyPartitionsException when the block's rows fall into more than {@code
     *     max_partitions_per_insert_block} partitions (nothing is written)
     */
    public List<TemporaryPart> write(BlockChunks block, String purpose, Timings timings)
            throws IOException {
        if (block.rows() == 0) {
            return List.of();
        }
        if (layout.partFormat().shareNestedOffsets()) {
            validateNestedSizes(block);
        }
        long t0 = System.nanoTime();
        List<Column> partitionColumns = evaluate(layout.partitionKey(), block);
        List<Column> sortColumns = evaluate(layout.sortingKey(), block);
        EvaluatedKeys keys =
                new EvaluatedKeys(
                        layout.partitionKey().types(),
                        partitionColumns,
                        layout.minmaxColumns(),
                        layout.sortingKey().columnNames(),
                        layout.sortingKey().types(),
                        sortColumns,
                        layout.primaryKeySize());
        List<PartitionedBlock> pieces =
                BlockSplitter.split(block, keys, lazyColumns, insertSettings);
        timings.sortNanos += System.nanoTime() - t0;
        List<TemporaryPart> out = new ArrayList<>(pieces.size());
        try {
            for (PartitionedBlock pb : pieces) {
                long s = System.nanoTime();
                Block rows = pb.rows();
                Block pk = pb.primaryKey();
                if (layout.settings().optimizeOnInsert()
                        && layout.mergingMode().kind() != MergingMode.Kind.ORDINARY) {
                    List<Column> k = layout.sortingKey().evaluate(rows, layout.evaluation());
                    rows =
                            InsertReduction.reduce(
                                    rows, k, layout.mergingMode(), layout.sortingKey());
                    List<Column> reduced = layout.sortingKey().evaluate(rows, layout.evaluation());
                    pk =
                            new Block(
                                    pk.names(),
                                    pk.types(),
                                    reduced.subList(0, layout.primaryKeySize()));
                }
                long w = System.nanoTime();
                timings.sortNanos += w - s;
                if (rows.rows() == 0) {
                    continue;
                }
                String tmp = temporaryDirectory(purpose, pb.partition().partitionId());
                try {
                    WrittenPartFiles files =
                            writer.write(
                                    new PartWriter.Input(
                                            rows,
                                            pk,
                                            pb.partition(),
                                            layout.columnCodecs(),
                                            layout.ttl().infosOf(rows, layout.evaluation())),
                                    store,
                                    tmp);
                    out.add(new TemporaryPart(store, tmp, pb.partition(), files));
                } catch (IOException | RuntimeException e) {
                    try {
                        // the failure may be an interrupt (a cancelled task): clean up anyway
                        Uninterruptibly.run(() -> store.deletePrefix(PartStorage.prefix(tmp)));
                    } catch (IOException | RuntimeException cleanup) {
                        e.addSuppressed(cleanup);
                    }
                    throw e;
                }
                timings.writeNanos += System.nanoTime() - w;
            }
        } catch (IOException | RuntimeException e) {
            for (TemporaryPart p : out) {
                p.abort();
            }
            throw e;
        }
        return out;
    }

    /**
     * Refuses the block, before anything is written, if a row's arrays of one Nested structure
     * ({@code n.a}, {@code n.b}) differ in size, naming the row of the block as it arrived.
     */
    private static void validateNestedSizes(BlockChunks block) {
        long firstRow = 0;
        for (Block chunk : block.chunks()) {
            NestedOffsets.validateArraySizes(
                    chunk.names(), chunk.types(), chunk.columns(), firstRow);
            firstRow += chunk.rows();
        }
    }

    /** A fresh temporary directory name: {@code tmp_<purpose>_<partition>_<millis>_<uuid>}. */
    String temporaryDirectory(String purpose, String partitionId) {
        return TableKeys.TMP_PREFIX
                + purpose
                + "_"
                + partitionId
                + "_"
                + clock.millis()
                + "_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    }

    /**
     * When a temporary directory named by {@link #temporaryDirectory} was started, if its name says
     * so.
     */
    static java.util.OptionalLong startedMillis(String directory) {
        int last = directory.lastIndexOf('_');
        int before = last <= 0 ? -1 : directory.lastIndexOf('_', last - 1);
        if (before < 0) {
            return java.util.OptionalLong.empty();
        }
        try {
            return java.util.OptionalLong.of(Long.parseLong(directory.substring(before + 1, last)));
        } catch (NumberFormatException e) {
            return java.util.OptionalLong.empty();
        }
    }

    /** A key's columns over all chunks: evaluated chunk by chunk, then concatenated. */
    private List<Column> evaluate(KeyExpression key, BlockChunks block) {
        List<List<Column>> perChunk = new ArrayList<>();
        for (Block chunk : block.chunks()) {
            perChunk.add(key.evaluate(chunk, layout.evaluation()));
        }
        List<Column> out = new ArrayList<>(perChunk.get(0).size());
        for (int k = 0; k < perChunk.get(0).size(); k++) {
            List<Column> parts = new ArrayList<>(perChunk.size());
            for (List<Column> cols : perChunk) {
                parts.add(cols.get(k));
            }
            out.add(block.concat(parts));
        }
        return out;
    }
}
