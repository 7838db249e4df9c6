package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableDirectory;
import io.github.s3mergetree.engine.table.TableLayout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A table directory on a local or shared filesystem. Several subtasks (and processes) may open it
 * at once: the engine orders their commits with a lock file; a first creation racing with another
 * is retried.
 */
@PublicEvolving
public final class LocalTableStorage implements TableStorage {
    private static final long serialVersionUID = 1L;

    private final String path;

    /** The table at directory {@code path}. */
    public LocalTableStorage(String path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    @Override
    public Path root() {
        return Path.of(path);
    }

    @Override
    public MergeTreeTable open(TableLayout layout, Clock clock) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return MergeTreeTable.open(root(), layout, clock);
            } catch (IOException e) {
                // two subtasks creating the same new table race on its metadata files
                last = e;
                try {
                    Thread.sleep(20L * (attempt + 1));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while opening " + path, ie);
                }
            }
        }
        throw last;
    }

    @Override
    public Optional<String> storedDdl() throws IOException {
        Path f = root().resolve(TableDirectory.METADATA_DIR).resolve(TableDirectory.DDL_FILE);
        return Files.isRegularFile(f)
                ? Optional.of(Files.readString(f, StandardCharsets.UTF_8))
                : Optional.empty();
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
