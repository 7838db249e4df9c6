package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.source.s3.enumerator.FailedObjectsReport;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * What one ingest (see {@link IngestPipeline#ingestKey}) keeps between runs, in {@code
 * <table>/s3mergetree_metadata/ingest-<key>/} (ClickHouse ignores that directory):
 *
 * <ul>
 *   <li>{@code ingest.properties}: where the part log stood when the ingest first started (so the
 *       summary counts this ingest's rows across re-runs), the last job id, and whether it
 *       finished;
 *   <li>{@code checkpoints/} and {@code savepoints/}: Flink's retained checkpoints and the
 *       savepoints of graceful stops. A re-run resumes from the newest one, so a run killed at any
 *       moment (kill -9 included) is finished exactly once by the next: source positions and the
 *       sink's pending commits come from the same snapshot, and commits are idempotent (dedup
 *       tokens);
 *   <li>{@code failed-objects.run.json}: the running job's list of parked objects (the source's
 *       {@code s3.failed-objects.report});
 *   <li>{@code failed-objects.json}: the objects the last finished run could not read, each with
 *       its error, position and committed rows. While it exists the ingest is not finished: the
 *       next run reads exactly what is missing of them ({@link FailedObjectsResume}).
 * </ul>
 */
public final class IngestState {
    private static final String FILE = "ingest.properties";
    private final Path dir;
    private final Properties props = new Properties();

    private IngestState(Path dir) {
        this.dir = dir;
    }

    /** Opens (creating) the state of ingest {@code key} of the table at {@code tablePath}. */
    public static IngestState open(Path tablePath, String key) throws IOException {
        Path dir = tablePath.resolve(TableKeys.METADATA_DIR).resolve("ingest-" + key);
        Files.createDirectories(dir);
        IngestState s = new IngestState(dir);
        Path f = dir.resolve(FILE);
        if (Files.exists(f)) {
            try (Reader r = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
                s.props.load(r);
            }
        }
        return s;
    }

    public Path directory() {
        return dir;
    }

    public Path checkpointsDirectory() {
        return dir.resolve("checkpoints");
    }

    public Path savepointsDirectory() {
        return dir.resolve("savepoints");
    }

    /** The running job's report of parked objects. */
    public Path runReport() {
        return dir.resolve("failed-objects.run.json");
    }

    /** The objects the last finished run could not read. */
    public Path failedObjectsFile() {
        return dir.resolve("failed-objects.json");
    }

    /** The parked splits of the last finished run; empty when it read everything. */
    public List<S3ObjectSplit> failedObjects() throws IOException {
        return FailedObjectsReport.read(failedObjectsFile().toString());
    }

    /**
     * The job finished with parked objects: its report becomes the record of failed objects (the
     * ingest is not finished), and its checkpoints are deleted (a finished job has nothing to
     * resume).
     */
    public void recordFailedObjects() throws IOException {
        move(runReport(), failedObjectsFile());
        deleteRecursively(checkpointsDirectory());
        deleteRecursively(savepointsDirectory());
    }

    /**
     * Forgets everything about this ingest but that it is one (the run lock stays): its
     * checkpoints, failed objects and finished mark, and where its part log count started (from
     * {@code partLogLines} on).
     */
    public void startOver(long partLogLines) throws IOException {
        props.remove("finished");
        props.remove("job_id");
        props.remove("jobmanager");
        props.setProperty("part_log_start", Long.toString(partLogLines));
        save();
        deleteRecursively(checkpointsDirectory());
        deleteRecursively(savepointsDirectory());
        Files.deleteIfExists(failedObjectsFile());
        Files.deleteIfExists(runReport());
    }

    /** Whether a previous run finished the (bounded) ingest. */
    public boolean finished() {
        return "true".equals(props.getProperty("finished"));
    }

