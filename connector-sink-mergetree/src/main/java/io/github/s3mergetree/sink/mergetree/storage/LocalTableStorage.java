package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.store.TableStore;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A table directory on a file system every TaskManager shares (a mounted volume, NFS) — the POSIX
 * store: writes appear by rename, commits are create-only hard links, so several subtasks and
 * processes may commit at once without a lock. A directory on each host's own disk would split the
 * table: the committer finds the temporary parts of other hosts missing and fails the job before
 * anything is visible.
 */
@PublicEvolving
public final class LocalTableStorage implements TableStorage {
    private static final long serialVersionUID = 1L;

    private final String path;

    /** The table in directory {@code path}, which must be absolute. */
    public LocalTableStorage(String path) {
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException(
                    "a table directory must be an absolute path (every TaskManager resolves it the"
                            + " same way), got '"
                            + path
                            + "'");
        }
        this.path = path;
    }

    @Override
    public TableStore openStore() {
        return TableStore.local(path);
    }

    @Override
    public boolean isLocal() {
        return true;
    }

    @Override
    public String describe() {
        return path;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LocalTableStorage l && l.path.equals(path);
    }

    @Override
    public int hashCode() {
        return path.hashCode();
    }

    @Override
    public String toString() {
        return "LocalTableStorage(" + path + ")";
    }
}
