package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code groupArray[(max_size)](x)}: the values in arrival order as a VarUInt count followed by
 * each value's single-value binary form; with {@code max_size} only the first {@code max_size}
 * values are kept (also when merging). NULLs of a Nullable argument are skipped and the values are
 * the nested type's, without a flag byte, as ClickHouse's Null combinator does for groupArray.
 */
final class GroupArrayState extends StateFunction<List<byte[]>> {
    private final DataType element;
    private final boolean nullableArgument;
    private final long maxSize;

    GroupArrayState(DataType element, boolean nullableArgument, long maxSize) {
        this.element = element;
        this.nullableArgument = nullableArgument;
        this.maxSize = maxSize;
    }

    @Override
    List<byte[]> create() {
        return new ArrayList<>();
    }

    @Override
    List<byte[]> read(ByteSource in) {
        int n = ArgumentValues.checkSize(in.readVarUInt(), "groupArray size");
        if (n > maxSize) {
            throw new IllegalArgumentException(
                    "groupArray state of " + n + " values exceeds max_size " + maxSize);
        }
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            values.add(ArgumentValues.read(element, in));
        }
        return values;
    }

    @Override
    void write(List<byte[]> state, ByteSink out) {
        out.writeVarUInt(state.size());
        for (byte[] v : state) {
            out.write(v, 0, v.length);
        }
    }

    @Override
    void add(List<byte[]> state, byte[][] arguments) {
        byte[] v = arguments[0];
        if (nullableArgument) {
            if (ArgumentValues.isNull(v)) {
                return;
            }
            v = ArgumentValues.nested(v);
        }
        if (state.size() < maxSize) {
            state.add(v);
        }
    }

    @Override
    void merge(List<byte[]> into, List<byte[]> from) {
        for (byte[] v : from) {
            if (into.size() >= maxSize) {
                return;
            }
            into.add(v);
        }
    }
}
