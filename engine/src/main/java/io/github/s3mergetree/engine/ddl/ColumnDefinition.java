package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.types.DataType;
import java.util.Objects;
import java.util.Optional;

/**
 * One column of a {@link TableSchema}: name, type, default kind and expression, codec and comment,
 * as declared in {@code CREATE TABLE}.
 *
 * <p>The default expression is typed and already converted to the column's type (as ClickHouse
 * converts it on insert); its {@link Expr#toSql()} prints the expression as written.
 */
public final class ColumnDefinition {
    private final String name;
    private final DataType type;
    private final DefaultKind defaultKind;
    private final Expr defaultExpression;
    private final String codec;
    private final String comment;
    private final Expr ttl;

    /**
     * @param name the column name
     * @param type the column type ({@code NULL} modifiers already applied)
     * @param defaultKind how the value is computed if not inserted
     * @param defaultExpression the expression for DEFAULT / MATERIALIZED / ALIAS, or null for
     *     {@link DefaultKind#NONE}
     * @param codec the text inside {@code CODEC(...)}, e.g. {@code ZSTD(3)}, or null
     * @param comment the column comment, or null
     */
    public ColumnDefinition(
            String name,
            DataType type,
            DefaultKind defaultKind,
            Expr defaultExpression,
            String codec,
            String comment) {
        this(name, type, defaultKind, defaultExpression, codec, comment, null);
    }

    /**
     * A column with a {@code TTL}: after {@code ttl} (a Date or DateTime expression) has passed, a
     * merge resets the column's value in that row to its default.
     *
     * @param ttl the column TTL expression, or null
     */
    public ColumnDefinition(
            String name,
            DataType type,
            DefaultKind defaultKind,
            Expr defaultExpression,
            String codec,
            String comment,
            Expr ttl) {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.defaultKind = Objects.requireNonNull(defaultKind, "defaultKind");
        if ((defaultKind == DefaultKind.NONE) != (defaultExpression == null)) {
            throw new IllegalArgumentException(
                    "column "
                            + name
                            + ": a default expression goes with DEFAULT, MATERIALIZED"
                            + " or ALIAS, and only with them");
        }
        this.defaultExpression = defaultExpression;
        this.codec = codec;
        this.comment = comment;
        this.ttl = ttl;
    }

    /** A plain column without default, codec or comment. */
    public static ColumnDefinition of(String name, DataType type) {
        return new ColumnDefinition(name, type, DefaultKind.NONE, null, null, null);
    }

    public String name() {
        return name;
    }

    public DataType type() {
        return type;
    }

    public DefaultKind defaultKind() {
        return defaultKind;
    }

    /** The DEFAULT / MATERIALIZED / ALIAS expression, typed as the column. */
    public Optional<Expr> defaultExpression() {
        return Optional.ofNullable(defaultExpression);
    }

    /** The codec declaration without {@code CODEC( )}, e.g. {@code Delta, ZSTD(1)}. */
    public Optional<String> codec() {
        return Optional.ofNullable(codec);
    }

    public Optional<String> comment() {
        return Optional.ofNullable(comment);
    }

    /** The column {@code TTL} expression, if any. */
    public Optional<Expr> ttl() {
        return Optional.ofNullable(ttl);
    }

    /** Whether the column is stored in parts (every kind but ALIAS). */
    public boolean isStored() {
        return defaultKind != DefaultKind.ALIAS;
    }

    /** The column declaration as in {@code CREATE TABLE}: {@code `name` Type [DEFAULT ...] ...}. */
    public String toSql() {
        StringBuilder b = new StringBuilder(DdlParser.quoteIdentifier(name));
        b.append(' ').append(type.name());
        if (defaultExpression != null) {
            b.append(' ').append(defaultKind.name()).append(' ').append(defaultExpression.toSql());
        }
        if (comment != null) {
            b.append(" COMMENT ")
                    .append(io.github.s3mergetree.engine.expr.SqlLexer.quoteString(comment));
        }
        if (codec != null) {
            b.append(" CODEC(").append(codec).append(')');
        }
        if (ttl != null) {
            b.append(" TTL ").append(ttl.toSql());
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ColumnDefinition c
                && c.name.equals(name)
                && c.type.equals(type)
                && c.defaultKind == defaultKind
                && Objects.equals(c.defaultExpression, defaultExpression)
                && Objects.equals(c.codec, codec)
                && Objects.equals(c.comment, comment)
                && Objects.equals(c.ttl, ttl);
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, type, defaultKind, defaultExpression, codec, comment, ttl);
    }

    @Override
    public String toString() {
        return toSql();
    }
}
