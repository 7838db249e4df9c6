package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.TemporaryPart;
import java.util.Objects;

/**
 * A temporary part to commit, as a writer (or a checkpoint) remembers it: its directory, partition
 * and sizes. The table publishes it without re-reading it; before committing it checks that the
 * directory is complete in the table's store (a part written to a disk the committer cannot see
 * fails the commit instead of being lost).
 *
 * @param temporaryDirectory the {@code tmp_*} directory's name in the table
 * @param partitionId the partition id (the prefix of the final part name)
 * @param rows rows
 * @param bytesOnDisk compressed bytes of its files
 * @param dataUncompressedBytes uncompressed bytes of its column streams
 */
public record PendingInsert(
        String temporaryDirectory,
        String partitionId,
        long rows,
        long bytesOnDisk,
        long dataUncompressedBytes) {
    /** Validates. */
    public PendingInsert {
        Objects.requireNonNull(temporaryDirectory, "temporaryDirectory");
        Objects.requireNonNull(partitionId, "partitionId");
        if (!temporaryDirectory.startsWith(TableKeys.TMP_PREFIX)
                || temporaryDirectory.contains("/")
                || temporaryDirectory.contains("..")) {
            throw new IllegalArgumentException(
                    "not a temporary part directory of a table: '" + temporaryDirectory + "'");
        }
    }

    /** The commit description of a part just written. */
    public static PendingInsert of(TemporaryPart p) {
        return new PendingInsert(
                p.directory(),
                p.partition().partitionId(),
                p.files().rows(),
                p.files().bytesOnDisk(),
                p.files().dataUncompressedBytes());
    }
}
