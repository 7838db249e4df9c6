package io.github.s3mergetree.engine.ddl;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The table engine of a {@link TableSchema}: one of the MergeTree family members this engine
 * writes, with its parameters (version and is_deleted columns of ReplacingMergeTree, the columns to
 * sum of SummingMergeTree, the sign column of CollapsingMergeTree, the sign and version columns of
 * VersionedCollapsingMergeTree; AggregatingMergeTree has none), and, for a {@code Replicated…} or
 * {@code Shared…} engine, its {@link EngineReplication replication facts}.
 *
 * <p>Why: merges (and the readers of the written parts) must apply the engine's row-collapsing
 * rules; the parameters are validated against the table's columns as ClickHouse validates them. A
 * replicated engine writes the same parts as its plain counterpart ({@link #withoutReplication()}),
 * which is what this engine is on its own store.
 */
public final class EngineDefinition {

    /** The supported engines. */
    public enum Kind {
        MERGE_TREE("MergeTree"),
        REPLACING_MERGE_TREE("ReplacingMergeTree"),
        SUMMING_MERGE_TREE("SummingMergeTree"),
        COLLAPSING_MERGE_TREE("CollapsingMergeTree"),
        VERSIONED_COLLAPSING_MERGE_TREE("VersionedCollapsingMergeTree"),
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
    private final EngineReplication replication;

    private EngineDefinition(
            Kind kind,
            String versionColumn,
            String isDeletedColumn,
            List<String> sumColumns,
            String signColumn,
            EngineReplication replication) {
        this.kind = kind;
        this.versionColumn = versionColumn;
        this.isDeletedColumn = isDeletedColumn;
        this.sumColumns = List.copyOf(sumColumns);
        this.signColumn = signColumn;
        this.replication = replication;
    }

    private EngineDefinition(
            Kind kind,
            String versionColumn,
            String isDeletedColumn,
            List<String> sumColumns,
            String signColumn) {
        this(kind, versionColumn, isDeletedColumn, sumColumns, signColumn, null);
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

    /**
     * {@code VersionedCollapsingMergeTree(sign, version)}: rows with equal sorting keys and equal
     * versions cancel in +1/−1 pairs, in any order (the version is appended to the sorting key).
     */
    public static EngineDefinition versionedCollapsingMergeTree(
            String signColumn, String versionColumn) {
        return new EngineDefinition(
                Kind.VERSIONED_COLLAPSING_MERGE_TREE,
                Objects.requireNonNull(versionColumn, "versionColumn"),
                null,
                List.of(),
                Objects.requireNonNull(signColumn, "signColumn"));
    }

    /** This engine replicated as {@code replication} says (e.g. {@code ReplicatedMergeTree}). */
    public EngineDefinition replicated(EngineReplication replication) {
        return new EngineDefinition(
                kind,
                versionColumn,
                isDeletedColumn,
                sumColumns,
                signColumn,
                Objects.requireNonNull(replication, "replication"));
    }

    /**
     * The plain engine whose parts this one writes: itself without its replication (e.g. {@code
     * ReplacingMergeTree(ver)} for {@code ReplicatedReplacingMergeTree('/p', '{replica}', ver)}).
     */
    public EngineDefinition withoutReplication() {
        return replication == null
                ? this
                : new EngineDefinition(
                        kind, versionColumn, isDeletedColumn, sumColumns, signColumn);
    }

    /**
     * The replication of a {@code Replicated…} or {@code Shared…} engine; empty for a plain one.
     */
    public Optional<EngineReplication> replication() {
        return Optional.ofNullable(replication);
    }

    /** The engine name as written in SQL, e.g. {@code ReplicatedReplacingMergeTree}. */
    public String name() {
        return (replication == null ? "" : replication.family().prefix()) + kind.engineName();
    }

    public Kind kind() {
        return kind;
    }

    /** ReplacingMergeTree's or VersionedCollapsingMergeTree's version column. */
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

    /** CollapsingMergeTree's or VersionedCollapsingMergeTree's sign column. */
    public Optional<String> signColumn() {
        return Optional.ofNullable(signColumn);
    }

    /**
     * The engine clause value, e.g. {@code ReplacingMergeTree(`ver`)} or {@code
     * ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}')}.
     */
    public String toSql() {
        List<String> args = new ArrayList<>();
        if (replication != null && replication.zooKeeperPath() != null) {
            args.add(replication.argumentsSql());
        }
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
            case VERSIONED_COLLAPSING_MERGE_TREE -> {
                args.add(DdlParser.quoteIdentifier(signColumn));
                args.add(DdlParser.quoteIdentifier(versionColumn));
            }
            default -> {}
        }
        return name() + (args.isEmpty() ? "" : "(" + String.join(", ", args) + ")");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EngineDefinition e
                && e.kind == kind
                && Objects.equals(e.versionColumn, versionColumn)
                && Objects.equals(e.isDeletedColumn, isDeletedColumn)
                && e.sumColumns.equals(sumColumns)
                && Objects.equals(e.signColumn, signColumn)
                && Objects.equals(e.replication, replication);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                kind, versionColumn, isDeletedColumn, sumColumns, signColumn, replication);
    }

    @Override
    public String toString() {
        return toSql();
    }
}
