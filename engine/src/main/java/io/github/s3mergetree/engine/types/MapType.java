package io.github.s3mergetree.engine.types;

import java.util.List;

/**
 * {@code Map(K, V)}: stored as {@code Array(Tuple(keys K, values V))} — streams {@code m.size0},
 * {@code m%2Ekeys}, {@code m%2Evalues}.
 */
public final class MapType extends DataType {
    private final DataType key;
    private final DataType value;
    private final ArrayType storage;

    public MapType(DataType key, DataType value) {
        super(TypeKind.MAP);
        this.key = key;
        this.value = value;
        this.storage = new ArrayType(new TupleType(List.of("keys", "values"), List.of(key, value)));
    }

    public DataType key() {
        return key;
    }

    public DataType value() {
        return value;
    }

    /** The equivalent {@code Array(Tuple(keys K, values V))} that defines the storage. */
    public ArrayType storageType() {
        return storage;
    }

    @Override
    protected String plainName() {
        return "Map(" + key.name() + ", " + value.name() + ")";
    }

    @Override
    public PhysicalType physicalType() {
        return PhysicalType.ARRAY;
    }
}
