package io.github.s3mergetree.sink.mergetree.table;

import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The ClickHouse column type a Flink SQL type maps to when the sink derives a table's DDL from the
 * Flink schema: the narrowest type holding every value (BIGINT → Int64, DATE → Date32, TIMESTAMP(p)
 * → DateTime64(p), TIMESTAMP_LTZ(p) → DateTime64(p, 'UTC'), STRING/BYTES → String, ROW → named
 * Tuple, ...). Nullable scalars become {@code Nullable(T)}; composite types cannot be Nullable in
 * ClickHouse, and a NULL there is stored as the type's default.
 */
@Internal
public final class ClickHouseTypes {
    private ClickHouseTypes() {}

    /** The ClickHouse type name for {@code t}. */
    public static String of(LogicalType t) {
        String base = base(t);
        boolean composite =
                t instanceof ArrayType
                        || t instanceof MapType
                        || t instanceof MultisetType
                        || t instanceof RowType;
        return t.isNullable() && !composite ? "Nullable(" + base + ")" : base;
    }

    private static String notNull(LogicalType t) {
        return base(t);
    }

    private static String base(LogicalType t) {
        switch (t.getTypeRoot()) {
            case BOOLEAN:
                return "Bool";
            case TINYINT:
                return "Int8";
            case SMALLINT:
                return "Int16";
            case INTEGER:
                return "Int32";
            case BIGINT:
                return "Int64";
            case FLOAT:
                return "Float32";
            case DOUBLE:
                return "Float64";
            case DECIMAL:
                DecimalType d = (DecimalType) t;
                return "Decimal(" + d.getPrecision() + ", " + d.getScale() + ")";
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return "String";
            case DATE:
                return "Date32";
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return "DateTime64(" + Math.min(9, ((TimestampType) t).getPrecision()) + ")";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return "DateTime64("
                        + Math.min(9, ((LocalZonedTimestampType) t).getPrecision())
                        + ", 'UTC')";
            case ARRAY:
                return "Array(" + of(((ArrayType) t).getElementType()) + ")";
            case MAP:
                MapType m = (MapType) t;
                return "Map(" + notNull(m.getKeyType()) + ", " + of(m.getValueType()) + ")";
            case MULTISET:
                return "Map(" + notNull(((MultisetType) t).getElementType()) + ", Int32)";
            case ROW:
                RowType r = (RowType) t;
                StringBuilder s = new StringBuilder("Tuple(");
                for (int i = 0; i < r.getFieldCount(); i++) {
                    s.append(i > 0 ? ", " : "")
                            .append(quote(r.getFieldNames().get(i)))
                            .append(' ')
                            .append(of(r.getTypeAt(i)));
                }
                return s.append(')').toString();
            default:
                throw new IllegalArgumentException(
                        "Flink type "
                                + t.asSummaryString()
                                + " has no ClickHouse column type here;"
                                + " give the table's DDL with the 'ddl' option");
        }
    }

    /** A ClickHouse identifier in back quotes. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }
}
