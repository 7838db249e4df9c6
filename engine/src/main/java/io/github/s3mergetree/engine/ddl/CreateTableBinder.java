package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.ddl.ColumnDeclarationParser.RawColumn;
import io.github.s3mergetree.engine.ddl.SkipIndexClauseParser.RawIndex;
import io.github.s3mergetree.engine.ddl.TtlClauseParser.RawTtl;
import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer.Token;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the parsed parts of a {@code CREATE TABLE} into a {@link TableSchema}: types the columns
 * and their defaults, binds the keys, the engine, the skip indexes and the TTLs to the columns, in
 * the order ClickHouse checks them, so the first error reported is ClickHouse's.
 */
final class CreateTableBinder {

    private final DdlTokens in;
    private final TableKeyChecks keyChecks;
    private final ColumnDeclarationParser columnParser;
    private final EngineClauseParser engineParser;
    private final SkipIndexClauseParser indexParser;
    private final TtlClauseParser ttlParser;

    CreateTableBinder(DdlTokens in) {
        this.in = in;
        this.keyChecks = new TableKeyChecks(in);
        this.columnParser = new ColumnDeclarationParser(in);
        this.engineParser = new EngineClauseParser(in);
        this.indexParser = new SkipIndexClauseParser(in);
        this.ttlParser = new TtlClauseParser(in);
    }

