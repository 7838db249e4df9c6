package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/**
 * {@code argMin(result, value)} and {@code argMax(result, value)}: the result's {@link SingleValue}
 * then the value's; a row (or merged state) replaces both when its value is strictly less (argMin)
 * or greater (argMax) than the kept one.
 */
final class ArgMinMaxState extends StateFunction<ArgMinMaxState.Pair> {
    private final boolean max;
    private final SingleValue result;
    private final SingleValue value;

    /** The kept result and value (both null before the first row). */
    static final class Pair {
        byte[] result;
        byte[] value;
    }

    ArgMinMaxState(boolean max, DataType resultType, DataType valueType) {
        this.max = max;
        this.result = new SingleValue(resultType);
        this.value = new SingleValue(valueType);
    }

    @Override
    Pair create() {
        return new Pair();
    }

    @Override
    Pair read(ByteSource in) {
        Pair p = new Pair();
        p.result = result.read(in);
        p.value = value.read(in);
        return p;
    }

    @Override
    void write(Pair state, ByteSink out) {
        result.write(state.result, out);
        value.write(state.value, out);
    }

    @Override
    void add(Pair state, byte[][] arguments) {
        offer(state, arguments[0], arguments[1]);
    }

    @Override
    void merge(Pair into, Pair from) {
        if (from.value != null) {
            offer(into, from.result, from.value);
        }
    }

    private void offer(Pair state, byte[] r, byte[] v) {
        boolean take = max ? value.greater(v, state.value) : value.less(v, state.value);
        if (take) {
            state.result = r;
            state.value = v;
        }
    }
}
