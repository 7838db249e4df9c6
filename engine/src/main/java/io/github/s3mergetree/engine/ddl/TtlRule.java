package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.Expr;
import java.util.Objects;
import java.util.Optional;

/**
 * One element of a table's {@code TTL} clause that deletes rows: {@code expr [DELETE] [WHERE
 * cond]}. A row whose {@code expr} (a Date, Date32, DateTime or DateTime64) is at or before the
 * current time, and non-zero, has expired and is removed by the next merge that applies TTL; with
 * {@code WHERE} only the rows for which the condition holds.
 *
 * <p>Why its own type: a table has at most one rule without {@code WHERE} (ClickHouse's "rows TTL",
 * {@code ttl.txt}'s {@code table} section) and any number with one ({@code rows_where}, keyed by
 * the printed expression), and both need the expression and the condition typed.
 *
 * @param expression the TTL expression
 * @param where the condition, if the rule has {@code WHERE}
 */
public record TtlRule(Expr expression, Optional<Expr> where) {

    public TtlRule {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(where, "where");
    }

    /** The rule as ClickHouse prints it: {@code ts + toIntervalDay(30) WHERE v = 1}. */
    public String toSql() {
        return expression.toSql() + where.map(w -> " WHERE " + w.toSql()).orElse("");
    }
}