    /**
     * The table the parsed parts describe: columns and their defaults typed, then keys, engine,
     * skip indexes, sampling key and TTLs bound to the stored columns, checked in ClickHouse's
     * order.
     */
    TableSchema analyze(
            String database,
            String name,
            List<RawColumn> raw,
            List<RawIndex> rawIndexes,
            ExprParser.Parsed tablePrimaryKey,
            int tablePrimaryKeyAt,
            Token engineName,
            boolean engineParens,
            List<List<Token>> engineArgs,
            ExprParser.Parsed partitionBy,
            ExprParser.Parsed orderBy,
            ExprParser.Parsed primaryKeyClause,
            int primaryKeyClauseAt,
            ExprParser.Parsed sampleBy,
            int sampleByAt,
            List<RawTtl> rawTtl,
            MergeTreeSettings settings,
            String comment) {
        // column names and types
        Set<String> names = new HashSet<>();
        Map<String, DataType> types = new LinkedHashMap<>();
        for (RawColumn c : raw) {
            if (!names.add(c.nameToken.text())) {
                throw in.error(
                        "Cannot add column "
                                + c.nameToken.text()
                                + ": column with this name already exists",
                        c.nameToken.start());
            }
            if (c.type != null) {
                columnParser.checkLowCardinality(c.type, c.nameToken);
                types.put(c.nameToken.text(), c.type);
            }
        }
        List<ColumnDefinition> columns = new ArrayList<>();
        Map<String, DataType> known = new LinkedHashMap<>(types);
        for (RawColumn c : raw) {
            Expr def = null;
            DataType type = c.type;
            if (c.defaultExpr != null) {
                try {
                    if (type == null) {
                        def = c.defaultExpr.bind(known);
                        type = def.resultType();
                        known.put(c.nameToken.text(), type);
                    } else {
                        def = c.defaultExpr.bindDefault(known, type);
                    }
                } catch (ExprException e) {
                    throw in.translate(e);
                }
            }
            columns.add(
                    new ColumnDefinition(
                            c.nameToken.text(), type, c.defaultKind, def, c.codec, c.comment));
            // typed later (against the stored columns), after the table's TTL, as ClickHouse does
        }
        Map<String, DataType> keyColumns = new LinkedHashMap<>();
        for (ColumnDefinition c : columns) {
            if (c.isStored()) {
                keyColumns.put(c.name(), c.type());
            }
        }
        boolean insertable = false;
        for (ColumnDefinition c : columns) {
            insertable |=
                    c.defaultKind() == DefaultKind.NONE || c.defaultKind() == DefaultKind.DEFAULT;
        }
        if (!insertable) {
            throw in.error(
                    "Cannot CREATE table without insertable columns (all columns are"
                            + " MATERIALIZED or ALIAS)",
                    raw.get(0).nameToken.start());
        }
        boolean allowNullable = settings.allowNullableKey();

        // partition key
        KeyExpression partitionKey = KeyExpression.EMPTY;
        if (partitionBy != null) {
            partitionKey = keyChecks.bindKey(partitionBy, keyColumns, true);
            for (Expr e : partitionKey.elements()) {
                DataType rt = TableKeyChecks.stripWrappers(e.resultType());
                if (rt.kind() == TypeKind.FLOAT32 || rt.kind() == TypeKind.FLOAT64) {
                    throw in.error(
                            "Floating point partition key is not supported: " + e.columnName(),
                            partitionBy.start());
                }
                if (e.isConstant()) {
                    throw in.error(
                            "Partition key cannot contain constants: " + e.toSql(),
                            partitionBy.start());
                }
            }
            if (!allowNullable && TableKeyChecks.hasNullable(partitionKey)) {
                throw in.error(
                        "Partition key contains nullable columns, but merge tree setting"
                                + " `allow_nullable_key` is disabled",
                        partitionBy.start());
            }
        }

        // primary key sources
        KeyExpression explicitPrimary = null;
        int explicitPrimaryAt = -1;
        List<Expr> columnPrimary = new ArrayList<>();
        int columnPrimaryAt = -1;
        for (RawColumn c : raw) {
            if (c.primaryKey) {
                columnPrimary.add(
                        new io.github.s3mergetree.engine.expr.ColumnRef(
                                c.nameToken.text(),
                                keyColumns.getOrDefault(
                                        c.nameToken.text(), types.get(c.nameToken.text()))));
                if (columnPrimaryAt < 0) {
                    columnPrimaryAt = c.nameToken.start();
                }
            }
        }
        int sources =
                (primaryKeyClause != null ? 1 : 0)
                        + (tablePrimaryKey != null ? 1 : 0)
                        + (columnPrimary.isEmpty() ? 0 : 1);
        if (sources > 1) {
            int at = Math.max(primaryKeyClauseAt, Math.max(tablePrimaryKeyAt, columnPrimaryAt));
            throw in.error("Multiple primary keys are not allowed", at);
        }
        if (primaryKeyClause != null) {
            explicitPrimary = keyChecks.bindKey(primaryKeyClause, keyColumns, false);
            explicitPrimaryAt = primaryKeyClauseAt;
        } else if (tablePrimaryKey != null) {
            explicitPrimary = keyChecks.bindKey(tablePrimaryKey, keyColumns, false);
            explicitPrimaryAt = tablePrimaryKeyAt;
        } else if (!columnPrimary.isEmpty()) {
            explicitPrimary = new KeyExpression(columnPrimary);
            explicitPrimaryAt = columnPrimaryAt;
        }

        // sorting key
        KeyExpression sortingKey;
        int sortingAt;
        if (orderBy != null) {
            sortingKey = keyChecks.bindKey(orderBy, keyColumns, false);
            sortingAt = orderBy.start();
        } else if (explicitPrimary != null) {
            sortingKey = explicitPrimary;
            sortingAt = explicitPrimaryAt;
        } else {
            sortingKey = KeyExpression.EMPTY;
            sortingAt = -1;
        }
        keyChecks.checkSortingKey(sortingKey, "Sorting key", sortingAt, allowNullable);
        KeyExpression primaryKey = sortingKey;
        if (explicitPrimary != null) {
            if (explicitPrimary.size() > sortingKey.size()) {
                throw in.error(
                        "Primary key must be a prefix of the sorting key, but its length: "
                                + explicitPrimary.size()
                                + " is greater than the sorting key length: "
                                + sortingKey.size(),
                        explicitPrimaryAt);
            }
            for (int i = 0; i < explicitPrimary.size(); i++) {
                Expr p = explicitPrimary.elements().get(i);
                Expr s = sortingKey.elements().get(i);
                if (!p.equals(s)) {
                    throw in.error(
                            "Primary key must be a prefix of the sorting key, but the column"
                                    + " in the position "
                                    + i
                                    + " is "
                                    + s.columnName()
                                    + ", not "
                                    + p.columnName(),
                            explicitPrimaryAt);
                }
            }
            keyChecks.checkSortingKey(
                    explicitPrimary, "Primary key", explicitPrimaryAt, allowNullable);
            primaryKey = explicitPrimary;
        }

        EngineDefinition engine =
                engineParser.engine(
                        engineName, engineParens, engineArgs, columns, sortingKey, settings);
        List<SkipIndexDefinition> indexes = indexParser.skipIndexes(rawIndexes, keyColumns);
        KeyExpression samplingKey = KeyExpression.EMPTY;
        if (sampleBy != null) {
            samplingKey = keyChecks.bindKey(sampleBy, keyColumns, false);
            keyChecks.checkSamplingKey(samplingKey, primaryKey, settings, sampleByAt);
        }
        List<TtlRule> ttl = new ArrayList<>();
        boolean rowsTtl = false;
        for (RawTtl r : rawTtl) {
            Expr e = ttlParser.bindTtl(r.expression(), keyColumns, r.at());
            Expr where = null;
            if (r.where() != null) {
                where = ttlParser.bindTtlCondition(r.where(), keyColumns);
            } else if (rowsTtl) {
                throw in.error(
                        "More than one DELETE TTL expression without WHERE expression is not"
                                + " allowed",
                        r.at());
            } else {
                rowsTtl = true;
            }
            ttl.add(new TtlRule(e, java.util.Optional.ofNullable(where)));
        }
        Set<String> keyRequired = new HashSet<>(partitionKey.requiredColumns());
        keyRequired.addAll(sortingKey.requiredColumns());
        for (int i = 0; i < raw.size(); i++) {
            RawColumn c = raw.get(i);
            if (c.ttl == null) {
                continue;
            }
            Expr columnTtl = ttlParser.bindTtl(c.ttl, keyColumns, c.ttlAt);
            ColumnDefinition d = columns.get(i);
            columns.set(
                    i,
                    new ColumnDefinition(
                            d.name(),
                            d.type(),
                            d.defaultKind(),
                            d.defaultExpression().orElse(null),
                            d.codec().orElse(null),
                            d.comment().orElse(null),
                            columnTtl));
        }
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i).ttl != null && keyRequired.contains(columns.get(i).name())) {
                throw in.error(
                        "Trying to set TTL for key column " + columns.get(i).name(),
                        raw.get(i).ttlAt);
            }
        }
        if (engine.kind() == EngineDefinition.Kind.AGGREGATING_MERGE_TREE
                && !settings.getBoolean("allow_dimensions_outside_sorting_key", false)) {
            keyChecks.checkDimensionsInSortingKey(
                    columns, sortingKey, partitionKey, engineName.start());
        }
        return new TableSchema(
                database,
                name,
                columns,
                indexes,
                engine,
                partitionKey,
                sortingKey,
                primaryKey,
                samplingKey,
                ttl,
                settings,
                comment);
    }
}
