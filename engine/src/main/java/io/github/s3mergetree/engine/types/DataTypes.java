package io.github.s3mergetree.engine.types;

import static io.github.s3mergetree.engine.types.PhysicalType.BYTE;
import static io.github.s3mergetree.engine.types.PhysicalType.DOUBLE;
import static io.github.s3mergetree.engine.types.PhysicalType.FIXED_BYTES;
import static io.github.s3mergetree.engine.types.PhysicalType.FLOAT;
import static io.github.s3mergetree.engine.types.PhysicalType.INT;
import static io.github.s3mergetree.engine.types.PhysicalType.LONG;
import static io.github.s3mergetree.engine.types.PhysicalType.SHORT;
import static io.github.s3mergetree.engine.types.PhysicalType.STRING;

/** The parameterless ClickHouse types as constants. */
public final class DataTypes {
    private DataTypes() {}

    public static final PrimitiveType UINT8 = p(TypeKind.UINT8, "UInt8", BYTE, 1, true);
    public static final PrimitiveType UINT16 = p(TypeKind.UINT16, "UInt16", SHORT, 2, true);
    public static final PrimitiveType UINT32 = p(TypeKind.UINT32, "UInt32", INT, 4, true);
    public static final PrimitiveType UINT64 = p(TypeKind.UINT64, "UInt64", LONG, 8, true);
    public static final PrimitiveType UINT128 =
            p(TypeKind.UINT128, "UInt128", FIXED_BYTES, 16, true);
    public static final PrimitiveType UINT256 =
            p(TypeKind.UINT256, "UInt256", FIXED_BYTES, 32, true);
    public static final PrimitiveType INT8 = p(TypeKind.INT8, "Int8", BYTE, 1, false);
    public static final PrimitiveType INT16 = p(TypeKind.INT16, "Int16", SHORT, 2, false);
    public static final PrimitiveType INT32 = p(TypeKind.INT32, "Int32", INT, 4, false);
    public static final PrimitiveType INT64 = p(TypeKind.INT64, "Int64", LONG, 8, false);
    public static final PrimitiveType INT128 = p(TypeKind.INT128, "Int128", FIXED_BYTES, 16, false);
    public static final PrimitiveType INT256 = p(TypeKind.INT256, "Int256", FIXED_BYTES, 32, false);
    public static final PrimitiveType FLOAT32 = p(TypeKind.FLOAT32, "Float32", FLOAT, 4, false);
    public static final PrimitiveType FLOAT64 = p(TypeKind.FLOAT64, "Float64", DOUBLE, 8, false);
    public static final PrimitiveType BOOL = p(TypeKind.BOOL, "Bool", BYTE, 1, true);
    public static final PrimitiveType STRING_TYPE = p(TypeKind.STRING, "String", STRING, -1, true);
    public static final PrimitiveType DATE = p(TypeKind.DATE, "Date", SHORT, 2, true);
    public static final PrimitiveType DATE32 = p(TypeKind.DATE32, "Date32", INT, 4, false);
    public static final PrimitiveType UUID = p(TypeKind.UUID, "UUID", FIXED_BYTES, 16, true);
    public static final PrimitiveType IPV4 = p(TypeKind.IPV4, "IPv4", INT, 4, true);
    public static final PrimitiveType IPV6 = p(TypeKind.IPV6, "IPv6", FIXED_BYTES, 16, true);

    private static PrimitiveType p(
            TypeKind kind, String name, PhysicalType physical, int width, boolean unsigned) {
        return new PrimitiveType(kind, name, physical, width, unsigned);
    }
}
