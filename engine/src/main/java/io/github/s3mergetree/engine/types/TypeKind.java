package io.github.s3mergetree.engine.types;

/**
 * The ClickHouse data type families the engine supports. A {@link DataType} is one kind plus its
 * parameters (precision, time zone, nested types, ...).
 */
public enum TypeKind {
    UINT8,
    UINT16,
    UINT32,
    UINT64,
    UINT128,
    UINT256,
    INT8,
    INT16,
    INT32,
    INT64,
    INT128,
    INT256,
    FLOAT32,
    FLOAT64,
    BOOL,
    DECIMAL,
    STRING,
    FIXED_STRING,
    DATE,
    DATE32,
    DATETIME,
    DATETIME64,
    UUID,
    IPV4,
    IPV6,
    ENUM8,
    ENUM16,
    NULLABLE,
    LOW_CARDINALITY,
    ARRAY,
    TUPLE,
    MAP,
    /** {@code AggregateFunction(f, T...)}: serialized aggregate states. */
    AGGREGATE_FUNCTION
}
