package io.github.s3mergetree.engine.merge;

import java.util.List;

/**
 * A merge policy: a pure function from the active parts of a table to the next range of parts to
 * merge. It never looks at the disk or the clock (ages come in the candidates), so it is tested
 * deterministically and run by an executor that knows nothing of policy (ClickHouse's {@code
 * IMergeSelector}).
 *
 * <p>Contract: {@code partitions} holds, per partition, its active parts ordered by block number
 * (adjacent parts only can be merged together). The result is a contiguous sub-list of one
 * partition's list with at least two parts, or empty when nothing is worth merging; its total size
 * never exceeds {@code maxTotalBytesToMerge} (0 = unlimited).
 */
public interface MergeSelector {
    List<MergeCandidate> select(List<List<MergeCandidate>> partitions, long maxTotalBytesToMerge);
}
