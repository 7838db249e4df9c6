package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.DataType;

/**
 * any, anyLast, min and max: one {@link SingleValue} kept by the function's rule (first, last,
 * first of the least, first of the greatest; a NaN is kept only while no number replaces it, as in
 * ClickHouse).
 */
final class SelectingState extends StateFunction<SelectingState.Holder> {
    private final AggregateFunctionType.Function function;
    private final SingleValue value;

    /** The kept value, or null. */
    static final class Holder {
        byte[] value;
    }

    SelectingState(AggregateFunctionType.Function function, DataType argument) {
        this.function = function;
        this.value = new SingleValue(argument);
    }

    @Override
    Holder create() {
        return new Holder();
    }

    @Override
    Holder read(ByteSource in) {
        Holder h = new Holder();
        h.value = value.read(in);
        return h;
    }

    @Override
    void write(Holder state, ByteSink out) {
        value.write(state.value, out);
    }

    @Override
    void add(Holder state, byte[][] arguments) {
        offer(state, arguments[0]);
    }

    @Override
    void merge(Holder into, Holder from) {
        if (from.value != null) {
            offer(into, from.value);
        }
    }

    private void offer(Holder state, byte[] candidate) {
        boolean take =
                switch (function) {
                    case ANY -> state.value == null;
                    case ANY_LAST -> true;
                    case MIN -> value.less(candidate, state.value);
                    case MAX -> value.greater(candidate, state.value);
                    default -> throw new IllegalStateException(function.name());
                };
        if (take) {
            state.value = candidate;
        }
    }
}
