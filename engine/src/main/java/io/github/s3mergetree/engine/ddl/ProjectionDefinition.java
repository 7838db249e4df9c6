package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.types.DataType;
import java.util.List;
import java.util.Objects;

/**
 * A projection of a table, as declared: {@code PROJECTION name (SELECT … ORDER BY …)} (normal) or
 * {@code PROJECTION name (SELECT keys, count(), sum(x) … GROUP BY keys)} (aggregating),
 * ClickHouse's {@code ProjectionDescription}.
 *
 * <p>Why: every part of the table carries each projection as a sub-part {@code <name>.proj/} with
 * its own columns, primary index and checksums, which ClickHouse reads instead of the part when a
 * query matches the projection. The part writer needs what ClickHouse derives from the definition:
 * the columns the sub-part stores and the key it is sorted by.
 *
 * <ul>
 *   <li>A <b>normal</b> projection stores the table columns its SELECT list and ORDER BY read (all
 *       ordinary columns for {@code *}), in the table's column order, as ClickHouse's {@code
 *       FetchColumns} sample block does, sorted by {@link #sortingKey()} (its ORDER BY).
 *   <li>An <b>aggregating</b> projection stores its GROUP BY keys (named by their expressions, in
 *       GROUP BY order), then one {@code AggregateFunction(f, T)} state column per aggregate of the
 *       SELECT list, one row per distinct key, sorted by the keys.
 * </ul>
 *
 * @param name the projection name (unique in the table)
 * @param query the SELECT as ClickHouse prints it, without the parentheses, e.g. {@code SELECT k, s
 *     ORDER BY s}
 * @param aggregating whether it aggregates (GROUP BY or an aggregate function)
 * @param columns the stored columns of a normal projection, in table order; for an aggregating one
 *     its GROUP BY keys' column names
 * @param sortingKey ORDER BY of a normal projection; the GROUP BY keys of an aggregating one
 * @param aggregates the aggregate state columns of an aggregating projection, in SELECT order
 */
public record ProjectionDefinition(
        String name,
        String query,
        boolean aggregating,
        List<String> columns,
        KeyExpression sortingKey,
        List<Aggregate> aggregates) {

    /** The aggregate functions whose states an aggregating projection can hold here. */
    public enum AggregateFunction {
        COUNT("count"),
        SUM("sum"),
        MIN("min"),
        MAX("max");

        private final String sqlName;

        AggregateFunction(String sqlName) {
            this.sqlName = sqlName;
        }

        /** The name ClickHouse prints ({@code count}, {@code sum}, …). */
        public String sqlName() {
            return sqlName;
        }
    }

    /**
     * One aggregate of an aggregating projection.
     *
     * @param function the aggregate function
     * @param argument its argument, or null for {@code count()}
     * @param columnName the state column's name, as ClickHouse names it ({@code count()}, {@code
     *     sum(x)}, {@code max(plus(x, 1))})
     * @param stateTypeName the state column's type, e.g. {@code AggregateFunction(sum, UInt64)}
     */
    public record Aggregate(
            AggregateFunction function, Expr argument, String columnName, String stateTypeName) {
        public Aggregate {
            Objects.requireNonNull(function);
            Objects.requireNonNull(columnName);
            Objects.requireNonNull(stateTypeName);
        }

        /** The argument's type, or null for {@code count()}. */
        public DataType argumentType() {
            return argument == null ? null : argument.resultType();
        }
    }

    public ProjectionDefinition {
        Objects.requireNonNull(name);
        Objects.requireNonNull(query);
        columns = List.copyOf(columns);
        Objects.requireNonNull(sortingKey);
        aggregates = List.copyOf(aggregates);
    }

    /** The declaration as ClickHouse prints it in {@code SHOW CREATE TABLE} (on one line). */
    public String toSql() {
        return "PROJECTION " + DdlParser.quoteIdentifier(name) + " (" + query + ")";
    }

    /** The sub-directory of a part holding this projection: {@code <name>.proj}. */
    public String directoryName() {
        return name + ".proj";
    }
}
