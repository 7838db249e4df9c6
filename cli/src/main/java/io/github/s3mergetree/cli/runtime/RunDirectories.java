package io.github.s3mergetree.cli.runtime;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
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

    /**
     * How long the exiting run keeps deleting its own scratch directory: Flink's embedded
     * MiniCluster and its shutdown hooks may still be closing, on a busy machine for seconds.
     */
    private static final Duration OWN_REMOVAL_TIMEOUT = Duration.ofSeconds(15);

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
                        if (!Files.exists(dir)) {
                            // the lock file goes last: a directory left half-deleted keeps it,
                            // and the next run tries again
                            Files.deleteIfExists(p);
                            removed++;
                        }
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
            // other shutdown hooks (Flink's MiniCluster, I/O managers, blob stores) run at the same
            // time and may still delete or create files in the directory: delete until it is gone,
            // for a bounded time
            Path dir = runs.resolve(name);
            long deadline = System.nanoTime() + OWN_REMOVAL_TIMEOUT.toNanos();
            deleteRecursively(dir);
            while (Files.exists(dir) && System.nanoTime() < deadline) {
                Thread.sleep(20);
                deleteRecursively(dir);
            }
            if (!Files.exists(dir)) {
                Files.deleteIfExists(runs.resolve(name + ".lock"));
            }
            scratchLock.release();
            scratchLockChannel.close();
        } catch (IOException | RuntimeException e) {
            // the next run removes what is left
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
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

    /**
     * Deletes {@code p} and everything under it, tolerating files that vanish or appear meanwhile
     * (another process or thread working in the tree): what could not be deleted is left, never an
     * exception for it.
     */
    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(
                p,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        deleteQuietly(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        // vanished meanwhile, or unreadable: try to delete it as a file
                        deleteQuietly(file);
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                        deleteQuietly(dir);
                        return FileVisitResult.CONTINUE;
                    }
                });
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a directory something wrote into meanwhile: the caller retries or the next run does
        }
    }
}
