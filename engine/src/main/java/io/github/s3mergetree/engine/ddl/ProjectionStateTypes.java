package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;

/**
 * Which argument types the aggregates of an aggregating projection ({@link ProjectionDefinition})
 * may have here, and the type a {@code sum} state holds: the part of ClickHouse's aggregate
 * function factory the projection states need ({@code AggregateFunctionSum}'s result types, {@code
 * SingleValueDataFixed} for {@code min}/{@code max}).
 *
 * <p>Why so narrow: these are the states a projection's writer serializes itself (a count, a sum of
 * a 64-bit integer or a Float64, a flag and a fixed-width value); everything else is refused when
 * the table is declared, so no part is written with states ClickHouse would read otherwise.
 */
public final class ProjectionStateTypes {
    private ProjectionStateTypes() {}

    /**
     * The type {@code sum(x)} accumulates in for an {@code x} of type {@code argument}: UInt64 for
     * unsigned integers, Int64 for signed ones, Float64 for floating point; null when unsupported.
     */
    public static DataType sumResultType(DataType argument) {
        return switch (argument.kind()) {
            case UINT8, UINT16, UINT32, UINT64 -> plain(argument) ? DataTypes.UINT64 : null;
            case INT8, INT16, INT32, INT64 -> plain(argument) ? DataTypes.INT64 : null;
            case FLOAT32, FLOAT64 -> plain(argument) ? DataTypes.FLOAT64 : null;
            default -> null;
        };
    }

    /**
     * Whether {@code min}/{@code max} of {@code argument} keep a {@code SingleValueDataFixed} state
     * here: integers up to 64 bits, floating point, Date, Date32 and DateTime.
     */
    public static boolean supportsMinMax(DataType argument) {
        return switch (argument.kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    FLOAT32,
                    FLOAT64,
                    DATE,
                    DATE32,
                    DATETIME ->
                    plain(argument);
            default -> false;
        };
    }

    /** Not a {@code SimpleAggregateFunction} or Bool (stored like UInt8, but named otherwise). */
    private static boolean plain(DataType t) {
        return t.simpleAggregateFunction() == null && !t.name().equals("Bool");
    }
}
