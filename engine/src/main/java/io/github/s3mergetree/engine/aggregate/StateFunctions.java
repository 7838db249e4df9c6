package io.github.s3mergetree.engine.aggregate;

import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Picks the {@link StateFunction} of an {@code AggregateFunction(f, T…)} type. */
public final class StateFunctions {
    private static final Map<String, StateFunction<?>> CACHE = new ConcurrentHashMap<>();

    private StateFunctions() {}

    /** The state format and operations of {@code type}'s function over its argument types. */
    public static StateFunction<?> of(AggregateFunctionType type) {
        return CACHE.computeIfAbsent(type.name(), n -> create(type));
    }

    /**
     * Whether {@code type}'s states start with the Null combinator's flag byte: sum, avg, min, max,
     * any, anyLast, uniqExact, uniq, uniqCombined and uniqCombined64 over a Nullable argument.
     * ClickHouse 18.16 serializes these states without the flag (count and groupArray of Nullable,
     * and every other supported state, are the same bytes in 18.16 and 26.x), so it cannot read
     * them from our parts.
     */
    public static boolean startsWithNullFlag(AggregateFunctionType type) {
        return of(type) instanceof NullableArgumentState<?>;
    }

    private static StateFunction<?> create(AggregateFunctionType type) {
        List<DataType> args = type.arguments();
        AggregateFunctionType.Function f = type.function();
        switch (f) {
            case COUNT -> {
                return new CountState(!args.isEmpty() && args.get(0) instanceof NullableType);
            }
            case ARG_MIN, ARG_MAX -> {
                return new ArgMinMaxState(
                        f == AggregateFunctionType.Function.ARG_MAX, args.get(0), args.get(1));
            }
            case GROUP_ARRAY -> {
                DataType a = args.get(0);
                boolean nullable = a instanceof NullableType;
                return new GroupArrayState(
                        nullable ? ((NullableType) a).nested() : a, nullable, type.maxSize());
            }
            case GROUP_ARRAY_ARRAY -> {
                DataType e = ((ArrayType) args.get(0)).element();
                boolean nullable = e instanceof NullableType;
                return new ArrayArgumentState<>(
                        new GroupArrayState(
                                nullable ? ((NullableType) e).nested() : e,
                                nullable,
                                type.maxSize()),
                        e);
            }
            default -> {}
        }
        DataType a = args.get(0);
        DataType plain = a instanceof NullableType n ? n.nested() : a;
        StateFunction<?> nested =
                switch (f) {
                    case SUM -> new SumState(plain);
                    case AVG -> new AvgState(plain);
                    case ANY, ANY_LAST, MIN, MAX -> new SelectingState(f, plain);
                    case UNIQ_EXACT -> new UniqExactState(plain);
                    case UNIQ -> new UniqState(plain);
                    case UNIQ_COMBINED -> new UniqCombinedState(plain, false);
                    case UNIQ_COMBINED_64 -> new UniqCombinedState(plain, true);
                    default -> throw new IllegalStateException(f.name());
                };
        return a instanceof NullableType
                ? new NullableArgumentState<>(
                        nested,
                        switch (f) {
                            // uniqCombined's result over Nullable is Nullable in ClickHouse 26.7
                            case UNIQ_EXACT, UNIQ -> false;
                            default -> true;
                        })
                : nested;
    }
}
