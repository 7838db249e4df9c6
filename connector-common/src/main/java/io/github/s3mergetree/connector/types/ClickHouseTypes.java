package io.github.s3mergetree.connector.types;

import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DateTime64Type;
import io.github.s3mergetree.engine.types.DateTimeType;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.MapType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The one mapping between ClickHouse column types and Flink SQL types, used in both directions: by
 * the MergeTree sink to derive a table's DDL from a Flink schema ({@link #fromFlink}) and by the S3
 * source to type the {@code RowData} it produces from a ClickHouse schema ({@link #toFlink}).
 *
 * <p>Flink → ClickHouse takes the narrowest type holding every value (BIGINT → Int64, DATE →
 * Date32, TIMESTAMP(p) → DateTime64(p), TIMESTAMP_LTZ(p) → DateTime64(p, 'UTC'), STRING/BYTES →
 * String, ROW → named Tuple, ...). ClickHouse → Flink takes the Flink type holding every value of
 * the column exactly; a Flink type written back by the sink gives the column type again:
 *
 * <table>
 *   <caption>ClickHouse → Flink</caption>
 *   <tr><th>ClickHouse</th><th>Flink</th></tr>
 *   <tr><td>Bool</td><td>BOOLEAN</td></tr>
 *   <tr><td>Int8, Int16, Int32, Int64</td><td>TINYINT, SMALLINT, INT, BIGINT</td></tr>
 *   <tr><td>UInt8, UInt16, UInt32</td><td>SMALLINT, INT, BIGINT (the next wider signed)</td></tr>
 *   <tr><td>UInt64</td><td>DECIMAL(20, 0)</td></tr>
 *   <tr><td>Int128, UInt128, Int256, UInt256</td><td>STRING (decimal digits)</td></tr>
 *   <tr><td>Float32, Float64</td><td>FLOAT, DOUBLE</td></tr>
 *   <tr><td>Decimal(P, S)</td><td>DECIMAL(P, S) up to P = 38; STRING above</td></tr>
 *   <tr><td>String</td><td>STRING (the bytes as they are)</td></tr>
 *   <tr><td>FixedString(N)</td><td>BINARY(N)</td></tr>
 *   <tr><td>Date, Date32</td><td>DATE</td></tr>
 *   <tr><td>DateTime, DateTime64(p)</td><td>TIMESTAMP(0), TIMESTAMP(p): the wall-clock time in
 *       the session time zone</td></tr>
 *   <tr><td>DateTime('tz'), DateTime64(p, 'tz')</td><td>TIMESTAMP_LTZ(0), TIMESTAMP_LTZ(p): the
 *       instant</td></tr>
 *   <tr><td>UUID, IPv4, IPv6</td><td>STRING (ClickHouse's text form)</td></tr>
 *   <tr><td>Enum8, Enum16</td><td>STRING (the element's name)</td></tr>
 *   <tr><td>LowCardinality(T)</td><td>the type of T</td></tr>
 *   <tr><td>Nullable(T)</td><td>the type of T, nullable; every other column is NOT NULL</td></tr>
 *   <tr><td>Array(T), Map(K, V)</td><td>ARRAY&lt;T&gt;, MAP&lt;K, V&gt;</td></tr>
 *   <tr><td>Tuple(a T1, b T2), Tuple(T1, T2)</td><td>ROW&lt;a T1, b T2&gt;, ROW&lt;f0 T1, f1
 *       T2&gt;</td></tr>
 * </table>
 */
@Internal
public final class ClickHouseTypes {
    /** The widest DECIMAL precision Flink has. */
    public static final int MAX_FLINK_DECIMAL_PRECISION = 38;

    private ClickHouseTypes() {}

    /**
     * The ClickHouse type name for Flink type {@code t}. Nullable scalars become {@code
     * Nullable(T)}; composite types cannot be Nullable in ClickHouse, and a NULL there is stored as
     * the type's default.
     */
    public static String fromFlink(LogicalType t) {
        String base = base(t);
        return t.isNullable() && !isComposite(t) ? "Nullable(" + base + ")" : base;
    }

    private static boolean isComposite(LogicalType t) {
        switch (t.getTypeRoot()) {
            case ARRAY:
            case MAP:
            case MULTISET:
            case ROW:
                return true;
            default:
                return false;
        }
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
                return "Array("
                        + fromFlink(
                                ((org.apache.flink.table.types.logical.ArrayType) t)
                                        .getElementType())
                        + ")";
            case MAP:
                org.apache.flink.table.types.logical.MapType m =
                        (org.apache.flink.table.types.logical.MapType) t;
                return "Map(" + base(m.getKeyType()) + ", " + fromFlink(m.getValueType()) + ")";
            case MULTISET:
                return "Map(" + base(((MultisetType) t).getElementType()) + ", Int32)";
            case ROW:
                RowType r = (RowType) t;
                StringBuilder s = new StringBuilder("Tuple(");
                for (int i = 0; i < r.getFieldCount(); i++) {
                    s.append(i > 0 ? ", " : "")
                            .append(quote(r.getFieldNames().get(i)))
                            .append(' ')
                            .append(fromFlink(r.getTypeAt(i)));
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

    /**
     * The Flink type holding every value of a ClickHouse column of type {@code ch} (see the table
     * above).
     *
     * @throws IllegalArgumentException for a type without a mapping
     */
    public static LogicalType toFlink(DataType ch) {
        if (ch instanceof NullableType n) {
            return toFlink(n.nested()).copy(true);
        }
        return notNull(ch);
    }

    private static LogicalType notNull(DataType ch) {
        if (ch instanceof LowCardinalityType lc) {
            // LowCardinality(Nullable(T)) holds NULLs: nullable as Nullable(T) is
            return toFlink(lc.nested());
        }
        switch (ch.kind()) {
            case BOOL:
                return new BooleanType(false);
            case INT8:
                return new TinyIntType(false);
            case INT16:
            case UINT8:
                return new SmallIntType(false);
            case INT32:
            case UINT16:
                return new IntType(false);
            case INT64:
            case UINT32:
                return new BigIntType(false);
            case UINT64:
                return new DecimalType(false, 20, 0);
            case INT128:
            case UINT128:
            case INT256:
            case UINT256:
                return new VarCharType(false, VarCharType.MAX_LENGTH);
            case FLOAT32:
                return new FloatType(false);
            case FLOAT64:
                return new DoubleType(false);
            case DECIMAL:
                io.github.s3mergetree.engine.types.DecimalType d =
                        (io.github.s3mergetree.engine.types.DecimalType) ch;
                return d.precision() <= MAX_FLINK_DECIMAL_PRECISION
                        ? new DecimalType(false, d.precision(), d.scale())
                        : new VarCharType(false, VarCharType.MAX_LENGTH);
            case STRING:
            case UUID:
            case IPV4:
            case IPV6:
            case ENUM8:
            case ENUM16:
                return new VarCharType(false, VarCharType.MAX_LENGTH);
            case FIXED_STRING:
                return new BinaryType(false, ((FixedStringType) ch).length());
            case DATE:
            case DATE32:
                return new DateType(false);
            case DATETIME:
                return ((DateTimeType) ch).timeZone().isPresent()
                        ? new LocalZonedTimestampType(false, 0)
                        : new TimestampType(false, 0);
            case DATETIME64:
                DateTime64Type t = (DateTime64Type) ch;
                return t.timeZone().isPresent()
                        ? new LocalZonedTimestampType(false, t.precision())
                        : new TimestampType(false, t.precision());
            case ARRAY:
                return new org.apache.flink.table.types.logical.ArrayType(
                        false, toFlink(((ArrayType) ch).element()));
            case MAP:
                MapType m = (MapType) ch;
                return new org.apache.flink.table.types.logical.MapType(
                        false, toFlink(m.key()), toFlink(m.value()));
            case TUPLE:
                TupleType tuple = (TupleType) ch;
                List<RowType.RowField> fields = new ArrayList<>();
                List<String> names = tuple.names().orElse(null);
                for (int i = 0; i < tuple.elements().size(); i++) {
                    fields.add(
                            new RowType.RowField(
                                    names != null ? names.get(i) : "f" + i,
                                    toFlink(tuple.elements().get(i))));
                }
                return new RowType(false, fields);
            case AGGREGATE_FUNCTION:
                throw new IllegalArgumentException(
                        "ClickHouse type "
                                + ch.name()
                                + " has no Flink type: a state column is written from plain values"
                                + " of its argument types (the sink makes each row's state) and"
                                + " cannot be read as a Flink value");
            default:
                throw new IllegalArgumentException(
                        "ClickHouse type " + ch.name() + " has no Flink type here");
        }
    }

    /** A ClickHouse identifier in back quotes. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }
}
