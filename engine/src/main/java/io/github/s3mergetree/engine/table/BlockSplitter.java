package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.column.Column;
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

/**
 * Splits an insert block by partition and sorts each piece by the sorting key (ClickHouse's {@code
 * MergeTreeDataWriter::splitBlockIntoParts} followed by the stable sort of {@code writeTempPart}).
 * Rows with equal keys keep their arrival order.
 */
public final class BlockSplitter {
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
        int rows = block.rows();
        List<int[]> groups = new ArrayList<>();
        List<byte[]> groupKeys = new ArrayList<>();
        if (keys.partitionTypes().isEmpty()) {
            int[] all = new int[rows];
            for (int i = 0; i < rows; i++) {
                all[i] = i;
            }
            groups.add(all);
            groupKeys.add(new byte[0]);
        } else {
            Map<ByteBuffer, Integer> index = new LinkedHashMap<>();
            int[] groupOf = new int[rows];
            int[] sizes = new int[8];
            ByteArraySink scratch = new ByteArraySink(64);
            // rows arrive in runs of one partition (time-ordered input): a row whose key bytes
            // equal the previous row's joins its group without a lookup or an allocation
            byte[] lastKey = null;
            int lastGroup = -1;
            for (int r = 0; r < rows; r++) {
                scratch.reset();
                for (int k = 0; k < keys.partitionTypes().size(); k++) {
                    ValueSerde.write(
                            keys.partitionTypes().get(k),
                            keys.partitionColumns().get(k),
                            r,
                            scratch);
                }
                int g;
                if (lastKey != null
                        && Arrays.equals(
                                scratch.buffer(), 0, scratch.size(), lastKey, 0, lastKey.length)) {
                    g = lastGroup;
                } else {
                    ByteBuffer key = ByteBuffer.wrap(scratch.toByteArray());
                    Integer found = index.get(key);
                    if (found == null) {
                        found = index.size();
                        index.put(key, found);
                        groupKeys.add(key.array());
                        if (found == sizes.length) {
                            sizes = Arrays.copyOf(sizes, sizes.length * 2);
                        }
                    }
                    g = found;
                    lastKey = key.array();
                    lastGroup = g;
                }
                groupOf[r] = g;
                sizes[g]++;
            }
            for (int gi = 0; gi < index.size(); gi++) {
                groups.add(new int[sizes[gi]]);
            }
            int[] fill = new int[index.size()];
            for (int r = 0; r < rows; r++) {
                int g = groupOf[r];
                groups.get(g)[fill[g]++] = r;
            }
        }

        List<PartitionedBlock> out = new ArrayList<>(groups.size());
        for (int g = 0; g < groups.size(); g++) {
            int[] rowsOfGroup = groups.get(g);
            int[] perm =
                    keys.sortingTypes().isEmpty()
                            ? rowsOfGroup
                            : KeySorter.sort(
                                    keys.sortingTypes(), keys.sortingColumns(), rowsOfGroup);
            boolean identity = perm.length == rows && isIdentity(perm);
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
            out.add(
                    new PartitionedBlock(
                            partitionData(keys, rowsOfGroup[0], groupKeys.get(g)), sorted, pk));
        }
        return out;
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
