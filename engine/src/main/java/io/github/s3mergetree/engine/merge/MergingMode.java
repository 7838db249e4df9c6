package io.github.s3mergetree.engine.merge;

import java.util.List;

/**
 * What a merge does with rows whose sorting keys are equal, per table engine: keep them all
 * (MergeTree), keep the newest (ReplacingMergeTree), add up numeric columns (SummingMergeTree),
 * cancel +1/−1 pairs (CollapsingMergeTree), cancel pairs of opposite signs among the rows of one
 * version (VersionedCollapsingMergeTree, whose sorting key ends with the version), or combine the
 * SimpleAggregateFunction columns with their functions (AggregatingMergeTree: the functions travel
 * with the columns' types).
 *
 * @param kind the engine family
 * @param versionColumn ReplacingMergeTree's or VersionedCollapsingMergeTree's {@code ver}, or null
 * @param isDeletedColumn ReplacingMergeTree's {@code is_deleted}, or null (rows are kept, as
 *     ClickHouse keeps them without {@code CLEANUP})
 * @param sumColumns SummingMergeTree's columns to sum; empty = every numeric column outside the
 *     sorting key
 * @param signColumn CollapsingMergeTree's or VersionedCollapsingMergeTree's {@code sign}, or null
 */
public record MergingMode(
        Kind kind,
        String versionColumn,
        String isDeletedColumn,
        List<String> sumColumns,
        String signColumn) {
    /** The engine families. */
    public enum Kind {
        ORDINARY,
        REPLACING,
        SUMMING,
        COLLAPSING,
        VERSIONED_COLLAPSING,
        AGGREGATING
    }

    public static final MergingMode ORDINARY =
            new MergingMode(Kind.ORDINARY, null, null, List.of(), null);

    public static MergingMode replacing(String version, String isDeleted) {
        return new MergingMode(Kind.REPLACING, version, isDeleted, List.of(), null);
    }

    public static MergingMode summing(List<String> columns) {
        return new MergingMode(Kind.SUMMING, null, null, List.copyOf(columns), null);
    }

    public static final MergingMode AGGREGATING =
            new MergingMode(Kind.AGGREGATING, null, null, List.of(), null);

    public static MergingMode collapsing(String sign) {
        return new MergingMode(Kind.COLLAPSING, null, null, List.of(), sign);
    }

    public static MergingMode versionedCollapsing(String sign, String version) {
        return new MergingMode(Kind.VERSIONED_COLLAPSING, version, null, List.of(), sign);
    }
}
