package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.ArrayList;
import java.util.List;

/** A Tuple column: one column per element, all of the same length. */
public final class TupleColumn implements Column {
    private final Column[] elements;

    public TupleColumn(Column[] elements) {
        if (elements.length == 0) {
            throw new IllegalArgumentException("a tuple column needs at least one element");
        }
        this.elements = elements;
    }

    public Column element(int i) {
        return elements[i];
    }

    public int arity() {
        return elements.length;
    }

    @Override
    public int size() {
        return elements[0].size();
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.TUPLE;
    }

    @Override
    public TupleColumn newEmpty(int capacity) {
        Column[] e = new Column[elements.length];
        for (int i = 0; i < e.length; i++) {
            e[i] = elements[i].newEmpty(capacity);
        }
        return new TupleColumn(e);
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        TupleColumn s = (TupleColumn) src;
        for (int i = 0; i < elements.length; i++) {
            elements[i].appendRange(s.elements[i], from, to);
        }
    }

    @Override
    public void appendDefault() {
        for (Column e : elements) {
            e.appendDefault();
        }
    }

    @Override
    public TupleColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        Column[] e = new Column[elements.length];
        for (int i = 0; i < e.length; i++) {
            List<Column> parts = new ArrayList<>(chunks.size());
            for (Column c : chunks) {
                parts.add(((TupleColumn) c).elements[i]);
            }
            e[i] = elements[i].gather(parts, chunkOf, rowOf, length);
        }
        return new TupleColumn(e);
    }

    @Override
    public TupleColumn permute(int[] perm, int length) {
        Column[] e = new Column[elements.length];
        for (int i = 0; i < e.length; i++) {
            e[i] = elements[i].permute(perm, length);
        }
        return new TupleColumn(e);
    }

    @Override
    public long byteSize() {
        long b = 0;
        for (Column e : elements) {
            b += e.byteSize();
        }
        return b;
    }

    @Override
    public void clear() {
        for (Column e : elements) {
            e.clear();
        }
    }

    @Override
    public void truncate(int rows) {
        if (rows < 0 || rows > size()) {
            throw new IllegalArgumentException("cannot truncate " + size() + " rows to " + rows);
        }
        for (Column e : elements) {
            e.truncate(rows);
        }
    }
}
