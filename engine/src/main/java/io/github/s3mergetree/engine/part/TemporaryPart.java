package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.store.Uninterruptibly;
import java.io.IOException;

/**
 * A part fully written under a {@code tmp_*} directory of the table, not yet visible: ClickHouse's
 * {@code MergeTreeData::Transaction} model, writer → temporary part → transaction that makes it
 * active. The table's commit publishes it under its final name with a block number; {@link
 * #abort()} removes it.
 *
 * @param store the table's store
 * @param directory the temporary directory's name in the table ({@code tmp_insert_…})
 * @param partition the part's partition
 * @param files what was written (rows, checksums, sizes)
 */
public record TemporaryPart(
        TableStore store, String directory, PartitionData partition, WrittenPartFiles files) {
    /**
     * Deletes the temporary directory, also on an interrupted thread (a cancelled task's: {@link
     * Uninterruptibly}).
     */
    public void abort() throws IOException {
        Uninterruptibly.run(() -> store.deletePrefix(PartStorage.prefix(directory)));
    }
}
