package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.types.DataType;

/**
 * {@code avg(x)}: the numerator as sum's total ({@link SumAccumulator}) followed by the row count
 * as a VarUInt (ClickHouse's {@code AggregateFunctionAvg}, denominator UInt64).
 */
final class AvgState extends StateFunction<AvgState.Fraction> {
    private final DataType argument;

    /** Numerator and denominator. */
    static final class Fraction {
        final SumAccumulator numerator;
        long count;

        Fraction(SumAccumulator numerator) {
            this.numerator = numerator;
        }
    }

    AvgState(DataType argument) {
        this.argument = argument;
    }

    @Override
    Fraction create() {
        return new Fraction(new SumAccumulator(argument));
    }

    @Override
    Fraction read(ByteSource in) {
        Fraction f = create();
        f.numerator.read(in);
        f.count = in.readVarUInt();
        return f;
    }

    @Override
    void write(Fraction state, ByteSink out) {
        state.numerator.write(out);
        out.writeVarUInt(state.count);
    }

    @Override
    void add(Fraction state, byte[][] arguments) {
        state.numerator.add(arguments[0]);
        state.count++;
    }

    @Override
    void merge(Fraction into, Fraction from) {
        into.numerator.merge(from.numerator);
        into.count += from.count;
    }
}
