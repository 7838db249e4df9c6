package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;

/**
 * A constant: an integer (typed as the smallest of UInt8/16/32/64 or Int8/16/32/64 that holds it,
 * as ClickHouse types integer literals), a Float64, a String, a Bool ({@code true}/{@code false})
 * or {@code NULL} of a Nullable type.
 */
public final class Literal extends BaseExpr {

    /** The kind of constant. */
    public enum Kind {
        INTEGER,
        FLOAT,
        STRING,
        BOOL,
        NULL
    }

    private final Kind kind;
    private final DataType type;
    private final long longValue;
    private final double doubleValue;
    private final String stringValue;

    private Literal(Kind kind, DataType type, long l, double d, String s) {
        this.kind = kind;
        this.type = type;
        this.longValue = l;
        this.doubleValue = d;
        this.stringValue = s;
    }

    /** A signed integer literal typed as ClickHouse types it (UInt* if non-negative, else Int*). */
    public static Literal ofLong(long v) {
        return new Literal(Kind.INTEGER, integerTypeOf(v, false), v, 0, null);
    }

    /** An integer literal with the unsigned 64-bit value whose bits are {@code bits}. */
    public static Literal ofUnsignedLong(long bits) {
        return new Literal(Kind.INTEGER, integerTypeOf(bits, true), bits, 0, null);
    }

    /** A Float64 literal. */
    public static Literal ofDouble(double v) {
        return new Literal(Kind.FLOAT, DataTypes.FLOAT64, 0, v, null);
    }

    /** A String literal. */
    public static Literal ofString(String v) {
        return new Literal(Kind.STRING, DataTypes.STRING_TYPE, 0, 0, Objects.requireNonNull(v));
    }

    /** A Bool literal. */
    public static Literal ofBool(boolean v) {
        return new Literal(Kind.BOOL, DataTypes.BOOL, v ? 1 : 0, 0, null);
    }

    /** {@code NULL} typed as {@code type}, which must be Nullable (or LowCardinality(Nullable)). */
    public static Literal ofNull(DataType type) {
        DataType inner = Vectors.stripLowCardinality(type);
        if (!(inner instanceof NullableType)) {
            throw new IllegalArgumentException("NULL needs a Nullable type, got " + type.name());
        }
        return new Literal(Kind.NULL, type, 0, 0, null);
    }

    private static DataType integerTypeOf(long v, boolean unsignedBits) {
        if (unsignedBits && v < 0) {
            return DataTypes.UINT64;
        }
        if (v >= 0) {
            if (v <= 0xFF) {
                return DataTypes.UINT8;
            } else if (v <= 0xFFFF) {
                return DataTypes.UINT16;
            } else if (v <= 0xFFFFFFFFL) {
                return DataTypes.UINT32;
            }
            return DataTypes.UINT64;
        }
        if (v >= Byte.MIN_VALUE) {
            return DataTypes.INT8;
        } else if (v >= Short.MIN_VALUE) {
            return DataTypes.INT16;
        } else if (v >= Integer.MIN_VALUE) {
            return DataTypes.INT32;
        }
        return DataTypes.INT64;
    }

    /** The kind of constant. */
    public Kind kind() {
        return kind;
    }

    /** The value of an integer or Bool literal (UInt64 values as their bit pattern). */
    public long longValue() {
        return longValue;
    }

    /** The value of a Float64 literal, or of an integer literal converted to double. */
    public double doubleValue() {
        if (kind == Kind.FLOAT) {
            return doubleValue;
        }
        return type.kind() == TypeKind.UINT64 ? Vectors.unsignedToDouble(longValue) : longValue;
    }

    /** The value of a String literal. */
    public String stringValue() {
        return stringValue;
    }

    /** Whether this is an integer or Bool literal. */
    public boolean isInteger() {
        return kind == Kind.INTEGER || kind == Kind.BOOL;
    }

    @Override
    public DataType resultType() {
        return type;
    }

    @Override
    public Set<String> requiredColumns() {
        return Set.of();
    }

    @Override
    public boolean isConstant() {
        return true;
    }

    @Override
    public String toSql() {
        return switch (kind) {
            case INTEGER ->
                    type.kind() == TypeKind.UINT64
                            ? Long.toUnsignedString(longValue)
                            : Long.toString(longValue);
            case FLOAT -> floatSql(doubleValue);
            case STRING -> SqlLexer.quoteString(stringValue);
            case BOOL -> longValue != 0 ? "true" : "false";
            case NULL -> "NULL";
        };
    }

    @Override
    public String columnName() {
        if (kind == Kind.FLOAT) {
            double d = doubleValue;
            if (Double.isNaN(d)) {
                return "nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "inf" : "-inf";
            }
            if (d == Math.rint(d) && Math.abs(d) < 1e21) {
                return new BigDecimal(d).toPlainString() + ".";
            }
            return floatSql(d);
        }
        return toSql();
    }

    static String floatSql(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        String s = Double.toString(d);
        return s.replace('E', 'e');
    }

    @Override
    public Column evaluate(Block block, EvaluationContext ctx) {
        return column(block.rows());
    }

    /** A column of {@code rows} copies of this constant. */
    Column column(int rows) {
        switch (kind) {
            case INTEGER, BOOL -> {
                long[] v = new long[rows];
                Arrays.fill(v, longValue);
                return Vectors.fromLongs(v, rows, type);
            }
            case FLOAT -> {
                double[] v = new double[rows];
                Arrays.fill(v, doubleValue);
                return Vectors.fromDoubles(v, rows, type);
            }
            case STRING -> {
                byte[] b = stringValue.getBytes(StandardCharsets.UTF_8);
                StringColumn c = new StringColumn(rows, Math.max(16, b.length * rows));
                for (int i = 0; i < rows; i++) {
                    c.add(b, 0, b.length);
                }
                return c;
            }
            default -> {
                Column c = Columns.create(type, rows);
                NullableColumn nc = (NullableColumn) c;
                for (int i = 0; i < rows; i++) {
                    nc.addNull();
                }
                return c;
            }
        }
    }
}
