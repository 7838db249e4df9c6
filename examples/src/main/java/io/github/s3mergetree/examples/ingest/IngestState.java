package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.engine.table.TableKeys;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
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
 *       tokens).
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

    /** Marks the ingest finished and deletes its checkpoints and savepoints. */
    public void markFinished() throws IOException {
        props.setProperty("finished", "true");
        save();
        deleteRecursively(checkpointsDirectory());
        deleteRecursively(savepointsDirectory());
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
                    .max(Comparator.comparing(IngestState::modified))
                    .map(Path::getParent);
        }
    }

    private static java.nio.file.attribute.FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
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
        try {
            Files.move(
                    tmp,
                    dir.resolve(FILE),
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        }
    }
}
