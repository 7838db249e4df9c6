package io.github.s3mergetree.engine.types;

/**
 * A ClickHouse data type: a {@link TypeKind} plus its parameters. Instances are immutable and
 * compare equal when their canonical names ({@link #name()}, as ClickHouse prints them in {@code
 * system.columns} and {@code columns.txt}) are equal.
 *
 * <p>The logical type decides the on-disk serialization, the sort order and the text form; {@link
 * #physicalType()} says how a column of this type is held in memory.
 */
public abstract class DataType implements Cloneable {
    private final TypeKind kind;

    /** The SimpleAggregateFunction this type is the storage type of, or null. */
    private SimpleAggregateFunction simpleAggregateFunction;

    protected DataType(TypeKind kind) {
        this.kind = kind;
    }

    /** The type family. */
    public final TypeKind kind() {
        return kind;
    }

    /**
     * The canonical ClickHouse name, e.g. {@code Decimal(9, 2)} or {@code Nullable(String)}, and
     * for the storage type of a {@code SimpleAggregateFunction} that type's name, e.g. {@code
     * SimpleAggregateFunction(sum, UInt64)} (as ClickHouse's custom type names print).
     */
    public final String name() {
        String plain = plainName();
        return simpleAggregateFunction == null ? plain : simpleAggregateFunction.typeName(plain);
    }

    /** The name of the type itself, without a {@code SimpleAggregateFunction} around it. */
    protected abstract String plainName();

    /**
     * The {@code SimpleAggregateFunction(f, T)} this type stands for, or null for a plain type.
     * Such a column is stored exactly as T; only AggregatingMergeTree's merges look at {@code f}.
     */
    public final SimpleAggregateFunction simpleAggregateFunction() {
        return simpleAggregateFunction;
    }

    /**
     * This type as the storage type of {@code function}: the same type (kind, columns,
     * serialization) under the name {@code SimpleAggregateFunction(function, T)}, as ClickHouse's
     * {@code DataTypeCustomSimpleAggregateFunction} names T.
     */
    public final DataType asSimpleAggregateFunction(SimpleAggregateFunction function) {
        try {
            DataType copy = (DataType) super.clone();
            copy.simpleAggregateFunction = function;
            return copy;
        } catch (CloneNotSupportedException e) {
            throw new AssertionError(e);
        }
    }

    /** This type without a {@code SimpleAggregateFunction} name (itself when it has none). */
    public final DataType withoutSimpleAggregateFunction() {
        return simpleAggregateFunction == null ? this : asSimpleAggregateFunction(null);
    }

    /** How a column of this type is stored in memory. */
    public abstract PhysicalType physicalType();

    /**
     * The number of bytes one value takes in the bulk (column stream) and single-value binary forms
     * for fixed-width types, or -1 for variable-width and composite types.
     */
    public int fixedWidth() {
        return -1;
    }

    /** Whether integers of this type compare as unsigned. */
    public boolean isUnsigned() {
        return false;
    }

    /** The type without a Nullable or LowCardinality wrapper (recursively). */
    public DataType unwrapped() {
        return this;
    }

    @Override
    public final boolean equals(Object o) {
        return o instanceof DataType other && name().equals(other.name());
    }

    @Override
    public final int hashCode() {
        return name().hashCode();
    }

    @Override
    public final String toString() {
        return name();
    }

    /** Quotes a string literal the way ClickHouse prints it inside type names. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '\\') {
                b.append('\\');
            }
            b.append(c);
        }
        return b.append('\'').toString();
    }
}
