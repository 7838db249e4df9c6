package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The next output block of a merge, recorded as runs of source rows ({@code [from, to)} of a source
 * block) and built column by column when it is taken, instead of row run by row run.
 *
 * <p>Why: where the sources' keys interleave, a merge's runs are one or two rows long, and copying
 * each run into every column of the output block cost one virtual call and one small array copy per
 * run and column (posts, 22 columns: {@code Block.appendRange} was a quarter of a merge's CPU).
 * Built per column, the copy is one tight loop over the rows ({@link Column#gather}) with the
 * column's type known; where the runs are long, per column a range copy of each run.
 *
 * <p>The source blocks are only referenced, so they must not change until {@link #take}: the
 * merge's part readers return a new block each time.
 */
final class MergedBlockBuilder {
    /** Runs at least this long on average are copied as ranges, shorter ones row by row. */
    static final int RANGE_COPY_MIN_AVERAGE_RUN = 8;

    /** The distinct source blocks of the recorded runs (a few per merge source), by identity. */
    private final List<Block> blocks = new ArrayList<>();

    private int[] runBlock = new int[1024];
    private int[] runFrom = new int[1024];
    private int[] runTo = new int[1024];
    private int runs;
    private int rows;

    /** Rows recorded since the last {@link #take}. */
    int rows() {
        return rows;
    }

    /** Rows {@code [from, to)} of {@code src} come next. */
    void add(Block src, int from, int to) {
        if (to <= from) {
            return;
        }
        int index = indexOf(src);
        rows += to - from;
        if (runs > 0 && runBlock[runs - 1] == index && runTo[runs - 1] == from) {
            runTo[runs - 1] = to;
            return;
        }
        if (runs == runBlock.length) {
            int n = runs * 2;
            runBlock = Arrays.copyOf(runBlock, n);
            runFrom = Arrays.copyOf(runFrom, n);
            runTo = Arrays.copyOf(runTo, n);
        }
        runBlock[runs] = index;
        runFrom[runs] = from;
        runTo[runs] = to;
        runs++;
    }

    /** The block's index in {@link #blocks}, added if new; the latest blocks are searched first. */
    private int indexOf(Block src) {
        for (int i = blocks.size() - 1; i >= 0; i--) {
            if (blocks.get(i) == src) {
                return i;
            }
        }
        blocks.add(src);
        return blocks.size() - 1;
    }

    /** The recorded rows as a block, in order; then starts over. Null when none were recorded. */
    Block take() {
        if (rows == 0) {
            return null;
        }
        Block first = blocks.get(0);
        List<Column> out = new ArrayList<>(first.columnCount());
        if (rows / runs >= RANGE_COPY_MIN_AVERAGE_RUN) {
            for (int c = 0; c < first.columnCount(); c++) {
                Column dst = first.column(c).newEmpty(rows);
                for (int r = 0; r < runs; r++) {
                    dst.appendRange(blocks.get(runBlock[r]).column(c), runFrom[r], runTo[r]);
                }
                out.add(dst);
            }
        } else {
            int[] chunkOf = new int[rows];
            int[] rowOf = new int[rows];
            int i = 0;
            for (int r = 0; r < runs; r++) {
                for (int row = runFrom[r]; row < runTo[r]; row++) {
                    chunkOf[i] = runBlock[r];
                    rowOf[i++] = row;
                }
            }
            List<Column> chunks = new ArrayList<>(blocks.size());
            for (int c = 0; c < first.columnCount(); c++) {
                chunks.clear();
                for (Block b : blocks) {
                    chunks.add(b.column(c));
                }
                out.add(first.column(c).gather(chunks, chunkOf, rowOf, rows));
            }
        }
        Block block = new Block(first.names(), first.types(), out);
        blocks.clear();
        runs = 0;
        rows = 0;
        return block;
    }
}
