package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;

/**
 * A function over a Nullable argument (sum, avg, min, max, any, anyLast, uniqExact, uniq,
 * uniqCombined, uniqCombined64): ClickHouse's Null combinator ({@code AggregateFunctionNullUnary}
 * with its flag) skips NULL rows and serializes a flag byte followed, when set, by the nested
 * function's state over the non-NULL values. For a function whose result is Nullable the flag says
 * whether a non-NULL row was aggregated; for one whose result is not (uniqExact, uniq) the flag is
 * always 1; uniqCombined's result over a Nullable argument is Nullable (NULL when no non-NULL row
 * was aggregated).
 */
final class NullableArgumentState<S> extends StateFunction<NullableArgumentState.Flagged<S>> {
    private final StateFunction<S> nested;
    private final boolean alwaysFlagged;

    /** The flag and the nested state. */
    static final class Flagged<S> {
        boolean hasValue;
        S state;
    }

    NullableArgumentState(StateFunction<S> nested, boolean resultNullable) {
        this.nested = nested;
        this.alwaysFlagged = !resultNullable;
    }

    @Override
    Flagged<S> create() {
        Flagged<S> f = new Flagged<>();
        f.hasValue = alwaysFlagged;
        f.state = nested.create();
        return f;
    }

    @Override
    Flagged<S> read(ByteSource in) {
        int flag = in.readByte();
        if (flag > 1) {
            throw new IllegalArgumentException(
                    "NULL flag " + flag + " of an aggregate state is neither 0 nor 1");
        }
        Flagged<S> f = new Flagged<>();
        f.hasValue = flag == 1;
        f.state = f.hasValue ? nested.read(in) : nested.create();
        return f;
    }

    @Override
    void write(Flagged<S> state, ByteSink out) {
        out.writeByte(state.hasValue ? 1 : 0);
        if (state.hasValue) {
            nested.write(state.state, out);
        }
    }

    @Override
    void add(Flagged<S> state, byte[][] arguments) {
        if (ArgumentValues.isNull(arguments[0])) {
            return;
        }
        state.hasValue = true;
        nested.add(state.state, new byte[][] {ArgumentValues.nested(arguments[0])});
    }

    @Override
    void merge(Flagged<S> into, Flagged<S> from) {
        if (from.hasValue) {
            into.hasValue = true;
            nested.merge(into.state, from.state);
        }
    }
}
