package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;

/**
 * {@code count()} and {@code count(x)}: the number of rows (of non-NULL {@code x} for a Nullable
 * argument) as a VarUInt; a Nullable argument adds no flag byte (ClickHouse's {@code
 * AggregateFunctionCountNotNullUnary}).
 */
final class CountState extends StateFunction<long[]> {
    private final boolean nullableArgument;

    CountState(boolean nullableArgument) {
        this.nullableArgument = nullableArgument;
    }

    @Override
    long[] create() {
        return new long[1];
    }

    @Override
    long[] read(ByteSource in) {
        return new long[] {in.readVarUInt()};
    }

    @Override
    void write(long[] state, ByteSink out) {
        out.writeVarUInt(state[0]);
    }

    @Override
    void add(long[] state, byte[][] arguments) {
        if (!nullableArgument || !ArgumentValues.isNull(arguments[0])) {
            state[0]++;
        }
    }

    @Override
    void merge(long[] into, long[] from) {
        into[0] += from[0];
    }
}
