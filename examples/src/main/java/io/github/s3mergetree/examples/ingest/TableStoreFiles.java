package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The delivery's view of a table ({@link TableFiles}) on the engine's {@link TableStore}: the same
 * objects the sink wrote, on S3 or in a directory, read and written through the same client stack
 * (retries, conditional writes) as the table itself. Paths are relative to the table's root.
 */
final class TableStoreFiles implements TableFiles {
    private final TableStore store;

    TableStoreFiles(TableStore store) {
        this.store = store;
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        return store.readIfExists(path);
    }

    @Override
    public InputStream open(String path) throws IOException {
        return store.openStream(path);
    }

    @Override
    public long size(String path) throws IOException {
        return store.stat(path)
                .orElseThrow(() -> new java.io.FileNotFoundException(store.describe(path)))
                .size();
    }

    @Override
    public void write(String path, byte[] content) throws IOException {
        store.put(path, content);
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) throws IOException {
        return store.createIfAbsent(path, content);
    }

    @Override
    public void delete(String path) throws IOException {
        store.delete(path);
    }

    @Override
    public List<String> listFiles(String dir) throws IOException {
        String prefix = dir.isEmpty() ? "" : dir + "/";
        List<String> out = new ArrayList<>();
        for (ObjectSummary o : store.list(prefix)) {
            String name = o.key().substring(prefix.length());
            if (!name.contains("/")) {
                out.add(name);
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public List<String> listDirectories(String dir) throws IOException {
        return store.listDirectories(dir.isEmpty() ? "" : dir + "/");
    }

    @Override
    public String describe(String path) {
        return store.describe(path);
    }
}
