package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertSettings;
import io.github.s3mergetree.engine.table.InsertWriter;
import io.github.s3mergetree.engine.table.TableDirectory;
import io.github.s3mergetree.engine.table.TableLayout;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * Writes one insert block as temporary parts, one per partition, with the engine's {@link
 * InsertWriter} (split, sort, {@code optimize_on_insert}, part writing), into directories named for
 * this sink ({@link TempPartNames}), timing the sort and write phases.
 *
 * <p>Thread-safe: one instance per writer is shared by its background insert threads.
 */
@Internal
final class PartsWriter {
    private final InsertWriter insertWriter;

    PartsWriter(TableLayout layout, TableDirectory directory, InsertSettings insertSettings) {
        this.insertWriter = new InsertWriter(layout, directory, insertSettings);
    }

    List<TemporaryPart> write(BlockChunks block, String purpose, InsertWriter.Timings timings)
            throws IOException {
        return insertWriter.write(block, purpose, timings);
    }
}
