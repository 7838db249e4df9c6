package io.github.s3mergetree.engine.types;

/**
 * {@code Array(T)}: per-row element counts in a {@code .size<k>} stream, elements in T's streams.
 */
public final class ArrayType extends DataType {
    private final DataType element;

    public ArrayType(DataType element) {
        super(TypeKind.ARRAY);
        this.element = element;
    }

    public DataType element() {
        return element;
    }

    @Override
    protected String plainName() {
        return "Array(" + element.name() + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.ARRAY;
    }
}
