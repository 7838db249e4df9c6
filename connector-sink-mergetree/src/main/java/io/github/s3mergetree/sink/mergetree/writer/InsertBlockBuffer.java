package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.sink.mergetree.input.InputConverter;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * The insert block a writer fills: records converted into its columns, or, for columnar input, the
 * blocks as they arrived, kept by reference ({@link BlockChunks}). Says when the block is full
 * ({@code min_insert_block_size_rows}, or {@code min_insert_block_size_bytes}: measured every few
 * rows, planned from the bytes per row so far) and hands it over ({@link #take}).
 *
 * @param <IN> the writer's input type
 */
@Internal
final class InsertBlockBuffer<IN> {
    /** What {@link #add} did to the block. */
    enum Fill {
        /** Rows added; nothing measured. */
        FILLING,
        /** Rows added and the block measured ({@link #retainedBytes} changed). */
        MEASURED,
        /** The block reached a minimum: take it. */
        FULL
    }

    /** A block taken: its rows, bytes ({@link Block#byteSize}) and the heap it holds. */
    record Taken(BlockChunks block, long bytes, long retained) {}

    private final InputConverter<IN> converter;
    private final TableLayout layout;
    private final long minRows;
    private final boolean columnar;
    private long minBytes;
    private Block current;
    private List<Block> chunks = new ArrayList<>();
    private int chunkRows;
    private long rowsSinceCheck;
    private long nextCheckAt = 1;
    private long currentBytes;
    private long currentRetained;
    private int lastAdded;

    /**
     * A buffer converting with {@code converter} into {@code layout}'s columns, full at {@code
     * minRows} rows (0: no row limit) or at the bytes {@link #setMinBytes} sets (none until then).
     */
    InsertBlockBuffer(InputConverter<IN> converter, TableLayout layout, long minRows) {
        this.converter = converter;
        this.layout = layout;
        this.minRows = minRows;
        this.columnar = converter.columnar();
        this.current = columnar ? null : newBlock();
    }

    /** Sets {@code min_insert_block_size_bytes} (0: no byte limit). */
    void setMinBytes(long minBytes) {
        this.minBytes = minBytes;
    }

    /** The rows of the record last added. */
    int lastAddedRows() {
        return lastAdded;
    }

    /** Adds one record ({@link #lastAddedRows} rows); returns what that did to the block. */
    Fill add(IN element) {
        lastAdded = 0;
        if (columnar) {
            Block block = converter.toBlock(element);
            int rows = block.rows();
            if (rows == 0) {
                return Fill.FILLING;
            }
            chunks.add(block);
            chunkRows += rows;
            currentBytes += block.byteSize();
            currentRetained += RetainedMemory.of(block);
            lastAdded = rows;
            return (minRows > 0 && chunkRows >= minRows)
                            || (minBytes > 0 && currentBytes >= minBytes)
                    ? Fill.FULL
                    : Fill.MEASURED;
        }
        int before = current.rows();
        converter.append(element, current);
        int added = current.rows() - before;
        lastAdded = added;
        if (minRows > 0 && current.rows() >= minRows) {
            return Fill.FULL;
        }
        if (minBytes <= 0) {
            return Fill.FILLING;
        }
        rowsSinceCheck += added;
        if (rowsSinceCheck < nextCheckAt) {
            return Fill.FILLING;
        }
        rowsSinceCheck = 0;
        currentBytes = current.byteSize();
        currentRetained = RetainedMemory.of(current);
        if (currentBytes >= minBytes) {
            return Fill.FULL;
        }
        int rows = Math.max(1, current.rows());
        double perRow = Math.max(1.0, (double) currentBytes / rows);
        long remainingRows = (long) ((minBytes - currentBytes) / perRow);
        nextCheckAt = Math.max(1, Math.min(4096, remainingRows / 2));
        return Fill.MEASURED;
    }

    /** The heap the block being filled holds, as last measured. */
    long retainedBytes() {
        return currentRetained;
    }

    /** The block filled so far, completed, and a new empty one in its place; null when empty. */
    Taken take() {
        if (columnar) {
            if (chunks.isEmpty()) {
                return null;
            }
            BlockChunks full = BlockChunks.of(chunks);
            long bytes = currentBytes;
            long retained = Math.max(currentRetained, bytes);
            chunks = new ArrayList<>();
            chunkRows = 0;
            currentBytes = 0;
            currentRetained = 0;
            return new Taken(full, bytes, retained);
        }
        if (current.rows() == 0) {
            return null;
        }
        long retained = RetainedMemory.of(current);
        Block full = converter.complete(current);
        long bytes = full.byteSize();
        retained = Math.max(retained, bytes);
        current = newBlockLike(full);
        rowsSinceCheck = 0;
        nextCheckAt = 1;
        currentBytes = 0;
        currentRetained = RetainedMemory.of(current);
        return new Taken(BlockChunks.of(full), bytes, retained);
    }

    private Block newBlock() {
        int cap = minRows > 0 ? (int) Math.min(minRows, 65536) : 8192;
        return Block.empty(layout.columnNames(), layout.columnTypes(), cap);
    }

    /**
     * The next insert block, sized like the one just flushed (rows, and string bytes per row): a
     * block that grew by doubling would copy all its values once more on the way.
     */
    private Block newBlockLike(Block flushed) {
        int rows = flushed.rows();
        if (rows <= 65536
                || !flushed.names().equals(layout.columnNames())
                || !flushed.types().equals(layout.columnTypes())) {
            return newBlock();
        }
        return flushed.newEmpty((int) Math.min(rows, minRows > 0 ? minRows : rows));
    }
}
