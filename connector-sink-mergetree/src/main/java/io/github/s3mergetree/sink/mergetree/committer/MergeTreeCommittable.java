package io.github.s3mergetree.sink.mergetree.committer;

import java.util.List;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * What one writer subtask hands to the committer at a checkpoint (or at the end of a bounded
 * input): the temporary parts it wrote since the previous one, all to be published in one
 * transaction, and the dedup token of that transaction. Committing the same committable twice (a
 * replay after a failure) is a no-op: the table directory remembers the token.
 *
 * @param token the dedup token ({@code <sink-id>-<job>-<subtask>-<epoch>-<seq>}), or null when
 *     {@code insert_deduplicate = 0}
 * @param parts the temporary parts, in the order they were written
 * @param endOfInput whether this is the writer's last committable (its input ended): the committer
 *     that commits the last of these finishes the table (OPTIMIZE FINAL when asked)
 * @param jobId the id of the job whose writer made it, or null when unknown (restored from a
 *     version-1 checkpoint, which did not record it): the committer's check that a local table is
 *     shared counts the writer registrations of its own job only for its own job's committables,
 *     since a job resumed from an earlier job's savepoint commits that job's committables before
 *     its own writers may have registered
 */
@PublicEvolving
public record MergeTreeCommittable(
        String token, List<PendingPart> parts, boolean endOfInput, String jobId) {
    /** Validates and copies. */
    public MergeTreeCommittable {
        parts = List.copyOf(parts);
    }

    /** A committable of an unknown job. */
    public MergeTreeCommittable(String token, List<PendingPart> parts, boolean endOfInput) {
        this(token, parts, endOfInput, null);
    }

    /** A committable of an unknown job that is not the writer's last. */
    public MergeTreeCommittable(String token, List<PendingPart> parts) {
        this(token, parts, false);
    }

    /** Total rows of the parts. */
    public long rows() {
        long n = 0;
        for (PendingPart p : parts) {
            n += p.rows();
        }
        return n;
    }

    /**
     * One temporary part: its directory (a {@code tmp_*} name inside the table directory), its
     * partition and sizes.
     *
     * @param directoryName the temporary directory's name in the table directory
     * @param partitionId the partition id (the prefix of the final part name)
     * @param rows rows in the part
     * @param marks marks (granules, + the final mark if any)
     * @param bytesOnDisk compressed bytes of the part's files
     * @param dataUncompressedBytes uncompressed bytes of its column streams
     * @param bytesInMemory the in-memory size of the block the part was written from
     */
    public record PendingPart(
            String directoryName,
            String partitionId,
            long rows,
            int marks,
            long bytesOnDisk,
            long dataUncompressedBytes,
            long bytesInMemory) {
        /** Validates. */
        public PendingPart {
            Objects.requireNonNull(directoryName, "directoryName");
            Objects.requireNonNull(partitionId, "partitionId");
        }
    }
}
