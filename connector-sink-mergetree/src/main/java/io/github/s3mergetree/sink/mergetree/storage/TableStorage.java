package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Where a sink's table lives. The sink only talks to the table through this interface, so that a
 * storage other than a POSIX directory (object storage with a commit protocol of its own) can
 * follow; {@link LocalTableStorage} is a directory on a local or shared filesystem (NFS, a mounted
 * volume), which must rename atomically.
 */
@PublicEvolving
public interface TableStorage extends Serializable {
    /** The table directory as this process sees it. */
    Path root();

    /** Opens the table, creating it with {@code layout}'s DDL if it does not exist. */
    MergeTreeTable open(TableLayout layout, Clock clock) throws IOException;

    /** The DDL stored with an existing table, if the table exists. */
    Optional<String> storedDdl() throws IOException;

    /** For messages. */
    String describe();
}
