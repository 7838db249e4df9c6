package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import java.io.IOException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Predicate;
import org.apache.flink.annotation.Internal;

/**
 * What a starting writer removes: the temporary part directories ({@link TempPartNames}) of its
 * sink that no restored committable names, because an aborted attempt wrote them. Those of its own
 * subtask index and of indices no writer has any more (at or above the parallelism, spread over the
 * writers by index modulo the parallelism), with an epoch at or after the restored checkpoint; all
 * of them on a fresh start.
 */
@Internal
final class AbortedAttemptCleanup {
    private AbortedAttemptCleanup() {}

    /**
     * Which temporary directory names writer {@code subtask} of {@code parallelism} of sink {@code
     * sinkId} removes after a restore from {@code restoredCheckpoint} (empty: a fresh start).
     */
    static Predicate<String> leftovers(
            String sinkId, int subtask, int parallelism, OptionalLong restoredCheckpoint) {
        return name -> {
            Optional<TempPartNames.Parsed> parsed = TempPartNames.parse(name, sinkId);
            if (parsed.isEmpty()) {
                return false;
            }
            int j = parsed.get().subtask();
            boolean mine = j == subtask || (j >= parallelism && j % parallelism == subtask);
            boolean aborted =
                    restoredCheckpoint.isEmpty()
                            || parsed.get().epoch() >= restoredCheckpoint.getAsLong();
            return mine && aborted;
        };
    }

    /** Removes the {@link #leftovers} from {@code table}; returns how many were removed. */
    static int run(
            MergeTreeTable table,
            String sinkId,
            int subtask,
            int parallelism,
            OptionalLong restoredCheckpoint)
            throws IOException {
        return table.removeTemporaryDirectories(
                leftovers(sinkId, subtask, parallelism, restoredCheckpoint));
    }
}
