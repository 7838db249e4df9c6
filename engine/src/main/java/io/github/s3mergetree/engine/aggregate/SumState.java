package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/** {@code sum(x)}: the total in the sum type (see {@link SumAccumulator}), nothing else. */
final class SumState extends StateFunction<SumAccumulator> {
    private final DataType argument;

    SumState(DataType argument) {
        this.argument = argument;
    }

    @Override
    SumAccumulator create() {
        return new SumAccumulator(argument);
    }

    @Override
    SumAccumulator read(ByteSource in) {
        SumAccumulator s = create();
        s.read(in);
        return s;
    }

    @Override
    void write(SumAccumulator state, ByteSink out) {
        state.write(out);
    }

    @Override
    void add(SumAccumulator state, byte[][] arguments) {
        state.add(arguments[0]);
    }

    @Override
    void merge(SumAccumulator into, SumAccumulator from) {
        into.merge(from);
    }
}
