package io.github.s3mergetree.engine.types;

/**
 * How values of a {@link DataType} are held in memory by {@link
 * io.github.s3mergetree.engine.column.Column} vectors. Many logical types share one physical form
 * (Date and UInt16 are both 16-bit integers); the logical type decides signedness, ordering and
 * rendering.
 */
public enum PhysicalType {
    /** 8-bit integers: (U)Int8, Bool, Enum8. */
    BYTE,
    /** 16-bit integers: (U)Int16, Date, Enum16. */
    SHORT,
    /** 32-bit integers: (U)Int32, Date32, DateTime, IPv4, Decimal32. */
    INT,
    /** 64-bit integers: (U)Int64, DateTime64, Decimal64. */
    LONG,
    /** IEEE-754 single precision. */
    FLOAT,
    /** IEEE-754 double precision. */
    DOUBLE,
    /** Fixed-width byte strings: (U)Int128/256, Decimal128/256, UUID, IPv6, FixedString(N). */
    FIXED_BYTES,
    /** Variable-length byte strings. */
    STRING,
    /** A null map plus a nested column. */
    NULLABLE,
    /** Per-row offsets plus a nested element column. */
    ARRAY,
    /** One column per element. */
    TUPLE;

    /**
     * Bytes of one value of the fixed-width number forms ({@link #BYTE} … {@link #DOUBLE}), 0 for
     * the others: the stride of the loops that move such values to and from little-endian bytes.
     */
    public int valueBytes() {
        return switch (this) {
            case BYTE -> 1;
            case SHORT -> 2;
            case INT, FLOAT -> 4;
            case LONG, DOUBLE -> 8;
            default -> 0;
        };
    }
}
