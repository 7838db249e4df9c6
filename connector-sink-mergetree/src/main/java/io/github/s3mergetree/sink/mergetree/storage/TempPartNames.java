package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.table.TableKeys;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * Names of this sink's temporary part directories: {@code tmp_s3mt-<sink-id>-<subtask>-<epoch>_
 * <partition>_<uuid>}, where the epoch is the checkpoint the writer last snapshotted (the restored
 * one after a restart, 0 before the first). A part written in epoch {@code e} belongs to a
 * committable of a checkpoint after {@code e}; after a restore from checkpoint {@code R}, the
 * directories of epochs {@code >= R} belong to no restored committable: they are what an aborted
 * attempt left, and the restarted writer removes them.
 */
@Internal
public final class TempPartNames {
    private TempPartNames() {}

    /** A temporary directory of this sink, parsed. */
    public record Parsed(int subtask, long epoch) {}

    /** {@code sinkId} with anything but letters, digits and dots replaced by dots. */
    public static String sanitize(String sinkId) {
        String s = sinkId.replaceAll("[^A-Za-z0-9.]", ".");
        return s.isEmpty() ? "default" : s;
    }

    /** The purpose argument of {@link io.github.s3mergetree.engine.table.InsertWriter#write}. */
    public static String purpose(String sinkId, int subtask, long epoch) {
        return "s3mt-" + sanitize(sinkId) + "-" + subtask + "-" + epoch;
    }

    /** The subtask and epoch of a directory of sink {@code sinkId}, if it is one. */
    public static Optional<Parsed> parse(String directoryName, String sinkId) {
        String prefix = TableKeys.TMP_PREFIX + "s3mt-" + sanitize(sinkId) + "-";
        if (!directoryName.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = directoryName.substring(prefix.length());
        int dash = rest.indexOf('-');
        int underscore = rest.indexOf('_');
        if (dash <= 0 || underscore <= dash) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    new Parsed(
                            Integer.parseInt(rest.substring(0, dash)),
                            Long.parseLong(rest.substring(dash + 1, underscore))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
