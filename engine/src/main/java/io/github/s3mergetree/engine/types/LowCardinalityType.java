package io.github.s3mergetree.engine.types;

/**
 * {@code LowCardinality(T)}: dictionary-encoded on disk. In memory the engine holds the plain
 * values of T (the dictionary is built when a part is written), so the physical type is T's.
 */
public final class LowCardinalityType extends DataType {
    private final DataType nested;

    public LowCardinalityType(DataType nested) {
        super(TypeKind.LOW_CARDINALITY);
        DataType inner = nested instanceof NullableType n ? n.nested() : nested;
        switch (inner.kind()) {
            case STRING,
                    FIXED_STRING,
                    DATE,
                    DATE32,
                    DATETIME,
                    UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    FLOAT32,
                    FLOAT64,
                    UUID,
                    IPV4,
                    IPV6 -> {}
            default ->
                    throw new IllegalArgumentException(
                            "LowCardinality of " + nested.name() + " is not supported");
        }
        this.nested = nested;
    }

    /** T, possibly Nullable. */
    public DataType nested() {
        return nested;
    }

    @Override
    protected String plainName() {
        return "LowCardinality(" + nested.name() + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return nested.physicalType();
    }

    @Override
    public int fixedWidth() {
        return -1;
    }

    @Override
    public boolean isUnsigned() {
        return nested.isUnsigned();
    }

    @Override
    public DataType unwrapped() {
        return nested.unwrapped();
    }
}
