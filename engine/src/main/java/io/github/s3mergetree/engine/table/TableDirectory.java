package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.TemporaryPart;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A MergeTree table's data directory, laid out as ClickHouse lays it out ({@code
 * format_version.txt}, one directory per part, {@code detached/}) plus this project's own metadata
 * under {@value #METADATA_DIR}/ (the table's DDL, the block number counter), a name ClickHouse does
 * not parse as a part and ignores.
 *
 * <p>Block numbers are allocated under an exclusive file lock, so several writers (threads,
 * processes) sharing the directory never get the same number; a part becomes visible by an atomic
 * rename of its temporary directory.
 */
public final class TableDirectory {
    public static final String METADATA_DIR = "s3mergetree_metadata";
    public static final String DDL_FILE = "table.sql";
    private static final String COUNTER_FILE = "block_numbers.txt";
    public static final String TMP_PREFIX = "tmp_";

    private final Path root;

    private TableDirectory(Path root) {
        this.root = root;
    }

    /**
     * Opens the table directory at {@code root}, creating the ClickHouse layout and storing {@code
     * ddl} if the directory is new. An existing table keeps its stored DDL; callers compare it.
     */
    public static TableDirectory createOrOpen(Path root, String ddl) throws IOException {
        Files.createDirectories(root.resolve("detached"));
        Files.createDirectories(root.resolve(METADATA_DIR));
        Path fv = root.resolve("format_version.txt");
        if (!Files.exists(fv)) {
            writeAtomically(fv, "1".getBytes(StandardCharsets.US_ASCII));
        }
        Path ddlFile = root.resolve(METADATA_DIR).resolve(DDL_FILE);
        if (!Files.exists(ddlFile)) {
            writeAtomically(ddlFile, ddl.getBytes(StandardCharsets.UTF_8));
        }
        return new TableDirectory(root);
    }

    /** Opens an existing table directory. */
    public static TableDirectory open(Path root) throws IOException {
        if (!Files.isRegularFile(root.resolve(METADATA_DIR).resolve(DDL_FILE))) {
            throw new IOException(
                    "not a table directory (no " + METADATA_DIR + "/" + DDL_FILE + "): " + root);
        }
        return new TableDirectory(root);
    }

    public Path root() {
        return root;
    }

    /** The DDL the table was created with. */
    public Optional<String> storedDdl() throws IOException {
        Path f = root.resolve(METADATA_DIR).resolve(DDL_FILE);
        return Files.exists(f) ? Optional.of(Files.readString(f)) : Optional.empty();
    }

    /** A fresh temporary directory for a part being written. */
    public Path newTemporaryPartDirectory(String purpose, String partitionId) throws IOException {
        Path dir = root.resolve(TMP_PREFIX + purpose + "_" + partitionId + "_" + UUID.randomUUID());
        Files.createDirectory(dir);
        return dir;
    }

    /**
     * Allocates {@code n} consecutive block numbers, unique across every writer of this directory.
     *
     * @return the first number; the range is {@code [first, first + n)}
     */
    public long allocateBlockNumbers(int n) throws IOException {
        if (n <= 0) {
            throw new IllegalArgumentException("must allocate at least one block number, got " + n);
        }
        Path counter = root.resolve(METADATA_DIR).resolve(COUNTER_FILE);
        try (FileChannel ch =
                        FileChannel.open(
                                counter,
                                StandardOpenOption.CREATE,
                                StandardOpenOption.READ,
                                StandardOpenOption.WRITE);
                FileLock ignored = ch.lock()) {
            ByteBuffer buf = ByteBuffer.allocate(64);
            ch.read(buf, 0);
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
            long last = text.isEmpty() ? maxBlockNumberOnDisk() : Long.parseLong(text);
            long first = last + 1;
            byte[] next = Long.toString(last + n).getBytes(StandardCharsets.US_ASCII);
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(next), 0);
            ch.force(true);
            return first;
        }
    }

    private long maxBlockNumberOnDisk() throws IOException {
        long max = 0;
        for (PartName p : allPartDirectories()) {
            max = Math.max(max, p.maxBlock());
        }
        return max;
    }

    /** Makes a temporary part visible under {@code name} (atomic rename). */
    public Path publish(TemporaryPart part, PartName name) throws IOException {
        Path target = root.resolve(name.toString());
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null, "part already exists");
        }
        try {
            Files.move(part.directory(), target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + root + " cannot rename atomically", e);
        }
        return target;
    }

    /** Fsyncs the table directory (after renames). */
    public void syncDirectory() throws IOException {
        try (FileChannel ch = FileChannel.open(root, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    /** Every directory whose name parses as a part name, sorted. */
    public List<PartName> allPartDirectories() throws IOException {
        List<PartName> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.toList()) {
                if (Files.isDirectory(p)) {
                    PartName.tryParse(p.getFileName().toString()).ifPresent(out::add);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /** Parts not covered by a bigger part: what a reader of the table sees. */
    public List<PartName> activeParts() throws IOException {
        List<PartName> all = allPartDirectories();
        List<PartName> active = new ArrayList<>();
        for (PartName p : all) {
            boolean covered = false;
            for (PartName q : all) {
                if (q != p && !q.equals(p) && q.contains(p)) {
                    covered = true;
                    break;
                }
            }
            if (!covered) {
                active.add(p);
            }
        }
        return active;
    }

    /** Removes leftover {@code tmp_*} directories of writers that died. */
    public int removeTemporaryDirectories() throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(root)) {
            for (Path p : s.toList()) {
                if (Files.isDirectory(p) && p.getFileName().toString().startsWith(TMP_PREFIX)) {
                    io.github.s3mergetree.engine.part.Parts.deleteRecursively(p);
                    n++;
                }
            }
        }
        return n;
    }

    private static void writeAtomically(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.write(tmp, content);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
