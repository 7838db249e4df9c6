package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/**
 * A function with ClickHouse's {@code -Array} combinator ({@code groupArrayArray(x)} over {@code x
 * Array(T)}): the state is the nested function's state over the arrays' elements, so reading,
 * writing and merging are the nested function's; a row adds each element of its array in order.
 */
final class ArrayArgumentState<S> extends StateFunction<S> {
    private final StateFunction<S> nested;
    private final DataType element;

    ArrayArgumentState(StateFunction<S> nested, DataType element) {
        this.nested = nested;
        this.element = element;
    }

    @Override
    S create() {
        return nested.create();
    }

    @Override
    S read(ByteSource in) {
        return nested.read(in);
    }

    @Override
    void write(S state, ByteSink out) {
        nested.write(state, out);
    }

    @Override
    void add(S state, byte[][] arguments) {
        ByteArraySource in = new ByteArraySource(arguments[0], "array argument");
        int n = ArgumentValues.checkSize(in.readVarUInt(), "array size");
        for (int i = 0; i < n; i++) {
            nested.add(state, new byte[][] {ArgumentValues.read(element, in)});
        }
    }

    @Override
    void merge(S into, S from) {
        nested.merge(into, from);
    }
}
