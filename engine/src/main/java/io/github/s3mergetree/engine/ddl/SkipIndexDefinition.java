package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.KeyExpression;
import java.util.List;
import java.util.Objects;

/**
 * A data-skipping index of a table, as declared: {@code INDEX name expr TYPE type(arguments)
 * GRANULARITY k} (ClickHouse's {@code IndexDescription}).
 *
 * <p>Why: every part of the table carries the index ({@code skp_idx_<name>.idx} / {@code .idx2} and
 * its marks), one index granule per {@code granularity} data granules, so the part writer and the
 * merger need its expression, its type and its granularity. The expression is flattened like a key
 * ({@code (a, lower(s))} has two columns), as ClickHouse builds the index's sample block.
 *
 * @param name the index name (unique in the table)
 * @param expression the indexed expression, one element per index column
 * @param type the index type as written ({@code minmax}, {@code set}, {@code bloom_filter}, ...)
 * @param arguments the type's arguments as their SQL literal text ({@code 100}, {@code 0.025}),
 *     empty without parentheses
 * @param hasParentheses whether the type was written with parentheses ({@code set()} vs {@code
 *     set}), kept for the canonical statement
 * @param granularity {@code GRANULARITY}: data granules per index granule (1 if omitted, as in
 *     ClickHouse 26.x)
 */
public record SkipIndexDefinition(
        String name,
        KeyExpression expression,
        String type,
        List<String> arguments,
        boolean hasParentheses,
        int granularity) {

    public SkipIndexDefinition {
        Objects.requireNonNull(name);
        Objects.requireNonNull(expression);
        Objects.requireNonNull(type);
        arguments = List.copyOf(arguments);
        if (granularity <= 0) {
            throw new IllegalArgumentException(
                    "Index GRANULARITY must be a positive integer, got " + granularity);
        }
    }

    /** The index's declaration as ClickHouse prints it in {@code SHOW CREATE TABLE}. */
    public String toSql() {
        StringBuilder b = new StringBuilder("INDEX ");
        b.append(DdlParser.quoteIdentifier(name)).append(' ');
        List<io.github.s3mergetree.engine.expr.Expr> e = expression.elements();
        if (e.size() == 1) {
            b.append(e.get(0).toSql());
        } else {
            b.append('(');
            for (int i = 0; i < e.size(); i++) {
                if (i > 0) {
                    b.append(", ");
                }
                b.append(e.get(i).toSql());
            }
            b.append(')');
        }
        b.append(" TYPE ").append(type);
        if (hasParentheses || !arguments.isEmpty()) {
            b.append('(').append(String.join(", ", arguments)).append(')');
        }
        return b.append(" GRANULARITY ").append(granularity).toString();
    }
}
