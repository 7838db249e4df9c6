package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.PartitionIds;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.KeySorter;
import io.github.s3mergetree.engine.types.DataType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Splits an insert block by partition and sorts each piece by the sorting key (ClickHouse's {@code
 * MergeTreeDataWriter::splitBlockIntoParts} followed by the stable sort of {@code writeTempPart}).
 * Rows with equal keys keep their arrival order.
 */
public final class BlockSplitter {
    private static final Logger LOG = LoggerFactory.getLogger(BlockSplitter.class);

    private BlockSplitter() {}

    /** One piece per partition, in order of first appearance. */
    public static List<PartitionedBlock> split(Block block, EvaluatedKeys keys) {
        return split(BlockChunks.of(block), keys);
    }

    /**
     * One piece per partition of an insert block kept as chunks, in order of first appearance;
     * {@code keys} are evaluated over all its rows in chunk order.
     */
    public static List<PartitionedBlock> split(BlockChunks block, EvaluatedKeys keys) {
        return split(block, keys, null);
    }

    /**
     * Like {@link #split(BlockChunks, EvaluatedKeys)}; the String columns marked in {@code
     * lazyStrings} (by column index, null for none) are gathered lazily ({@link
     * BlockChunks#permute(int[], int, boolean[])}): for a consumer that only serializes them.
     */
    public static List<PartitionedBlock> split(
            BlockChunks block, EvaluatedKeys keys, boolean[] lazyStrings) {
        return split(block, keys, lazyStrings, InsertSettings.DEFAULTS);
    }

    /**
     * Like {@link #split(BlockChunks, EvaluatedKeys, boolean[])}, enforcing {@code
     * max_partitions_per_insert_block} as ClickHouse's {@code splitBlockIntoParts} does: a block
     * whose rows fall into more partitions is refused as soon as the first partition too many is
     * seen (before anything is sorted or written), or, with {@code
     * throw_on_max_partitions_per_insert_block = false}, split and logged.
     *
     * @throws TooManyPartitionsException beyond the limit, when refusing
     */
    public static List<PartitionedBlock> split(
            BlockChunks block, EvaluatedKeys keys, boolean[] lazyStrings, InsertSettings limits) {
        int rows = block.rows();
        List<int[]> groups = new ArrayList<>();
        List<byte[]> groupKeys = new ArrayList<>();
        if (keys.partitionTypes().isEmpty()) {
            groups.add(identity(rows));
            groupKeys.add(new byte[0]);
        } else {
            int max = limits.maxPartitionsPerInsertBlock();
            Grouping grouping =
                    new Grouping(
                            keys,
                            rows,
                            limits.throwOnMaxPartitionsPerInsertBlock() && max > 0
                                    ? max
                                    : Integer.MAX_VALUE);
            grouping.assign();
            groups = grouping.groups();
            groupKeys = grouping.groupKeys;
            if (max > 0 && groups.size() > max) {
                LOG.warn(
                        "An insert block of {} rows created parts in {} partitions (more than"
                                + " max_partitions_per_insert_block = {}). This is being logged"
                                + " rather than throwing an exception as"
                                + " throw_on_max_partitions_per_insert_block=false.",
                        rows,
                        groups.size(),
                        max);
            }
        }
        // the hot loops live in small methods (Grouping, KeySorter, BlockChunks): one big method
        // holding them all gets several large on-stack-replacement compilations, seconds of JIT
        List<PartitionedBlock> out = new ArrayList<>(groups.size());
        for (int g = 0; g < groups.size(); g++) {
            out.add(piece(block, keys, lazyStrings, groups.get(g), groupKeys.get(g)));
        }
        return out;
    }

    /** One partition's rows sorted by the sorting key, with its primary key columns. */
    private static PartitionedBlock piece(
            BlockChunks block,
            EvaluatedKeys keys,
            boolean[] lazyStrings,
            int[] rowsOfGroup,
            byte[] groupKey) {
        int[] perm =
                keys.sortingTypes().isEmpty()
                        ? rowsOfGroup
                        : KeySorter.sort(keys.sortingTypes(), keys.sortingColumns(), rowsOfGroup);
        boolean identity = perm.length == block.rows() && isIdentity(perm);
        Block sorted =
                identity && block.chunks().size() == 1
                        ? block.first()
                        : block.permute(perm, perm.length, lazyStrings);
        List<Column> pkCols = new ArrayList<>();
        for (int k = 0; k < keys.primaryKeySize(); k++) {
            Column c = keys.sortingColumns().get(k);
            pkCols.add(identity ? c : c.permute(perm, perm.length));
        }
        Block pk =
                new Block(
                        keys.sortingNames().subList(0, keys.primaryKeySize()),
                        keys.sortingTypes().subList(0, keys.primaryKeySize()),
                        pkCols);
        return new PartitionedBlock(partitionData(keys, rowsOfGroup[0], groupKey), sorted, pk);
    }

