package io.github.s3mergetree.engine.expr;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.types.DataType;
import java.util.Set;

/**
 * A typed ClickHouse expression over the columns of a table: a column reference, a literal, or a
 * function applied to expressions. Used for partition keys, sorting/primary keys and column
 * defaults.
 *
 * <p>Why typed up front: ClickHouse decides a key's result type ({@code toYYYYMM} → UInt32, {@code
 * a % 2} → UInt8, ...) from the argument types alone, and that type determines how the key is
 * serialized into {@code partition.dat}, {@code primary.idx} and the partition id; an {@code Expr}
 * therefore carries the exact type ClickHouse would, and {@link #evaluate} produces exactly the
 * values ClickHouse would compute.
 *
 * <p>Instances are immutable and thread-safe; two expressions are equal when they print the same
 * SQL and have the same result type.
 */
public interface Expr {

    /** The result type, exactly as ClickHouse's {@code toTypeName} would print it. */
    DataType resultType();

    /** The names of the table columns this expression reads, in order of first appearance. */
    Set<String> requiredColumns();

    /**
     * The expression as ClickHouse SQL that {@link ExprParser} parses back to an equal expression.
     */
    String toSql();

    /**
     * The name ClickHouse gives a column computed by this expression (e.g. {@code
     * toDate(CreationDate)}, {@code modulo(a, 2)}).
     */
    String columnName();

    /**
     * Computes the expression for every row of {@code block}, which must contain (at least) the
     * {@link #requiredColumns()} with the types this expression was parsed against. The work is
     * done column-at-a-time over primitive arrays (no per-row objects).
     *
     * @return a column of {@code block.rows()} values in {@link #resultType()}'s in-memory form; a
     *     new column, except that a plain column reference (and a conversion that changes nothing)
     *     returns the input column itself, which callers must not modify
     * @throws ExprException (evaluation) if ClickHouse would fail too, e.g. on division by zero
     */
    Column evaluate(Block block, EvaluationContext ctx);

    /** Whether the value does not depend on any column (a literal or a function of literals). */
    default boolean isConstant() {
        return requiredColumns().isEmpty();
    }
}
