package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.TemporaryPart;
import java.io.IOException;
import java.nio.channels.FileChannel;
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

    private static final String COMMITS_DIR = "commits";
    private final Path root;
    private final TableLock lock;

    private TableDirectory(Path root) {
        this.root = root;
        this.lock = new TableLock(root.resolve(METADATA_DIR).resolve("lock"));
    }

    /**
     * Opens the table directory at {@code root}, creating the ClickHouse layout and storing {@code
     * ddl} if the directory is new. An existing table keeps its stored DDL; callers compare it.
     */
    public static TableDirectory createOrOpen(Path root, String ddl) throws IOException {
        Files.createDirectories(root.resolve("detached"));
        Files.createDirectories(root.resolve(METADATA_DIR).resolve(COMMITS_DIR));
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
     * Callers hold the table lock.
     *
     * @return the first number; the range is {@code [first, first + n)}
     */
    private long allocateBlockNumbers(int n) throws IOException {
        if (n <= 0) {
            throw new IllegalArgumentException("must allocate at least one block number, got " + n);
        }
        Path counter = root.resolve(METADATA_DIR).resolve(COUNTER_FILE);
        long last;
        if (Files.exists(counter)) {
            String text = Files.readString(counter, StandardCharsets.US_ASCII).trim();
            last = text.isEmpty() ? maxBlockNumberOnDisk() : Long.parseLong(text);
        } else {
            last = maxBlockNumberOnDisk();
        }
        writeAtomically(counter, Long.toString(last + n).getBytes(StandardCharsets.US_ASCII));
        return last + 1;
    }

    private long maxBlockNumberOnDisk() throws IOException {
        long max = 0;
        for (PartName p : allPartDirectories()) {
            max = Math.max(max, p.maxBlock());
        }
        return max;
    }

    /**
     * Makes temporary parts visible, atomically with respect to every other writer: under the table
     * lock, allocates one block number per part, writes a commit record naming each temporary
     * directory and its final name, then renames them (a crash in between is completed by {@link
     * #recover()}). With a {@code dedupToken} (an insert's identity, e.g. a sink's checkpoint and
     * subtask), a commit that was already made is not made again: the recorded names are returned
     * (ClickHouse's {@code insert_deduplicate} by token).
     *
     * @return the names the parts got, in the order given
     */
    public List<PartName> commit(List<TemporaryPart> parts, String dedupToken) throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            recoverLocked();
            Path record = dedupToken == null ? null : commitRecord(dedupToken);
            if (record != null && Files.exists(record)) {
                List<PartName> names = new ArrayList<>();
                for (String[] line : readRecord(record)) {
                    names.add(PartName.tryParse(line[1]).orElseThrow());
                }
                for (TemporaryPart p : parts) {
                    if (Files.exists(p.directory())) {
                        io.github.s3mergetree.engine.part.Parts.deleteRecursively(p.directory());
                    }
                }
                return names;
            }
            if (parts.isEmpty()) {
                return List.of();
            }
            long first = allocateBlockNumbers(parts.size());
            List<PartName> names = new ArrayList<>();
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                TemporaryPart p = parts.get(i);
                PartName name = PartName.inserted(p.partition().partitionId(), first + i);
                names.add(name);
                text.append(p.directory().getFileName()).append('\t').append(name).append('\n');
            }
            if (record == null) {
                record = commitRecord("anonymous-" + UUID.randomUUID());
            }
            FaultPoints.reach("commit.before-record");
            writeAtomically(record, text.toString().getBytes(StandardCharsets.UTF_8));
            FaultPoints.reach("commit.after-record");
            for (int i = 0; i < parts.size(); i++) {
                publish(parts.get(i).directory(), names.get(i));
                FaultPoints.reach("commit.after-rename");
            }
            syncDirectory();
            return names;
        }
    }

    /**
     * Publishes a merged part that replaces {@code sources}: under the table lock, checks that the
     * active parts inside the merged block range are exactly the sources (so a part committed
     * meanwhile is never covered and lost), then renames it into place. From then on the sources
     * are covered, hence outdated.
     *
     * @return false if the sources are no longer exactly the active parts of the range (the merged
     *     part is then deleted)
     */
    public boolean publishMerge(Path mergedTmp, PartName name, List<PartName> sources)
            throws IOException {
        FaultPoints.reach("merge.before-lock");
        try (TableLock.Held ignored = lock.acquire()) {
            recoverLocked();
            List<PartName> inRange = new ArrayList<>();
            for (PartName p : activeParts()) {
                if (name.contains(p) || p.contains(name)) {
                    inRange.add(p);
                }
            }
            List<PartName> expected = new ArrayList<>(sources);
            expected.sort(null);
            inRange.sort(null);
            if (!inRange.equals(expected)) {
                io.github.s3mergetree.engine.part.Parts.deleteRecursively(mergedTmp);
                return false;
            }
            FaultPoints.reach("merge.before-publish");
            publish(mergedTmp, name);
            FaultPoints.reach("merge.after-publish");
            syncDirectory();
            return true;
        }
    }

    private Path commitRecord(String token) {
        String safe = token.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (safe.length() > 150) {
            safe = safe.substring(0, 100) + "-" + Integer.toHexString(token.hashCode());
        }
        return root.resolve(METADATA_DIR).resolve(COMMITS_DIR).resolve(safe + ".txt");
    }

    private static List<String[]> readRecord(Path record) throws IOException {
        List<String[]> out = new ArrayList<>();
        for (String line : Files.readAllLines(record, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                out.add(line.split("\t", 2));
            }
        }
        return out;
    }

    /** Whether a commit with this token was made (and is still remembered). */
    public boolean isCommitted(String dedupToken) {
        return Files.exists(commitRecord(dedupToken));
    }

    /**
     * Completes commits interrupted by a crash: every temporary directory named in a commit record
     * whose part is not there yet is renamed into place.
     *
     * @return how many parts were completed
     */
    public int recover() throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            return recoverLocked();
        }
    }

    private int recoverLocked() throws IOException {
        int n = 0;
        try (Stream<Path> s = Files.list(root.resolve(METADATA_DIR).resolve(COMMITS_DIR))) {
            for (Path record : s.toList()) {
                if (!record.getFileName().toString().endsWith(".txt")) {
                    continue;
                }
                for (String[] line : readRecord(record)) {
                    Path tmp = root.resolve(line[0]);
                    Path target = root.resolve(line[1]);
                    if (Files.isDirectory(tmp) && !Files.exists(target)) {
                        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
                        n++;
                    }
                }
            }
        }
        if (n > 0) {
            syncDirectory();
        }
        return n;
    }

    /**
     * Forgets commit records beyond the newest {@code keep} (the deduplication window), so the
     * metadata stays bounded; a replay older than the window would be committed again.
     */
    public void trimCommitRecords(int keep) throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            recoverLocked();
            List<Path> records;
            try (Stream<Path> s = Files.list(root.resolve(METADATA_DIR).resolve(COMMITS_DIR))) {
                records = new ArrayList<>(s.toList());
            }
            records.sort(
                    (a, b) -> {
                        try {
                            return Files.getLastModifiedTime(b)
                                    .compareTo(Files.getLastModifiedTime(a));
                        } catch (IOException e) {
                            return 0;
                        }
                    });
            for (int i = keep; i < records.size(); i++) {
                Files.deleteIfExists(records.get(i));
            }
        }
    }

    private void publish(Path tmp, PartName name) throws IOException {
        Path target = root.resolve(name.toString());
        if (Files.exists(target)) {
            throw new FileAlreadyExistsException(target.toString(), null, "part already exists");
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the file system of " + root + " cannot rename atomically", e);
        }
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

    /**
     * Removes {@code tmp_*} directories of writers that died: those not touched for {@code
     * lifetime} (ClickHouse's {@code temporary_directories_lifetime}, 86400 s) and not named by a
     * commit record. Younger ones may belong to a live writer (a sink's parts waiting for their
     * checkpoint) and are kept.
     */
    public int removeStaleTemporaryDirectories(java.time.Duration lifetime, java.time.Instant now)
            throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            recoverLocked();
            int n = 0;
            try (Stream<Path> s = Files.list(root)) {
                for (Path p : s.toList()) {
                    if (!Files.isDirectory(p)
                            || !p.getFileName().toString().startsWith(TMP_PREFIX)) {
                        continue;
                    }
                    java.time.Instant modified = Files.getLastModifiedTime(p).toInstant();
                    if (modified.plus(lifetime).isBefore(now)) {
                        io.github.s3mergetree.engine.part.Parts.deleteRecursively(p);
                        n++;
                    }
                }
            }
            return n;
        }
    }

    /**
     * Deletes parts covered by a bigger active part for longer than {@code oldPartsLifetime}
     * (ClickHouse's {@code old_parts_lifetime}, 480 s), so readers that still hold them can finish.
     * The time a part became outdated is the creation time of the part covering it.
     *
     * @return the names of the deleted parts
     */
    public List<PartName> removeOutdatedParts(
            java.time.Duration oldPartsLifetime, java.time.Instant now) throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            List<PartName> all = allPartDirectories();
            List<PartName> active = activeParts();
            List<PartName> removed = new ArrayList<>();
            for (PartName p : all) {
                if (active.contains(p)) {
                    continue;
                }
                PartName cover = null;
                for (PartName a : active) {
                    if (a.contains(p)) {
                        cover = a;
                        break;
                    }
                }
                if (cover == null) {
                    continue;
                }
                java.time.Instant since =
                        Files.getLastModifiedTime(root.resolve(cover.toString())).toInstant();
                if (since.plus(oldPartsLifetime).isBefore(now)
                        || since.plus(oldPartsLifetime).equals(now)) {
                    FaultPoints.reach("remove.before-part");
                    io.github.s3mergetree.engine.part.Parts.deleteRecursively(
                            root.resolve(p.toString()));
                    removed.add(p);
                }
            }
            return removed;
        }
    }

    /** Moves a part that cannot be read to {@code detached/broken_<name>} (ClickHouse's habit). */
    public Path detachBroken(PartName name) throws IOException {
        try (TableLock.Held ignored = lock.acquire()) {
            Path target = root.resolve("detached").resolve("broken_" + name);
            int i = 1;
            while (Files.exists(target)) {
                target = root.resolve("detached").resolve("broken_" + name + "_try" + i++);
            }
            Files.move(root.resolve(name.toString()), target, StandardCopyOption.ATOMIC_MOVE);
            return target;
        }
    }

    private static void writeAtomically(Path file, byte[] content) throws IOException {
        // a unique temporary name: two processes creating the same table must not collide
        Path tmp = Files.createTempFile(file.getParent(), file.getFileName() + ".", ".tmp");
        Files.write(tmp, content);
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