    private static int[] identity(int n) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return all;
    }

    /**
     * Assigns every row to the group of its partition key bytes, groups numbered in order of first
     * appearance. Rows arrive in runs of one partition (time-ordered input): a run of equal raw
     * values of integer key columns is found with one comparison per row and joins its group with
     * one lookup; a row whose key bytes equal the previous row's joins its group without a lookup.
     */
    private static final class Grouping {
        private final EvaluatedKeys keys;
        private final int rows;
        private final int maxGroups; // more is refused
        private final int[] groupOf;
        private final Map<ByteBuffer, Integer> index = new LinkedHashMap<>();
        private final List<byte[]> groupKeys = new ArrayList<>();
        private final ByteArraySink scratch = new ByteArraySink(64);
        private int[] sizes = new int[8];
        private byte[] lastKey;
        private int lastGroup = -1;

        Grouping(EvaluatedKeys keys, int rows, int maxGroups) {
            this.keys = keys;
            this.rows = rows;
            this.maxGroups = maxGroups;
            this.groupOf = new int[rows];
        }

        void assign() {
            List<Column> columns = keys.partitionColumns();
            for (int r = 0; r < rows; ) {
                int end = rows;
                for (Column c : columns) {
                    end = runEnd(c, r, end);
                }
                int g = groupOfRow(r);
                Arrays.fill(groupOf, r, end, g);
                sizes[g] += end - r;
                r = end;
            }
        }

        /** The group of row {@code r}, by its key bytes. */
        private int groupOfRow(int r) {
            scratch.reset();
            for (int k = 0; k < keys.partitionTypes().size(); k++) {
                ValueSerde.write(
                        keys.partitionTypes().get(k), keys.partitionColumns().get(k), r, scratch);
            }
            if (lastKey != null
                    && Arrays.equals(
                            scratch.buffer(), 0, scratch.size(), lastKey, 0, lastKey.length)) {
                return lastGroup;
            }
            ByteBuffer key = ByteBuffer.wrap(scratch.toByteArray());
            Integer found = index.get(key);
            if (found == null) {
                if (index.size() >= maxGroups) {
                    throw new TooManyPartitionsException(maxGroups);
                }
                found = index.size();
                index.put(key, found);
                groupKeys.add(key.array());
                if (found == sizes.length) {
                    sizes = Arrays.copyOf(sizes, sizes.length * 2);
                }
            }
            lastKey = key.array();
            lastGroup = found;
            return found;
        }

        /** The row indexes of every group, in row order. */
        List<int[]> groups() {
            List<int[]> groups = new ArrayList<>(index.size());
            for (int g = 0; g < index.size(); g++) {
                groups.add(new int[sizes[g]]);
            }
            int[] fill = new int[index.size()];
            for (int r = 0; r < rows; r++) {
                int g = groupOf[r];
                groups.get(g)[fill[g]++] = r;
            }
            return groups;
        }
    }

    /**
     * The end of the run of rows from {@code from} (below {@code to}) whose raw values in {@code c}
     * equal row {@code from}'s; {@code from + 1} for columns other than plain integers.
     */
    static int runEnd(Column c, int from, int to) {
        int i = from + 1;
        if (c instanceof ShortColumn s) {
            short[] d = s.data();
            short v = d[from];
            while (i < to && d[i] == v) {
                i++;
            }
        } else if (c instanceof IntColumn s) {
            int[] d = s.data();
            int v = d[from];
            while (i < to && d[i] == v) {
                i++;
            }
        } else if (c instanceof LongColumn s) {
            long[] d = s.data();
            long v = d[from];
            while (i < to && d[i] == v) {
                i++;
            }
        } else if (c instanceof ByteColumn s) {
            byte[] d = s.data();
            byte v = d[from];
            while (i < to && d[i] == v) {
                i++;
            }
        }
        return Math.min(i, to);
    }

    private static boolean isIdentity(int[] perm) {
        for (int i = 0; i < perm.length; i++) {
            if (perm[i] != i) {
                return false;
            }
        }
        return true;
    }

    private static PartitionData partitionData(EvaluatedKeys keys, int row, byte[] keyBytes) {
        if (keys.partitionTypes().isEmpty()) {
            return PartitionData.UNPARTITIONED;
        }
        List<DataType> types = keys.partitionTypes();
        String id = PartitionIds.compute(types, keys.partitionColumns(), row);
        return new PartitionData(
                id, Arrays.copyOf(keyBytes, keyBytes.length), keys.minmaxColumns(), types);
    }
}
