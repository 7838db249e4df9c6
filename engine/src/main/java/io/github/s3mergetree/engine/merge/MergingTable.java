package io.github.s3mergetree.engine.merge;

import io.github.s3mergetree.engine.part.PartName;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * What the {@link MergeScheduler} needs of a table: the candidates to choose from, the size limit,
 * a way to run one merge, and news of committed parts. The MergeTree table implements it; the
 * scheduler (the executor) and the selector (the policy) know nothing else of it.
 */
public interface MergingTable {
    /** The active parts per partition, in block order, with {@code busy} parts marked. */
    List<List<MergeCandidate>> mergeCandidates(Set<PartName> busy) throws IOException;

    /**
     * A merge the table's TTL asks for before any other (ClickHouse's TTL merge selector): parts of
     * one partition whose TTL has expired, to be merged so that the expired rows are removed; empty
     * if none is due. A table without TTL never asks for one.
     */
    default List<PartName> ttlMerge(Set<PartName> busy) throws IOException {
        return List.of();
    }

    /** {@code max_bytes_to_merge_at_max_space_in_pool}: the largest merge (0 = unlimited). */
    long maxBytesToMerge();

    /**
     * Merges {@code sources} (contiguous active parts of one partition) and publishes the result.
     *
     * @return the merged part, or null if the sources changed meanwhile (nothing was published)
     */
    PartName merge(List<PartName> sources, PartMerger.Progress progress) throws IOException;

    /** Registers {@code listener} for the names of newly committed parts. */
    void onNewParts(Consumer<List<PartName>> listener);
}
