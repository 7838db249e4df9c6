package io.github.s3mergetree.engine.types;

/**
 * A ClickHouse data type: a {@link TypeKind} plus its parameters. Instances are immutable and
 * compare equal when their canonical names ({@link #name()}, as ClickHouse prints them in {@code
 * system.columns} and {@code columns.txt}) are equal.
 *
 * <p>The logical type decides the on-disk serialization, the sort order and the text form; {@link
 * #physicalType()} says how a column of this type is held in memory.
 */
public abstract class DataType {
    private final TypeKind kind;

    protected DataType(TypeKind kind) {
        this.kind = kind;
    }

    /** The type family. */
    public final TypeKind kind() {
        return kind;
    }

    /** The canonical ClickHouse name, e.g. {@code Decimal(9, 2)} or {@code Nullable(String)}. */
    public abstract String name();

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
