package io.github.s3mergetree.engine.types;

/** {@code Nullable(T)}: a null map stream beside T's streams (T holds its default under NULL). */
public final class NullableType extends DataType {
    private final DataType nested;

    public NullableType(DataType nested) {
        super(TypeKind.NULLABLE);
        switch (nested.kind()) {
            case NULLABLE, ARRAY, MAP, TUPLE, LOW_CARDINALITY ->
                    throw new IllegalArgumentException(
                            "Nested type " + nested.name() + " cannot be inside Nullable type");
            default -> {}
        }
        this.nested = nested;
    }

    public DataType nested() {
        return nested;
    }

    @Override
    protected String plainName() {
        return "Nullable(" + nested.name() + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.NULLABLE;
    }

    @Override
    public DataType unwrapped() {
        return nested.unwrapped();
    }
}
