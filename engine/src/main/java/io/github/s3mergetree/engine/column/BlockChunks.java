package io.github.s3mergetree.engine.column;

import java.util.ArrayList;
import java.util.List;

/**
 * An insert block held as the blocks it was built from (ClickHouse's squashing, without the copy):
 * columnar input arrives in blocks of up to {@code max_block_size} rows, and concatenating them
 * into one block only to permute that block by the sorting key copies every value twice. Kept as
 * chunks, the sort gathers each output column straight from the chunks ({@link Column#gather}), one
 * copy. Only the (small) key columns are concatenated, to evaluate and sort the keys.
 *
 * <p>The chunks are referenced, not copied: whoever builds a {@code BlockChunks} must not modify
 * them afterwards. All chunks have the same column names and types.
 */
public final class BlockChunks {
    private final List<Block> chunks;
    private final int[] starts;
    private final int rows;

    private BlockChunks(List<Block> chunks) {
        this.chunks = List.copyOf(chunks);
        this.starts = new int[chunks.size() + 1];
        long total = 0;
        for (int k = 0; k < chunks.size(); k++) {
            starts[k] = (int) total;
            total += chunks.get(k).rows();
        }
        if (total > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(
                    "an insert block of "
                            + total
                            + " rows is too large: use smaller insert blocks");
        }
        starts[chunks.size()] = (int) total;
        this.rows = (int) total;
    }

    /** The rows of {@code chunks} in order; at least one chunk, all of the same names and types. */
    public static BlockChunks of(List<Block> chunks) {
        if (chunks.isEmpty()) {
            throw new IllegalArgumentException("an insert block needs at least one chunk");
        }
        Block first = chunks.get(0);
        for (Block b : chunks) {
            if (!b.names().equals(first.names()) || !b.types().equals(first.types())) {
                throw new IllegalArgumentException(
                        "chunks differ in columns: "
                                + first.names()
                                + " "
                                + first.types()
                                + " vs "
                                + b.names()
                                + " "
                                + b.types());
            }
        }
        return new BlockChunks(chunks);
    }

    /** One block as a single chunk. */
    public static BlockChunks of(Block block) {
        return new BlockChunks(List.of(block));
    }

    public List<Block> chunks() {
        return chunks;
    }

    /** The chunks' shape (names, types) and, for a single chunk, its rows. */
    public Block first() {
        return chunks.get(0);
    }

    public int rows() {
        return rows;
    }

    /**
     * Concatenates per-chunk columns (e.g. a key evaluated on every chunk) into one column of
     * {@link #rows()} rows; the single column itself when there is one chunk.
     */
    public Column concat(List<Column> perChunk) {
        if (perChunk.size() != chunks.size()) {
            throw new IllegalArgumentException(
                    perChunk.size() + " columns for " + chunks.size() + " chunks");
        }
        if (perChunk.size() == 1) {
            return perChunk.get(0);
        }
        Column out = perChunk.get(0).newEmpty(rows);
        for (Column c : perChunk) {
            out.appendRange(c, 0, c.size());
        }
        return out;
    }

    /**
     * A new block holding rows {@code perm[0..length)} (numbered across the chunks in order), each
     * column gathered from the chunks in one pass.
     */
    public Block permute(int[] perm, int length) {
        return permute(perm, length, null);
    }

    /**
     * Like {@link #permute(int[], int)}, but the String and fixed-width number columns marked in
     * {@code lazy} (by column index; null for none) are not copied: they become {@link
     * GatheredStringColumn}s and {@link GatheredFixedColumn}s over the chunks, for a consumer that
     * only serializes them.
     */
    public Block permute(int[] perm, int length, boolean[] lazy) {
        Block first = chunks.get(0);
        boolean anyLazy = false;
        if (lazy != null) {
            for (int c = 0; c < first.columnCount(); c++) {
                anyLazy |= lazy[c] && gathers(first.column(c));
            }
        }
        if (chunks.size() == 1 && !anyLazy) {
            return first.permute(perm, length);
        }
        int[] chunkOf = new int[length];
        int[] rowOf = new int[length];
        locate(perm, length, chunkOf, rowOf);
        boolean all = anyLazy && isPermutationOfAllRows(perm, length);
        List<Column> out = new ArrayList<>(first.columnCount());
        List<Column> parts = new ArrayList<>(chunks.size());
        for (int c = 0; c < first.columnCount(); c++) {
            parts.clear();
            for (Block b : chunks) {
                parts.add(b.column(c));
            }
            Column shape = first.column(c);
            boolean gathered = lazy != null && lazy[c];
            Column column;
            if (gathered && shape instanceof StringColumn) {
                column = new GatheredStringColumn(parts, chunkOf, rowOf, length, all);
            } else if (gathered && GatheredFixedColumn.supports(shape)) {
                column = new GatheredFixedColumn(parts, chunkOf, rowOf, length);
            } else {
                column = shape.gather(parts, chunkOf, rowOf, length);
            }
            out.add(column);
        }
        return new Block(first.names(), first.types(), out);
    }

    private static boolean gathers(Column shape) {
        return shape instanceof StringColumn || GatheredFixedColumn.supports(shape);
    }

    /** Whether {@code perm[0..length)} holds every row exactly once. */
    private boolean isPermutationOfAllRows(int[] perm, int length) {
        if (length != rows) {
            return false;
        }
        // a bitmap of rows / 8 bytes stays in cache, unlike the rows' values
        long[] seen = new long[(rows + 63) >>> 6];
        for (int i = 0; i < length; i++) {
            int r = perm[i];
            long bit = 1L << r;
            if (r < 0 || r >= rows || (seen[r >>> 6] & bit) != 0) {
                return false;
            }
            seen[r >>> 6] |= bit;
        }
        return true;
    }

    /** The chunk and the row within it of each {@code perm[i]}. */
    private void locate(int[] perm, int length, int[] chunkOf, int[] rowOf) {
        for (int i = 0; i < length; i++) {
            int r = perm[i];
            int k = chunkIndex(r);
            chunkOf[i] = k;
            rowOf[i] = r - starts[k];
        }
    }

    /** The chunk holding row {@code row} (binary search over the chunk starts). */
    private int chunkIndex(int row) {
        int lo = 0;
        int hi = chunks.size() - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (starts[mid] <= row) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