    /** The part log line count when the ingest first started, if it has started before. */
    public Optional<Long> partLogStart() {
        String v = props.getProperty("part_log_start");
        return v == null ? Optional.empty() : Optional.of(Long.parseLong(v));
    }

    public Optional<String> lastJobId() {
        return Optional.ofNullable(props.getProperty("job_id"));
    }

    public Optional<String> lastJobManager() {
        return Optional.ofNullable(props.getProperty("jobmanager"));
    }

    public void setPartLogStart(long line) throws IOException {
        props.setProperty("part_log_start", Long.toString(line));
        save();
    }

    public void setJob(String jobId, String jobmanager) throws IOException {
        props.setProperty("job_id", jobId);
        if (jobmanager == null) {
            props.remove("jobmanager");
        } else {
            props.setProperty("jobmanager", jobmanager);
        }
        save();
    }

    /** Marks the ingest finished and deletes its checkpoints, savepoints and failed objects. */
    public void markFinished() throws IOException {
        props.setProperty("finished", "true");
        save();
        deleteRecursively(checkpointsDirectory());
        deleteRecursively(savepointsDirectory());
        Files.deleteIfExists(failedObjectsFile());
        Files.deleteIfExists(runReport());
    }

    /**
     * The newest complete checkpoint or savepoint (a directory holding {@code _metadata}) of any
     * earlier run, to resume from.
     */
    public Optional<Path> latestSnapshot() throws IOException {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.walk(dir, 4)) {
            return s.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .filter(Files::isRegularFile)
                    .map(p -> Map.entry(p, modified(p)))
                    .filter(e -> e.getValue().isPresent())
                    .max(Comparator.comparing(e -> e.getValue().get()))
                    .map(e -> e.getKey().getParent());
        }
    }

    /** When {@code p} was modified; empty if it is gone meanwhile (a discarded checkpoint). */
    private static Optional<java.nio.file.attribute.FileTime> modified(Path p) {
        try {
            return Optional.of(Files.getLastModifiedTime(p));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Held while a run of this ingest is active (an exclusive lock on {@code run.lock}). */
    public interface RunLock extends AutoCloseable {
        @Override
        void close() throws IOException;
    }

    /**
     * Takes the run lock; {@link IllegalStateException} if another process runs this ingest now
     * (two runs would restore the same checkpoint and write its rows twice).
     */
    public RunLock lockRun() throws IOException {
        FileChannel ch =
                FileChannel.open(
                        dir.resolve("run.lock"),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            ch.close();
            throw new IllegalStateException(
                    "this ingest is already running in another process (lock "
                            + dir.resolve("run.lock")
                            + ")");
        }
        FileLock held = lock;
        return () -> {
            try {
                held.release();
            } finally {
                ch.close();
            }
        };
    }

    private void save() throws IOException {
        Path tmp = dir.resolve(FILE + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            props.store(w, "s3-mergetree ingest state");
        }
        move(tmp, dir.resolve(FILE));
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(
                    from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Deletes {@code p} and everything below it. Flink may still be discarding the checkpoints of a
     * job that has just finished (asynchronously, after the job's result): files and directories
     * vanishing meanwhile are not an error, the walk is simply done again.
     */
    private static void deleteRecursively(Path p) throws IOException {
        for (int attempt = 1; Files.exists(p); attempt++) {
            try (Stream<Path> s = Files.walk(p)) {
                for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(q);
                }
                return;
            } catch (NoSuchFileException | DirectoryNotEmptyException e) {
                concurrentlyChanged(attempt, e);
            } catch (UncheckedIOException e) {
                if (!(e.getCause() instanceof NoSuchFileException)) {
                    throw e;
                }
                concurrentlyChanged(attempt, e.getCause());
            }
        }
    }

    private static void concurrentlyChanged(int attempt, Exception e) throws IOException {
        if (attempt >= 50) {
            throw new IOException("cannot delete a directory that keeps changing", e);
        }
        try {
            Thread.sleep(100);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while deleting", ie);
        }
    }
}
