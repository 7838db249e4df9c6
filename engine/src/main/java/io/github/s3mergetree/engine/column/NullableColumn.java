package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.PhysicalType;
import java.util.ArrayList;
import java.util.List;

/**
 * A Nullable column: a null map (1 = NULL) plus the nested column, which holds the nested type's
 * default value in NULL rows (that is what ClickHouse writes under NULL).
 */
public final class NullableColumn implements Column {
    private final ByteColumn nullMap;
    private final Column nested;

    public NullableColumn(ByteColumn nullMap, Column nested) {
        this.nullMap = nullMap;
        this.nested = nested;
    }

    public ByteColumn nullMap() {
        return nullMap;
    }

    public Column nested() {
        return nested;
    }

    public boolean isNull(int row) {
        return nullMap.get(row) != 0;
    }

    /** Appends a NULL (the nested column gets its default). */
    public void addNull() {
        nullMap.add((byte) 1);
        nested.appendDefault();
    }

    /** Marks the value just appended to {@link #nested()} as present. */
    public void addNotNull() {
        nullMap.add((byte) 0);
    }

    /** Marks the {@code count} values just appended to {@link #nested()} as present. */
    public void addNotNull(int count) {
        int s = nullMap.size();
        byte[] map = nullMap.reserve(count);
        java.util.Arrays.fill(map, s, s + count, (byte) 0);
        nullMap.setSize(s + count);
    }

    @Override
    public int size() {
        return nullMap.size();
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.NULLABLE;
    }

    @Override
    public NullableColumn newEmpty(int capacity) {
        return new NullableColumn(new ByteColumn(capacity), nested.newEmpty(capacity));
    }

    @Override
    public void appendRange(Column src, int from, int to) {
        NullableColumn s = (NullableColumn) src;
        nullMap.appendRange(s.nullMap, from, to);
        nested.appendRange(s.nested, from, to);
    }

    @Override
    public void appendDefault() {
        addNull();
    }

    @Override
    public NullableColumn gather(
            List<? extends Column> chunks, int[] chunkOf, int[] rowOf, int length) {
        List<ByteColumn> maps = new ArrayList<>(chunks.size());
        List<Column> nesteds = new ArrayList<>(chunks.size());
        for (Column c : chunks) {
            maps.add(((NullableColumn) c).nullMap);
            nesteds.add(((NullableColumn) c).nested);
        }
        return new NullableColumn(
                nullMap.gather(maps, chunkOf, rowOf, length),
                nested.gather(nesteds, chunkOf, rowOf, length));
    }

    @Override
    public NullableColumn permute(int[] perm, int length) {
        return new NullableColumn(nullMap.permute(perm, length), nested.permute(perm, length));
    }

    @Override
    public long byteSize() {
        return nullMap.byteSize() + nested.byteSize();
    }

    @Override
    public void clear() {
        nullMap.clear();
        nested.clear();
    }

    @Override
    public void truncate(int rows) {
        if (rows < 0 || rows > size()) {
            throw new IllegalArgumentException("cannot truncate " + size() + " rows to " + rows);
        }
        nullMap.truncate(rows);
        nested.truncate(rows);
    }
}
