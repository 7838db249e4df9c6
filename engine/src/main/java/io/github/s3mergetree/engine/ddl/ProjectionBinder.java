package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.ddl.ProjectionClauseParser.RawProjection;
import io.github.s3mergetree.engine.ddl.ProjectionClauseParser.RawProjectionItem;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.NullableType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Binds the parsed projections to a table's stored columns and checks them as ClickHouse's {@code
 * ProjectionDescription::getProjectionFromAST} and {@code registerStorageMergeTree} do: names,
 * {@code max_projections}, {@code deduplicate_merge_projection_mode}, aggregates and their types,
 * GROUP BY and ORDER BY.
 */
final class ProjectionBinder {

    private final DdlTokens in;
    private final TableKeyChecks keyChecks;

    ProjectionBinder(DdlTokens in) {
        this.in = in;
        this.keyChecks = new TableKeyChecks(in);
    }

    /** Virtual columns a projection may read in ClickHouse, whose values parts here do not hold. */
    private static final java.util.regex.Pattern VIRTUAL_COLUMN =
            java.util.regex.Pattern.compile(
                    "(?<![\\w.`])(_part_offset|_parent_part_offset|_block_number|_block_offset"
                            + "|_part_index|_part|_partition_id|_part_uuid|_row_exists)(?![\\w`])");

    /**
     * Binds the projections to the stored columns of {@code table} and checks them as ClickHouse's
     * {@code ProjectionDescription::getProjectionFromAST} and {@code registerStorageMergeTree} do.
     */
    List<ProjectionDefinition> projections(List<RawProjection> raw, TableSchema table) {
        if (raw.isEmpty()) {
            return List.of();
        }
        long max = table.settings().getLong("max_projections", 25);
        if (raw.size() > max) {
            throw in.error(
                    "Maximum number of projections reached: "
                            + raw.size()
                            + " > "
                            + max
                            + " (max_projections)",
                    raw.get((int) Math.min(max, raw.size() - 1)).projectionWord.start());
        }
        EngineDefinition.Kind kind = table.engine().kind();
        String mode = table.settings().get("deduplicate_merge_projection_mode").orElse("throw");
        mode = mode.replace("'", "").strip().toLowerCase(Locale.ROOT);
        if (kind != EngineDefinition.Kind.MERGE_TREE && mode.equals("throw")) {
            String engineName = kind.engineName();
            throw in.error(
                    "Projections are not supported for "
                            + engineName
                            + " with deduplicate_merge_projection_mode = throw. Please set"
                            + " setting 'deduplicate_merge_projection_mode' to 'drop' or"
                            + " 'rebuild'",
                    raw.get(0).projectionWord.start());
        }
        Map<String, DataType> stored = new LinkedHashMap<>();
        List<String> ordinary = new ArrayList<>();
        for (ColumnDefinition c : table.storedColumns()) {
            stored.put(c.name(), c.type());
            if (c.defaultKind() != DefaultKind.MATERIALIZED) {
                ordinary.add(c.name());
            }
        }
        List<ProjectionDefinition> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (RawProjection x : raw) {
            String name = x.nameToken.text();
            if (!names.add(name)) {
                throw in.error(
                        "Cannot add projection "
                                + name
                                + ": projection with this name already"
                                + " exists",
                        x.nameToken.start());
            }
            out.add(bindProjection(x, stored, ordinary));
        }
        return out;
    }

