package io.github.s3mergetree.engine.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The table engine of a {@link TableSchema}: one of the MergeTree family members this engine
 * writes, with its parameters (version and is_deleted columns of ReplacingMergeTree, the columns to
 * sum of SummingMergeTree, the sign column of CollapsingMergeTree; AggregatingMergeTree has none).
 *
 * <p>Why: merges (and the readers of the written parts) must apply the engine's row-collapsing
 * rules; the parameters are validated against the table's columns as ClickHouse validates them.
 */
public final class EngineDefinition {

    /** The supported engines. */
    public enum Kind {
        MERGE_TREE("MergeTree"),
        REPLACING_MERGE_TREE("ReplacingMergeTree"),
        SUMMING_MERGE_TREE("SummingMergeTree"),
        COLLAPSING_MERGE_TREE("CollapsingMergeTree"),
        AGGREGATING_MERGE_TREE("AggregatingMergeTree");

        private final String engineName;

        Kind(String engineName) {
            this.engineName = engineName;
        }

        /** The engine name as written in SQL, e.g. {@code ReplacingMergeTree}. */
        public String engineName() {
            return engineName;
        }
    }

    private final Kind kind;
    private final String versionColumn;
    private final String isDeletedColumn;
    private final List<String> sumColumns;
    private final String signColumn;

    private EngineDefinition(
            Kind kind,
            String versionColumn,
            String isDeletedColumn,
            List<String> sumColumns,
            String signColumn) {
        this.kind = kind;
        this.versionColumn = versionColumn;
        this.isDeletedColumn = isDeletedColumn;
        this.sumColumns = List.copyOf(sumColumns);
        this.signColumn = signColumn;
    }

    /** {@code MergeTree}. */
    public static EngineDefinition mergeTree() {
        return new EngineDefinition(Kind.MERGE_TREE, null, null, List.of(), null);
    }

    /**
     * {@code ReplacingMergeTree([version[, isDeleted]])}.
     *
     * @param versionColumn the version column, or null
     * @param isDeletedColumn the is_deleted column (requires a version column), or null
     */
    public static EngineDefinition replacingMergeTree(
            String versionColumn, String isDeletedColumn) {
        if (isDeletedColumn != null && versionColumn == null) {
            throw new IllegalArgumentException("is_deleted column requires a version column");
        }
        return new EngineDefinition(
                Kind.REPLACING_MERGE_TREE, versionColumn, isDeletedColumn, List.of(), null);
    }

    /**
     * {@code SummingMergeTree([columns])}.
     *
     * @param sumColumns the columns to sum; empty means all numeric columns not in the key
     */
    public static EngineDefinition summingMergeTree(List<String> sumColumns) {
        return new EngineDefinition(Kind.SUMMING_MERGE_TREE, null, null, sumColumns, null);
    }

    /** {@code CollapsingMergeTree(sign)}. */
    public static EngineDefinition collapsingMergeTree(String signColumn) {
        return new EngineDefinition(
                Kind.COLLAPSING_MERGE_TREE,
                null,
                null,
                List.of(),
                Objects.requireNonNull(signColumn, "signColumn"));
    }

    /**
     * {@code AggregatingMergeTree}: merges combine the rows of equal sorting keys, each {@code
     * SimpleAggregateFunction(f, T)} column with {@code f}, the other columns keeping the first
     * row's value.
     */
    public static EngineDefinition aggregatingMergeTree() {
        return new EngineDefinition(Kind.AGGREGATING_MERGE_TREE, null, null, List.of(), null);
    }

    public Kind kind() {
        return kind;
    }

    /** ReplacingMergeTree's version column. */
    public Optional<String> versionColumn() {
        return Optional.ofNullable(versionColumn);
    }

    /** ReplacingMergeTree's is_deleted column. */
    public Optional<String> isDeletedColumn() {
        return Optional.ofNullable(isDeletedColumn);
    }

    /** SummingMergeTree's explicit columns to sum (empty: all numeric non-key columns). */
    public List<String> sumColumns() {
        return sumColumns;
    }

    /** CollapsingMergeTree's sign column. */
    public Optional<String> signColumn() {
        return Optional.ofNullable(signColumn);
    }

    /** The engine clause value, e.g. {@code ReplacingMergeTree(`ver`)}. */
    public String toSql() {
        List<String> args = new ArrayList<>();
        switch (kind) {
            case REPLACING_MERGE_TREE -> {
                if (versionColumn != null) {
                    args.add(DdlParser.quoteIdentifier(versionColumn));
                }
                if (isDeletedColumn != null) {
                    args.add(DdlParser.quoteIdentifier(isDeletedColumn));
                }
            }
            case SUMMING_MERGE_TREE -> {
                if (!sumColumns.isEmpty()) {
                    List<String> q = new ArrayList<>();
                    for (String c : sumColumns) {
                        q.add(DdlParser.quoteIdentifier(c));
                    }
                    args.add(q.size() == 1 ? q.get(0) : "(" + String.join(", ", q) + ")");
                }
            }
            case COLLAPSING_MERGE_TREE -> args.add(DdlParser.quoteIdentifier(signColumn));
            default -> {}
        }
        return kind.engineName() + (args.isEmpty() ? "" : "(" + String.join(", ", args) + ")");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EngineDefinition e
                && e.kind == kind
                && Objects.equals(e.versionColumn, versionColumn)
                && Objects.equals(e.isDeletedColumn, isDeletedColumn)
                && e.sumColumns.equals(sumColumns)
                && Objects.equals(e.signColumn, signColumn);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, versionColumn, isDeletedColumn, sumColumns, signColumn);
    }

    @Override
    public String toString() {
        return toSql();
    }
}
