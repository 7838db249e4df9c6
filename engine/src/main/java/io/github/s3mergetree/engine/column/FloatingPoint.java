package io.github.s3mergetree.engine.column;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.TypeKind;

/** Helpers for Float32/Float64 values, which ClickHouse's extremes and keys treat specially. */
public final class FloatingPoint {
    private FloatingPoint() {}

    /** Whether row {@code row} of a column of {@code type} holds a NaN. */
    public static boolean isNaN(DataType type, Column column, int row) {
        DataType t = type instanceof LowCardinalityType lc ? lc.nested() : type;
        if (t.kind() == TypeKind.FLOAT32 && column instanceof FloatColumn f) {
            return Float.isNaN(f.get(row));
        }
        if (t.kind() == TypeKind.FLOAT64 && column instanceof DoubleColumn d) {
            return Double.isNaN(d.get(row));
        }
        return false;
    }
}
