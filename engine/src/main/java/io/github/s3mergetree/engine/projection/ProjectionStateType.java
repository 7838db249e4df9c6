package io.github.s3mergetree.engine.projection;

import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.PhysicalType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.Objects;

/**
 * The type of an aggregate state column of an aggregating projection part, e.g. {@code
 * AggregateFunction(sum, UInt64)}: each value is one state already serialized as ClickHouse
 * serializes it ({@link ProjectionAggregation}), held in memory as the bytes of a String column and
 * written to the part's stream as they are, with no length in front (ClickHouse's {@code
 * SerializationAggregateFunction::serializeBinaryBulk} writes the states one after another).
 *
 * <p>Scope: only projection parts use it, only for {@code count}, {@code sum}, {@code min} and
 * {@code max} states. It must move onto the engine's {@code AggregateFunction} state columns (being
 * added to engine/types and engine/merge) once they land; it is kept apart from them so that there
 * is never a second general implementation.
 */
public final class ProjectionStateType extends DataType {
    private final String name;

    /** A state type named {@code name}, e.g. {@code AggregateFunction(count)}. */
    public ProjectionStateType(String name) {
        super(TypeKind.STRING);
        this.name = Objects.requireNonNull(name);
    }

    @Override
    protected String plainName() {
        return name;
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.STRING;
    }
}