    private ProjectionDefinition bindProjection(
            RawProjection x, Map<String, DataType> stored, List<String> ordinary) {
        String name = x.nameToken.text();
        java.util.regex.Matcher virtual = VIRTUAL_COLUMN.matcher(x.text);
        while (virtual.find()) {
            if (!stored.containsKey(virtual.group(1))) {
                throw in.unsupported(
                        "PROJECTION",
                        "Virtual column "
                                + virtual.group(1)
                                + " in projection "
                                + name
                                + " is not supported",
                        x.projectionWord.start() + virtual.start(1));
            }
        }
        boolean aggregating = x.groupBy != null;
        for (RawProjectionItem item : x.items) {
            aggregating |= item.aggregate() != null;
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        List<String> itemSql = new ArrayList<>();
        Set<String> required = new HashSet<>();
        List<Expr> plainItems = new ArrayList<>();
        List<ProjectionDefinition.Aggregate> aggregates = new ArrayList<>();
        for (RawProjectionItem item : x.items) {
            String text;
            if (item.star()) {
                if (aggregating) {
                    throw in.error(
                            "* in projection "
                                    + name
                                    + " is not allowed with aggregation (columns not under an"
                                    + " aggregate function and not in GROUP BY keys)",
                            item.at().start());
                }
                required.addAll(ordinary);
                text = "*";
            } else if (item.aggregate() != null) {
                ProjectionDefinition.Aggregate a = aggregate(name, item, stored);
                aggregates.add(a);
                text =
                        a.function().sqlName()
                                + "("
                                + (a.argument() == null ? "" : a.argument().toSql())
                                + ")";
            } else {
                Expr e = bind(item.expression(), stored);
                plainItems.add(e);
                required.addAll(e.requiredColumns());
                text = e.toSql();
            }
            if (item.alias() != null) {
                text +=
                        " AS "
                                + (SqlLexer.isPlainIdentifier(item.alias())
                                        ? item.alias()
                                        : SqlLexer.backQuote(item.alias()));
            }
            itemSql.add(text);
        }
        sql.append(String.join(", ", itemSql));
        if (aggregating) {
            if (x.orderBy != null) {
                throw in.error(
                        "When aggregation is used in projection, ORDER BY cannot be specified",
                        x.orderByAt);
            }
            List<Expr> keys = new ArrayList<>();
            List<String> keyNames = new ArrayList<>();
            if (x.groupBy != null) {
                List<String> keySql = new ArrayList<>();
                for (ExprParser.Parsed g : x.groupBy) {
                    Expr e = bind(g, stored);
                    if (e.isConstant()) {
                        throw in.unsupported(
                                "PROJECTION",
                                "A constant GROUP BY key in projection "
                                        + name
                                        + " is not supported",
                                g.start());
                    }
                    if (!keyNames.contains(e.columnName())) {
                        keys.add(e);
                        keyNames.add(e.columnName());
                    }
                    keySql.add(e.toSql());
                }
                sql.append(" GROUP BY ").append(String.join(", ", keySql));
            }
            for (int i = 0; i < plainItems.size(); i++) {
                Expr e = plainItems.get(i);
                if (!e.isConstant() && !keyNames.contains(e.columnName())) {
                    throw in.error(
                            "Column `"
                                    + e.columnName()
                                    + "` is not under aggregate function and not in GROUP BY keys"
                                    + " of projection "
                                    + name,
                            x.projectionWord.start());
                }
            }
            return new ProjectionDefinition(
                    name, sql.toString(), true, keyNames, new KeyExpression(keys), aggregates);
        }
        if (x.orderBy == null) {
            throw in.error("ORDER BY cannot be empty", x.nameToken.start());
        }
        List<Expr> orderElements = new ArrayList<>();
        if (x.orderBy.size() == 1) {
            orderElements.addAll(keyChecks.bindKey(x.orderBy.get(0), stored, false).elements());
        } else {
            for (ExprParser.Parsed o : x.orderBy) {
                orderElements.add(bind(o, stored));
            }
        }
        KeyExpression orderBy = new KeyExpression(orderElements);
        keyChecks.checkSortingKey(orderBy, "Projection sorting key", x.orderByAt, true);
        required.addAll(orderBy.requiredColumns());
        List<String> orderSql = new ArrayList<>();
        for (Expr e : orderElements) {
            orderSql.add(e.toSql());
        }
        sql.append(" ORDER BY ").append(String.join(", ", orderSql));
        List<String> columns = new ArrayList<>();
        for (String c : stored.keySet()) {
            if (required.contains(c)) {
                columns.add(c);
            }
        }
        return new ProjectionDefinition(name, sql.toString(), false, columns, orderBy, List.of());
    }

    /**
     * An aggregate of a projection's SELECT list: {@code count()}, {@code count(x)}, {@code sum(x)}
     * of an integer or floating-point {@code x}, {@code min(x)} / {@code max(x)} of a fixed-width
     * {@code x}; other argument types are refused as unsupported.
     */
    private ProjectionDefinition.Aggregate aggregate(
            String projection, RawProjectionItem item, Map<String, DataType> stored) {
        ProjectionDefinition.AggregateFunction f =
                ProjectionDefinition.AggregateFunction.valueOf(
                        item.aggregate().toUpperCase(Locale.ROOT));
        if (item.expression() == null) {
            return new ProjectionDefinition.Aggregate(
                    f, null, "count()", "AggregateFunction(count)");
        }
        Expr arg = bind(item.expression(), stored);
        DataType t = arg.resultType();
        boolean supported =
                switch (f) {
                    case COUNT -> !(t instanceof NullableType);
                    case SUM -> ProjectionStateTypes.sumResultType(t) != null;
                    case MIN, MAX -> ProjectionStateTypes.supportsMinMax(t);
                };
        if (f == ProjectionDefinition.AggregateFunction.SUM && !supported && !isNumber(t)) {
            throw in.error(
                    "Illegal type " + t.name() + " of argument for aggregate function sum",
                    item.at().start());
        }
        if (!supported) {
            throw in.unsupported(
                    "PROJECTION",
                    f.sqlName()
                            + "("
                            + arg.toSql()
                            + ") of type "
                            + t.name()
                            + " in projection "
                            + projection
                            + " is not supported",
                    item.at().start());
        }
        return new ProjectionDefinition.Aggregate(
                f,
                arg,
                f.sqlName() + "(" + arg.columnName() + ")",
                "AggregateFunction(" + f.sqlName() + ", " + t.name() + ")");
    }

    /** Whether ClickHouse's {@code sum} takes {@code t} (a number, Nullable or not). */
    private static boolean isNumber(DataType t) {
        DataType inner = t instanceof NullableType n ? n.nested() : t;
        return switch (inner.kind()) {
            case UINT8,
                    UINT16,
                    UINT32,
                    UINT64,
                    UINT128,
                    UINT256,
                    INT8,
                    INT16,
                    INT32,
                    INT64,
                    INT128,
                    INT256,
                    FLOAT32,
                    FLOAT64,
                    DECIMAL ->
                    true;
            default -> false;
        };
    }

    private Expr bind(ExprParser.Parsed p, Map<String, DataType> columns) {
        try {
            return p.bind(columns);
        } catch (ExprException e) {
            throw in.translate(e);
        }
    }
}
