package io.github.s3mergetree.delivery.store;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;

/**
 * The objects of a table this project wrote, as delivery needs them: read part files, list part
 * directories, and write its own small objects (the backup manifest, per-delivery files, the
 * delivery ledger) under the table's root, some of them with a create-only-if-absent condition.
 *
 * <p>Paths are relative to the table's root and use {@code /}. Implementations: {@link
 * LocalTableFiles} (a directory; {@code createIfAbsent} by an exclusive create) and {@link
 * S3TableFiles} (an S3 prefix; {@code createIfAbsent} by {@code If-None-Match: *}, which the store
 * must enforce). This is delivery's view of the engine's table store and will be backed by it.
 */
public interface TableFiles {
    /** The content of {@code path}, empty if there is no such object. */
    Optional<byte[]> read(String path) throws IOException;

    /** A stream of {@code path}'s content; the caller closes it. */
    InputStream open(String path) throws IOException;

    /** The size of {@code path} in bytes. */
    long size(String path) throws IOException;

    /** Writes {@code path} (replacing it if it exists). */
    void write(String path, byte[] content) throws IOException;

    /**
     * Creates {@code path} only if no object has that path: atomic against concurrent writers.
     *
     * @return false if it existed (nothing written)
     */
    boolean createIfAbsent(String path, byte[] content) throws IOException;

    /** Deletes {@code path} if it exists. */
    void delete(String path) throws IOException;

    /** The names of the objects directly under {@code dir} (not of sub-directories). */
    List<String> listFiles(String dir) throws IOException;

    /** The names of the sub-directories directly under {@code dir} ({@code ""}: the root). */
    List<String> listDirectories(String dir) throws IOException;

    /**
     * The table's active parts by its commit log (the engine's truth about what is committed),
     * empty if these files do not reach the log; {@link
     * io.github.s3mergetree.delivery.part.PartInventory} then falls back to the part directories
     * that have {@code checksums.txt}.
     */
    default Optional<List<io.github.s3mergetree.engine.part.PartName>> activePartsByCommitLog()
            throws IOException {
        return Optional.empty();
    }

    /** {@code path} for messages, e.g. {@code s3://bucket/tables/posts/2008_1_1_0/data.bin}. */
    String describe(String path);
}
