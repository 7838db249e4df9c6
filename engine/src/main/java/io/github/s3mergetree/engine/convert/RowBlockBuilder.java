package io.github.s3mergetree.engine.convert;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.types.DataType;
import java.time.ZoneId;
import java.util.List;

/**
 * Builds a {@link Block} from rows of Java values, converting each value with {@link
 * ValueConverter} (ClickHouse's INSERT casting rules). A row that fails to convert is rolled back,
 * so the block stays consistent, and the error names the table, column and row.
 */
public final class RowBlockBuilder {
    private final String table;
    private final ValueConverter converter;
    private Block block;
    private long rowsSeen;

    public RowBlockBuilder(String table, List<String> names, List<DataType> types, ZoneId zone) {
        this.table = table;
        this.converter = new ValueConverter(table, zone);
        this.block = Block.empty(names, types, 1024);
    }

    /** Appends one row; {@code values} are in column order. */
    public void addRow(Object... values) {
        if (values.length != block.columnCount()) {
            throw new ConversionException(
                    table,
                    "*",
                    rowsSeen,
                    "row has "
                            + values.length
                            + " values, table has "
                            + block.columnCount()
                            + " columns");
        }
        int before = block.rows();
        try {
            for (int c = 0; c < values.length; c++) {
                converter.append(
                        block.types().get(c),
                        block.column(c),
                        values[c],
                        block.names().get(c),
                        rowsSeen);
            }
        } catch (RuntimeException e) {
            truncate(before);
            throw e;
        } finally {
            rowsSeen++;
        }
    }

    private void truncate(int rows) {
        Block kept = block.newEmpty(Math.max(rows, 16));
        kept.appendRange(block, 0, rows);
        block = kept;
    }

    public int rows() {
        return block.rows();
    }

    /** The rows so far; the builder starts a new block. */
    public Block build() {
        Block out = block;
        block = block.newEmpty(1024);
        return out;
    }
}
