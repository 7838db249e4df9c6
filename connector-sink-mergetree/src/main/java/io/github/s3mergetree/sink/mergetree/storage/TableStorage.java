package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import java.io.IOException;
import java.io.Serializable;
import java.time.Clock;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a sink's table lives: S3 ({@link S3TableStorage}, {@code s3://bucket/prefix}) or a
 * directory ({@link LocalTableStorage}). Serializable: it travels to every writer, committer and
 * the merge coordinator, which each open the table's {@link TableStore} themselves. The sink talks
 * to the table only through the engine's APIs on that store.
 */
@PublicEvolving
public interface TableStorage extends Serializable {
    /** Opens the table's store; the caller closes it. */
    TableStore openStore() throws IOException;

    /** Opens the table, creating it with {@code layout}'s DDL if it does not exist. */
    default MergeTreeTable open(TableLayout layout, Clock clock) throws IOException {
        TableStore store = openStore();
        try {
            return MergeTreeTable.open(store, layout, clock);
        } catch (IOException | RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** The DDL stored with an existing table, if the table exists. */
    default Optional<String> storedDdl() throws IOException {
        try (TableStore store = openStore()) {
            return MergeTreeTable.storedDdl(store);
        }
    }

    /**
     * Whether the table is on this host's file system: only a directory every TaskManager shares
     * (NFS, a mounted volume) makes one table; a local disk of each host would split it, which the
     * committer detects and refuses.
     */
    boolean isLocal();

    /** For messages ({@code s3://bucket/prefix} or the directory). */
    String describe();
}
