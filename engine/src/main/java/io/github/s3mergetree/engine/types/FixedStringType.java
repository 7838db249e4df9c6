package io.github.s3mergetree.engine.types;

/** {@code FixedString(N)}: exactly N bytes per value, zero-padded. */
public final class FixedStringType extends DataType {
    private final int length;

    public FixedStringType(int length) {
        super(TypeKind.FIXED_STRING);
        if (length <= 0 || length > 0xFFFFFF) {
            throw new IllegalArgumentException(
                    "FixedString length must be in [1, 16777215], got " + length);
        }
        this.length = length;
    }

    /** N, the number of bytes per value. */
    public int length() {
        return length;
    }

    @Override
    protected String plainName() {
        return "FixedString(" + length + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.FIXED_BYTES;
    }

    @Override
    public int fixedWidth() {
        return length;
    }
}
