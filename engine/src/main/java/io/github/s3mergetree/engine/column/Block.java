package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A set of equally long named, typed columns: the unit the engine sorts, splits by partition and
 * writes as a part (ClickHouse's {@code Block}).
 */
public final class Block {
    private final List<String> names;
    private final List<DataType> types;
    private final List<Column> columns;

    public Block(List<String> names, List<DataType> types, List<Column> columns) {
        if (names.size() != types.size() || names.size() != columns.size()) {
            throw new IllegalArgumentException(
                    "names/types/columns differ in count: "
                            + names.size()
                            + "/"
                            + types.size()
                            + "/"
                            + columns.size());
        }
        for (int i = 1; i < columns.size(); i++) {
            if (columns.get(i).size() != columns.get(0).size()) {
                throw new IllegalArgumentException(
                        "column "
                                + names.get(i)
                                + " has "
                                + columns.get(i).size()
                                + " rows, column "
                                + names.get(0)
                                + " has "
                                + columns.get(0).size());
            }
        }
        this.names = List.copyOf(names);
        this.types = List.copyOf(types);
        this.columns = Collections.unmodifiableList(new ArrayList<>(columns));
    }

    /** An empty block with one column per (name, type). */
    public static Block empty(List<String> names, List<DataType> types, int capacity) {
        List<Column> cols = new ArrayList<>(types.size());
        for (DataType t : types) {
            cols.add(Columns.create(t, capacity));
        }
        return new Block(names, types, cols);
    }

    public int rows() {
        return columns.isEmpty() ? 0 : columns.get(0).size();
    }

    public int columnCount() {
        return columns.size();
    }

    public List<String> names() {
        return names;
    }

    public List<DataType> types() {
        return types;
    }

    public List<Column> columns() {
        return columns;
    }

    public Column column(int i) {
        return columns.get(i);
    }

    /** The index of column {@code name}, or -1. */
    public int indexOf(String name) {
        return names.indexOf(name);
    }

    /** Uncompressed in-memory bytes of all columns. */
    public long byteSize() {
        long b = 0;
        for (Column c : columns) {
            b += c.byteSize();
        }
        return b;
    }

    /** A new block with rows in the order {@code perm[0..length)}. */
    public Block permute(int[] perm, int length) {
        List<Column> out = new ArrayList<>(columns.size());
        for (Column c : columns) {
            out.add(c.permute(perm, length));
        }
        return new Block(names, types, out);
    }

    /** Appends rows {@code [from, to)} of {@code src} (same names and types). */
    public void appendRange(Block src, int from, int to) {
        for (int i = 0; i < columns.size(); i++) {
            columns.get(i).appendRange(src.columns.get(i), from, to);
        }
    }

    /**
     * A summary for logs and debuggers, e.g. {@code Block(65536 rows, 2.1 MiB: id UInt64, title
     * String)}; values are not rendered (a block holds up to millions of rows).
     */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("Block(").append(rows()).append(" rows, ");
        long bytes = byteSize();
        if (bytes < 1024) {
            b.append(bytes).append(" B");
        } else if (bytes < 1024 * 1024) {
            b.append(String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0));
        } else {
            b.append(String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0));
        }
        b.append(':');
        for (int i = 0; i < names.size(); i++) {
            b.append(i > 0 ? ", " : " ").append(names.get(i)).append(' ').append(types.get(i));
        }
        return b.append(')').toString();
    }

    /** A new empty block of the same shape. */
    public Block newEmpty(int capacity) {
        List<Column> out = new ArrayList<>(columns.size());
        for (Column c : columns) {
            out.add(c.newEmpty(capacity));
        }
        return new Block(names, types, out);
    }
}
