package io.github.s3mergetree.examples.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Where the {@code s3-mergetree} command keeps what is not the user's data: one directory per user
 * under the temp directory, {@code <java.io.tmpdir>/s3-mergetree-<user>/} (mode 700), holding
 *
 * <ul>
 *   <li>{@code logs/<yyyyMMdd-HHmmss>-<pid>.log}: the log of each run (Flink's, S3Proxy's and the
 *       connectors' warnings), the newest {@value #KEPT_LOGS} kept;
 *   <li>{@code runs/<pid>-<id>/}: the scratch directory of a running command, Flink's {@code
 *       io.tmp.dirs} for its embedded MiniCluster (the {@code minicluster_*} working directories,
 *       blob and I/O spill directories). It is deleted when the command exits; a run that was
 *       killed leaves it behind, and the next run deletes it.
 *   <li>{@code rpc/flink-rpc-<size>-<crc>.jar}: Flink's RPC system jar, extracted once and shared
 *       by all runs ({@link CachedRpcSystemLoader}).
 * </ul>
 *
 * <p>Why: Flink puts these in {@code java.io.tmpdir} by default, shared by every user of the
 * machine, and a killed JVM never removes them (hundreds of MiniCluster directories and RPC jars,
 * gigabytes, after a few hundred runs). Which scratch directories are a dead run's is decided by a
 * lock: each run holds an exclusive lock on {@code runs/<name>.lock} for its lifetime, so a
 * directory whose lock can be taken belongs to no live process (only directories of this layout,
 * and never one of a live process, are removed).
 */
public final class RunDirectories {
    /** How many run logs are kept. */
    public static final int KEPT_LOGS = 20;

    /** A lock file or directory younger than this is never treated as a dead run's. */
    private static final Duration GRACE = Duration.ofMinutes(1);

    private static Path scratch;
    private static FileChannel scratchLockChannel;
    private static FileLock scratchLock;

    private RunDirectories() {}

    /** {@code <java.io.tmpdir>/s3-mergetree-<user>}, created (mode 700 where POSIX). */
    public static Path base() throws IOException {
        String user = System.getProperty("user.name", "user").replaceAll("[^A-Za-z0-9._-]", "_");
        Path base = Paths.get(System.getProperty("java.io.tmpdir")).resolve("s3-mergetree-" + user);
        try {
            Files.createDirectory(
                    base,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // ours from an earlier run
        } catch (UnsupportedOperationException e) {
            Files.createDirectories(base);
        }
        return base;
    }

    /**
     * A new log file for this run, {@code logs/<yyyyMMdd-HHmmss>-<pid>.log}; the oldest logs beyond
     * {@value #KEPT_LOGS} are deleted.
     */
    public static Path newLogFile() throws IOException {
        Path logs = base().resolve("logs");
        Files.createDirectories(logs);
        try (Stream<Path> s = Files.list(logs)) {
            List<Path> old =
                    s.filter(p -> p.getFileName().toString().endsWith(".log"))
                            .sorted(Comparator.comparing(RunDirectories::modified).reversed())
                            .skip(KEPT_LOGS - 1)
                            .toList();
            for (Path p : old) {
                Files.deleteIfExists(p);
            }
        }
        String name =
                LocalDateTime.now()
                                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT))
                        + "-"
                        + ProcessHandle.current().pid()
                        + ".log";
        return logs.resolve(name);
    }

    /**
     * This JVM's scratch directory (created on first use, deleted at exit); first deletes the
     * scratch directories of runs that are no longer alive.
     */
    public static synchronized Path scratch() throws IOException {
        if (scratch != null) {
            return scratch;
        }
        Path runs = base().resolve("runs");
        Files.createDirectories(runs);
        removeDeadRuns(runs);
        String name =
                ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
        FileChannel ch =
                FileChannel.open(
                        runs.resolve(name + ".lock"),
                        StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE);
        scratchLock = ch.lock();
        scratchLockChannel = ch;
        Path dir = Files.createDirectory(runs.resolve(name));
        scratch = dir;
        Runtime.getRuntime()
                .addShutdownHook(
                        new Thread(() -> removeOwnScratch(runs, name), "s3-mergetree-cleanup"));
        return dir;
    }

    /**
     * Deletes the scratch directories (and lock files) of runs whose lock nobody holds: runs that
     * were killed. Returns how many were removed.
     */
    public static int removeDeadRuns(Path runs) throws IOException {
        int removed = 0;
        List<Path> entries;
        try (Stream<Path> s = Files.list(runs)) {
            entries = s.toList();
        }
        for (Path p : entries) {
            String n = p.getFileName().toString();
            if (n.endsWith(".lock")) {
                if (youngerThanGrace(p)) {
                    continue;
                }
                Path dir = runs.resolve(n.substring(0, n.length() - ".lock".length()));
                try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                    FileLock l;
                    try {
                        l = ch.tryLock();
                    } catch (OverlappingFileLockException e) {
                        continue; // this JVM's own
                    }
                    if (l == null) {
                        continue; // a live run holds it
                    }
                    try {
                        deleteRecursively(dir);
                        Files.deleteIfExists(p);
                        removed++;
                    } finally {
                        l.release();
                    }
                } catch (NoSuchFileException e) {
                    // removed by another run meanwhile
                }
            } else if (Files.isDirectory(p)
                    && !Files.exists(runs.resolve(n + ".lock"))
                    && !youngerThanGrace(p)) {
                // a directory without its lock file: its run died between the two, or a cleaner
                // removed the lock file and died
                deleteRecursively(p);
                removed++;
            }
        }
        return removed;
    }

    private static void removeOwnScratch(Path runs, String name) {
        try {
            deleteRecursively(runs.resolve(name));
            Files.deleteIfExists(runs.resolve(name + ".lock"));
            scratchLock.release();
            scratchLockChannel.close();
        } catch (IOException | RuntimeException e) {
            // the next run removes what is left
        }
    }

    private static boolean youngerThanGrace(Path p) {
        FileTime t = modified(p);
        return t.toMillis() > System.currentTimeMillis() - GRACE.toMillis();
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                try {
                    Files.deleteIfExists(q);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    // something wrote into it meanwhile: the next run removes the rest
                }
            }
        } catch (java.io.UncheckedIOException e) {
            // a file vanished while walking: removed by someone else
        }
    }
}
