package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.Expr;
import io.github.s3mergetree.engine.expr.ExprException;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TypeKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Binds a table's key expressions (ORDER BY, PRIMARY KEY, PARTITION BY, SAMPLE BY) to its columns
 * and checks them as ClickHouse's MergeTree metadata does: no constant, duplicate, Nullable (unless
 * {@code allow_nullable_key}) or non-comparable elements; {@code checkSampleExpression}'s rules for
 * the sampling key; AggregatingMergeTree's dimensions inside the sorting key.
 */
final class TableKeyChecks {

    private final DdlTokens in;

    TableKeyChecks(DdlTokens in) {
        this.in = in;
    }

    /**
     * ClickHouse's {@code checkSampleExpression}: the sampling expression must be a column of the
     * primary key (unless {@code compatibility_allow_sampling_expression_not_in_primary_key}) and
     * one unsigned integer (unless {@code check_sample_column_is_correct = 0}), with its messages.
     */
    void checkSamplingKey(
            KeyExpression samplingKey,
            KeyExpression primaryKey,
            MergeTreeSettings settings,
            int at) {
        if (samplingKey.isEmpty()) {
            throw in.error("There are no columns in sampling expression", at);
        }
        String first = samplingKey.columnNames().get(0);
        if (!primaryKey.columnNames().contains(first)
                && !settings.getBoolean(
                        "compatibility_allow_sampling_expression_not_in_primary_key", false)) {
            throw in.error("Sampling expression must be present in the primary key", at);
        }
        if (!settings.getBoolean("check_sample_column_is_correct", true)) {
            return;
        }
        DataType t = samplingKey.types().get(0);
        boolean unsigned =
                samplingKey.size() == 1
                        && (t.kind() == TypeKind.UINT8
                                || t.kind() == TypeKind.BOOL // ClickHouse's Bool is a UInt8
                                || t.kind() == TypeKind.UINT16
                                || t.kind() == TypeKind.UINT32
                                || t.kind() == TypeKind.UINT64);
        if (!unsigned) {
            throw in.error(
                    "Invalid sampling column type in storage parameters: "
                            + t.name()
                            + ". Must be one unsigned integer type",
                    at);
        }
    }

    /**
     * AggregatingMergeTree with at least one aggregate column: every other ordinary column must be
     * used by the sorting or partition key (ClickHouse 26.x; {@code
     * allow_dimensions_outside_sorting_key = 1} lifts it), since a merge keeps an arbitrary row's
     * value of it.
     */
    void checkDimensionsInSortingKey(
            List<ColumnDefinition> columns,
            KeyExpression sortingKey,
            KeyExpression partitionKey,
            int at) {
        boolean anyAggregate = false;
        List<String> outside = new ArrayList<>();
        for (ColumnDefinition c : columns) {
            if (c.type().simpleAggregateFunction() != null
                    || c.type() instanceof AggregateFunctionType) {
                anyAggregate = true;
                continue;
            }
            boolean ordinary =
                    c.defaultKind() == DefaultKind.NONE || c.defaultKind() == DefaultKind.DEFAULT;
            if (ordinary
                    && !sortingKey.requiredColumns().contains(c.name())
                    && !partitionKey.requiredColumns().contains(c.name())) {
                outside.add(c.name());
            }
        }
        if (anyAggregate && !outside.isEmpty()) {
            throw in.error(
                    "Column(s) "
                            + String.join(", ", outside)
                            + " of the AggregatingMergeTree table are neither part of the sorting"
                            + " key nor aggregate measures (AggregateFunction or"
                            + " SimpleAggregateFunction). During background merges, rows with the"
                            + " same value of the sorting key are collapsed into one, so these"
                            + " columns keep an arbitrary value, which silently produces wrong"
                            + " results for queries that GROUP BY or filter on them. Add them to"
                            + " the sorting key (ORDER BY), or set"
                            + " 'allow_dimensions_outside_sorting_key = 1' if this is intentional"
                            + " (for example, when the columns are functionally dependent on the"
                            + " sorting key).",
                    at);
        }
    }

    KeyExpression bindKey(ExprParser.Parsed p, Map<String, DataType> columns, boolean partition) {
        KeyExpression key;
        try {
            key = p.bindKey(columns, partition);
        } catch (ExprException e) {
            throw in.translate(e);
        }
        for (String name : key.requiredColumns()) {
            DataType t = columns.get(name);
            if (t instanceof AggregateFunctionType) {
                throw in.error(
                        "Column `"
                                + name
                                + "` with type "
                                + t.name()
                                + " is not allowed in key expression, it's not comparable",
                        p.start());
            }
        }
        return key;
    }

    void checkSortingKey(KeyExpression key, String what, int at, boolean allowNullable) {
        Set<String> seen = new HashSet<>();
        for (Expr e : key.elements()) {
            if (e.isConstant()) {
                throw in.error(what + " cannot contain constants: " + e.toSql(), at);
            }
            if (!seen.add(e.toSql())) {
                throw in.error(what + " contains a duplicate expression: " + e.toSql(), at);
            }
            if (e.resultType().simpleAggregateFunction() != null) {
                throw in.error(
                        "Column with type "
                                + e.resultType().name()
                                + " is not allowed in key expression",
                        at);
            }
        }
        if (!allowNullable && hasNullable(key)) {
            throw in.error(
                    "Sorting key contains nullable columns, but merge tree setting"
                            + " `allow_nullable_key` is disabled",
                    at);
        }
    }

    static boolean hasNullable(KeyExpression key) {
        for (DataType t : key.types()) {
            DataType u = t instanceof LowCardinalityType lc ? lc.nested() : t;
            if (u instanceof NullableType) {
                return true;
            }
        }
        return false;
    }

    static DataType stripWrappers(DataType t) {
        if (t instanceof LowCardinalityType lc) {
            t = lc.nested();
        }
        return t instanceof NullableType n ? n.nested() : t;
    }
}
