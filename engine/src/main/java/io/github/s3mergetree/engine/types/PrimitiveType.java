package io.github.s3mergetree.engine.types;

/**
 * A parameterless type: integers, floats, Bool, String, Date, Date32, UUID, IPv4, IPv6. Use the
 * constants in {@link DataTypes}.
 */
public final class PrimitiveType extends DataType {
    private final String name;
    private final PhysicalType physical;
    private final int width;
    private final boolean unsigned;

    PrimitiveType(TypeKind kind, String name, PhysicalType physical, int width, boolean unsigned) {
        super(kind);
        this.name = name;
        this.physical = physical;
        this.width = width;
        this.unsigned = unsigned;
    }

    @Override
    protected String plainName() {
        return name;
    }

    @Override
    public PhysicalType physicalType() {
        return physical;
    }

    @Override
    public int fixedWidth() {
        return width;
    }

    @Override
    public boolean isUnsigned() {
        return unsigned;
    }
}
