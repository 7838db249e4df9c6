package io.github.s3mergetree.delivery.store;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link TableFiles} backed by the engine's {@link TableStore}: the same seam the sink and the
 * engine write the table through, so delivery reads an {@code s3://} table (or a directory) with
 * the store's client, retries and conditional writes, and needs no {@code java.nio} path and no
 * client of its own. {@link #createIfAbsent} is the store's {@code If-None-Match: *} put; a store
 * that does not enforce conditional writes is refused, since two deliverers could then both record
 * the same delivery.
 */
public final class StoreTableFiles implements TableFiles {
    private final TableStore store;

    /**
     * @param store a store the caller owns and closes
     * @throws IllegalArgumentException if the store does not enforce conditional writes
     */
    public StoreTableFiles(TableStore store) {
        this.store = Objects.requireNonNull(store, "store");
        if (!store.supportsConditionalWrites()) {
            throw new IllegalArgumentException(
                    "delivery needs a store that enforces conditional writes (If-None-Match), "
                            + store.location()
                            + " does not");
        }
    }

    /** The store the files are read from and written to. */
    public TableStore store() {
        return store;
    }

    private static String checked(String path) {
        if (path.startsWith("/")
                || path.equals("..")
                || path.startsWith("../")
                || path.contains("/../")
                || path.endsWith("/..")) {
            throw new IllegalArgumentException("path " + path + " leaves the table's prefix");
        }
        return path;
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        return store.readIfExists(checked(path));
    }

    @Override
    public InputStream open(String path) throws IOException {
        return store.openStream(checked(path));
    }

    @Override
    public long size(String path) throws IOException {
        return store.stat(checked(path))
                .orElseThrow(() -> new IOException("missing " + describe(path)))
                .size();
    }

    @Override
    public void write(String path, byte[] content) throws IOException {
        store.put(checked(path), content);
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) throws IOException {
        return store.createIfAbsent(checked(path), content);
    }

    @Override
    public void delete(String path) throws IOException {
        store.delete(checked(path));
    }

    @Override
    public List<String> listFiles(String dir) throws IOException {
        List<String> out = new ArrayList<>();
        for (ObjectStoreClient.ListPage page : pages(dir)) {
            for (ObjectSummary o : page.objects()) {
                String name = o.key().substring(dirKey(dir).length());
                if (!name.isEmpty() && !name.contains("/")) {
                    out.add(name);
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public List<String> listDirectories(String dir) throws IOException {
        List<String> out = new ArrayList<>(store.listDirectories(relativeDir(dir)));
        out.sort(null);
        return out;
    }

    private static String relativeDir(String dir) {
        return dir.isEmpty() ? "" : checked(dir.endsWith("/") ? dir : dir + "/");
    }

    private String dirKey(String dir) {
        return store.prefix() + relativeDir(dir);
    }

    private List<ObjectStoreClient.ListPage> pages(String dir) throws IOException {
        List<ObjectStoreClient.ListPage> out = new ArrayList<>();
        String token = null;
        do {
            ObjectStoreClient.ListPage page =
                    store.client().list(dirKey(dir), "/", null, token, 1000);
            out.add(page);
            token = page.nextContinuationToken();
        } while (token != null);
        return out;
    }

    @Override
    public Optional<List<io.github.s3mergetree.engine.part.PartName>> activePartsByCommitLog()
            throws IOException {
        List<io.github.s3mergetree.engine.part.PartName> out = new ArrayList<>();
        for (io.github.s3mergetree.engine.table.ActivePart part :
                io.github.s3mergetree.engine.table.MergeTreeTable.readActiveParts(store)) {
            out.add(part.name());
        }
        return Optional.of(out);
    }

    @Override
    public String describe(String path) {
        return store.describe(path);
    }

    @Override
    public String toString() {
        return store.location();
    }
}
