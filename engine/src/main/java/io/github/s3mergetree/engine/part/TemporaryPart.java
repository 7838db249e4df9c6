package io.github.s3mergetree.engine.part;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A part fully written under a {@code tmp_insert_*} directory of the table, not yet visible. A
 * {@link io.github.s3mergetree.engine.table.TableDirectory} transaction renames it into place with
 * a block number; {@link #abort()} removes it. ClickHouse's {@code MergeTreeData::Transaction}
 * model: writer → temporary part → transaction that makes it active.
 *
 * @param directory the temporary directory holding the part's files
 * @param partition the part's partition
 * @param files what was written (rows, checksums, sizes)
 */
public record TemporaryPart(Path directory, PartitionData partition, WrittenPartFiles files) {
    /** Deletes the temporary directory. */
    public void abort() throws IOException {
        Parts.deleteRecursively(directory);
    }
}
