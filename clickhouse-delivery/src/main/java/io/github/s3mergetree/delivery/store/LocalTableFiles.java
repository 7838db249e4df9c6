package io.github.s3mergetree.delivery.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * {@link TableFiles} of a table directory on a POSIX filesystem. Writes go to a temporary file and
 * are renamed into place, so a reader never sees half an object; {@link #createIfAbsent} links the
 * finished temporary file to its name, which fails if the name exists.
 */
public final class LocalTableFiles implements TableFiles {
    private final Path root;

    public LocalTableFiles(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    private Path resolve(String path) {
        Path p = root.resolve(path).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException(
                    "path " + path + " leaves the table directory " + root);
        }
        return p;
    }

    @Override
    public Optional<byte[]> read(String path) throws IOException {
        try {
            return Optional.of(Files.readAllBytes(resolve(path)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    @Override
    public InputStream open(String path) throws IOException {
        return Files.newInputStream(resolve(path));
    }

    @Override
    public long size(String path) throws IOException {
        return Files.size(resolve(path));
    }

    @Override
    public void write(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        Path tmp = temporary(target, content);
        Files.move(
                tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public boolean createIfAbsent(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        Path tmp = temporary(target, content);
        try {
            Files.createLink(target, tmp);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static Path temporary(Path target, byte[] content) throws IOException {
        Files.createDirectories(target.getParent());
        Path tmp =
                Files.createTempFile(target.getParent(), "." + target.getFileName() + ".", ".tmp");
        Files.write(tmp, content);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        return tmp;
    }

    @Override
    public void delete(String path) throws IOException {
        Path p = resolve(path);
        Files.deleteIfExists(p);
        // as on an object store, a directory is gone with its last file (up to the table's root)
        for (Path dir = p.getParent();
                dir != null && dir.startsWith(root) && !dir.equals(root);
                dir = dir.getParent()) {
            try {
                Files.delete(dir);
            } catch (java.nio.file.DirectoryNotEmptyException
                    | java.nio.file.NoSuchFileException e) {
                break;
            }
        }
    }

    @Override
    public List<String> listFiles(String dir) throws IOException {
        return list(dir, false);
    }

    @Override
    public List<String> listDirectories(String dir) throws IOException {
        return list(dir, true);
    }

    private List<String> list(String dir, boolean directories) throws IOException {
        Path d = dir.isEmpty() ? root : resolve(dir);
        if (!Files.isDirectory(d)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : s.toList()) {
                String name = p.getFileName().toString();
                if (Files.isDirectory(p) == directories
                        && !(name.startsWith(".") && name.endsWith(".tmp"))) {
                    out.add(name);
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Override
    public Optional<List<io.github.s3mergetree.engine.part.PartName>> activePartsByCommitLog()
            throws IOException {
        List<io.github.s3mergetree.engine.part.PartName> out = new ArrayList<>();
        try (io.github.s3mergetree.engine.store.TableStore store =
                io.github.s3mergetree.engine.store.TableStore.local(root.toString())) {
            for (io.github.s3mergetree.engine.table.ActivePart part :
                    io.github.s3mergetree.engine.table.MergeTreeTable.readActiveParts(store)) {
                out.add(part.name());
            }
        }
        return Optional.of(out);
    }

    @Override
    public String describe(String path) {
        return resolve(path).toString();
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
