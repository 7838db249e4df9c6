package io.github.s3mergetree.engine.format;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;

/**
 * ClickHouse's {@code RowBinary} format: rows one after another, each value in its single-value
 * binary form. Used to exchange exact, typed data with ClickHouse ({@code SELECT ... FORMAT
 * RowBinary}, {@code file(..., RowBinary, 'structure')}).
 */
public final class RowBinary {
    private RowBinary() {}

    /** Decodes all rows of {@code data} into a block with the given columns. */
    public static Block read(byte[] data, List<String> names, List<DataType> types, String what) {
        Block block = Block.empty(names, types, 1024);
        ByteArraySource in = new ByteArraySource(data, what);
        int row = 0;
        while (!in.eof()) {
            int start = in.position();
            for (int c = 0; c < types.size(); c++) {
                try {
                    ValueSerde.read(types.get(c), in, block.column(c));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(
                            "cannot read RowBinary "
                                    + what
                                    + ": row "
                                    + row
                                    + " (offset "
                                    + start
                                    + "), column "
                                    + names.get(c)
                                    + " "
                                    + types.get(c).name()
                                    + ": "
                                    + e.getMessage(),
                            e);
                }
            }
            row++;
        }
        return block;
    }

    /** Encodes every row of {@code block}. */
    public static byte[] write(Block block) {
        ByteArraySink out = new ByteArraySink(1 << 16);
        for (int r = 0; r < block.rows(); r++) {
            for (int c = 0; c < block.columnCount(); c++) {
                ValueSerde.write(block.types().get(c), block.column(c), r, out);
            }
        }
        return out.toByteArray();
    }
}
