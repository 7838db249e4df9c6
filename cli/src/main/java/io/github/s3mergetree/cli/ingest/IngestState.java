package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.engine.table.WriterLease;
import io.github.s3mergetree.engine.table.WriterLeaseHeldException;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.source.s3.enumerator.FailedObjectsReport;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;

/**
 * What one ingest (see {@link IngestPipeline#ingestKey}) keeps between runs, beside the table in
 * {@code s3mergetree_metadata/ingest-<key>/} (ClickHouse ignores that prefix) — on S3 for an S3
 * table, so that nothing of an ingest depends on the disk of the host that ran it:
 *
 * <ul>
 *   <li>{@code ingest.properties}: where the part log stood when the ingest first started (so the
 *       summary counts this ingest's rows across re-runs), the last job id, and whether it
 *       finished;
 *   <li>{@code lease.json}: the ingest's writer lease ({@link WriterLease}, see {@link #lockRun}):
 *       which process runs it now, until when, at which epoch;
 *   <li>{@code checkpoints/} and {@code savepoints/}: Flink's retained checkpoints and the
 *       savepoints of graceful stops (under {@code --checkpoint-dir}{@code /ingest-<key>/} when
 *       that is given). A re-run resumes from the newest one, so a run killed at any moment (kill
 *       -9 included) is finished exactly once by the next: source positions and the sink's pending
 *       commits come from the same snapshot, and commits are idempotent (dedup tokens);
 *   <li>{@code failed-objects.run.json} (beside the checkpoints: the job writes it through Flink's
 *       file systems): the running job's list of parked objects (the source's {@code
 *       s3.failed-objects.report});
 *   <li>{@code failed-objects.json} (there too): the objects the last finished run could not read,
 *       each with its error, position and committed rows. While it exists the ingest is not
 *       finished: the next run reads exactly what is missing of them ({@link FailedObjectsResume}).
 * </ul>
 *
 * <p>"Newest" is the highest checkpoint id, read from each snapshot's {@code _metadata} (Flink's
 * header: magic number, version, checkpoint id), not a modification time: S3 lists times in whole
 * seconds, and restoring a snapshot older than the last commit would write the rows committed since
 * then a second time (under the new job's dedup tokens). Checkpoint ids only grow along a chain of
 * restores, savepoints included.
 */
public final class IngestState implements AutoCloseable {
    private static final String FILE = "ingest.properties";
    private static final String LEASE = "lease.json";

    /** How long the ingest's writer lease lasts after each renewal (renewed every third). */
    static final long LEASE_TTL_SECONDS = 30;

    private static final String RUN_REPORT = "failed-objects.run.json";
    private static final String FAILED_OBJECTS = "failed-objects.json";
    private static final String METADATA = "_metadata";

    /** Flink's checkpoint metadata header ({@code Checkpoints.HEADER_MAGIC_NUMBER}). */
    private static final int METADATA_MAGIC = 0x4960672d;

    private final TableStore store;
    private final String prefix;
    private final TableStore snapshots;
    private final String snapshotsPrefix;
    private final String snapshotsUri;
    private final Path lockFile;
    private final Properties props = new Properties();

    /** The writer lease while {@link #lockRun} holds it. */
    private volatile WriterLease lease;

    private IngestState(
            TableStore store,
            String prefix,
            TableStore snapshots,
            String snapshotsPrefix,
            String snapshotsUri,
            Path lockFile) {
        this.store = store;
        this.prefix = prefix;
        this.snapshots = snapshots;
        this.snapshotsPrefix = snapshotsPrefix;
        this.snapshotsUri = snapshotsUri;
        this.lockFile = lockFile;
    }

    /** Opens (creating) the state of ingest {@code key} of the local table at {@code tablePath}. */
    public static IngestState open(Path tablePath, String key) throws IOException {
        String dir = tablePath.toAbsolutePath().normalize().toString();
        return open(
                TableLocation.parse(dir, TableLocation.S3Settings.defaults()),
                dir,
                key,
                null,
                TableLocation.S3Settings.defaults());
    }

    /**
     * Opens (creating) the state of ingest {@code key} of the table {@code table} (at {@code
     * tableLocation}, as given); checkpoints go under {@code checkpointDir} ({@code s3://…}, {@code
     * file:///…} or an absolute directory, reached with {@code s3} for S3) if it is not null. The
     * caller closes it.
     */
    public static IngestState open(
            TableStorage table,
            String tableLocation,
            String key,
            String checkpointDir,
            TableLocation.S3Settings s3)
            throws IOException {
        String dir = "ingest-" + key;
        String prefix = TableKeys.METADATA_DIR + "/" + dir + "/";
        TableStore store = table.openStore();
        TableStore snapshots;
        String snapshotsPrefix;
        String snapshotsUri;
        if (checkpointDir == null) {
            snapshots = store;
            snapshotsPrefix = prefix;
            snapshotsUri = uri(tableLocation) + "/" + prefix.substring(0, prefix.length() - 1);
        } else {
            snapshots = TableLocation.parse(checkpointDir, s3).openStore();
            snapshotsPrefix = dir + "/";
            snapshotsUri = uri(checkpointDir) + "/" + dir;
        }
        Path lockFile = null;
        if (table.isLocal()) {
            Path d = Path.of(table.describe()).resolve(TableKeys.METADATA_DIR).resolve(dir);
            Files.createDirectories(d);
            lockFile = d.resolve("run.lock");
        }
        IngestState s =
                new IngestState(store, prefix, snapshots, snapshotsPrefix, snapshotsUri, lockFile);
        Optional<byte[]> saved = store.readIfExists(prefix + FILE);
        if (saved.isPresent()) {
            s.props.load(
                    new InputStreamReader(
                            new ByteArrayInputStream(saved.get()), StandardCharsets.UTF_8));
        }
        return s;
    }

    /** The Flink URI of a location: {@code s3://…} as is, a directory as {@code file:///…}. */
    private static String uri(String location) {
        String l = location;
        while (l.endsWith("/")) {
            l = l.substring(0, l.length() - 1);
        }
        if (TableLocation.isS3(l)) {
            return l;
        }
        if (l.startsWith("file:")) {
            return Path.of(java.net.URI.create(l)).toUri().toString().replaceAll("/$", "");
        }
        return Path.of(l).toUri().toString().replaceAll("/$", "");
    }

    /** Where this ingest's state lives, for messages. */
    public String directory() {
        return store.describe(prefix.substring(0, prefix.length() - 1));
    }

    /** Flink's checkpoint directory of this ingest ({@code s3://…} or {@code file:///…}). */
    public String checkpointsUri() {
        return snapshotsUri + "/checkpoints";
    }

    /** Flink's savepoint directory of this ingest. */
    public String savepointsUri() {
        return snapshotsUri + "/savepoints";
    }

    /** Whether checkpoints and savepoints go to S3 (Flink needs its S3 file system then). */
    public boolean snapshotsOnS3() {
        return TableLocation.isS3(snapshotsUri);
    }

    /** The running job's report of parked objects, as a Flink file system URI. */
    public String runReport() {
        return snapshotsUri + "/" + RUN_REPORT;
    }

    /** Removes the report of an earlier run (before a job starts that writes a new one). */
    public void deleteRunReport() throws IOException {
        snapshots.delete(snapshotsPrefix + RUN_REPORT);
    }

    /** The parked splits the running (or just ended) job reported; empty when none. */
    public List<S3ObjectSplit> runFailedObjects() throws IOException {
        return FailedObjectsReport.read(runReport());
    }

    /** The parked splits of the last finished run; empty when it read everything. */
    public List<S3ObjectSplit> failedObjects() throws IOException {
        return FailedObjectsReport.read(snapshotsUri + "/" + FAILED_OBJECTS);
    }

    /**
     * The job finished with parked objects: its report becomes the record of failed objects (the
     * ingest is not finished), and its checkpoints are deleted (a finished job has nothing to
     * resume).
     */
    public void recordFailedObjects() throws IOException {
        byte[] report =
                snapshots
                        .readIfExists(snapshotsPrefix + RUN_REPORT)
                        .orElseThrow(
                                () ->
                                        new FileNotFoundException(
                                                snapshots.describe(snapshotsPrefix + RUN_REPORT)));
        checkLease();
        snapshots.put(snapshotsPrefix + FAILED_OBJECTS, report);
        snapshots.delete(snapshotsPrefix + RUN_REPORT);
        deleteSnapshots();
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
        deleteSnapshots();
        snapshots.delete(snapshotsPrefix + FAILED_OBJECTS);
        snapshots.delete(snapshotsPrefix + RUN_REPORT);
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
        deleteSnapshots();
        snapshots.delete(snapshotsPrefix + FAILED_OBJECTS);
        snapshots.delete(snapshotsPrefix + RUN_REPORT);
    }

    /**
     * Deletes the checkpoints and savepoints. Flink may still be discarding the checkpoints of a
     * job that has just finished (asynchronously, after the job's result): the store's deletes take
     * keys vanishing meanwhile as deleted.
     */
    private void deleteSnapshots() throws IOException {
        snapshots.deletePrefix(snapshotsPrefix + "checkpoints/");
        snapshots.deletePrefix(snapshotsPrefix + "savepoints/");
    }

    /**
     * The complete checkpoint or savepoint (a directory holding {@code _metadata}) with the highest
     * checkpoint id of any earlier run, as a Flink URI to resume from.
     */
    public Optional<String> latestSnapshot() throws IOException {
        String best = null;
        long bestId = Long.MIN_VALUE;
        for (ObjectSummary o : snapshots.list(snapshotsPrefix)) {
            String key = o.key();
            if (!key.endsWith("/" + METADATA)) {
                continue;
            }
            Optional<Long> id = checkpointId(key);
            if (id.isPresent() && (best == null || id.get() > bestId)) {
                best = key;
                bestId = id.get();
            }
        }
        if (best == null) {
            return Optional.empty();
        }
        String relative =
                best.substring(snapshotsPrefix.length(), best.length() - METADATA.length() - 1);
        return Optional.of(snapshotsUri + "/" + relative);
    }

    /**
     * The checkpoint id in the header of {@code _metadata} object {@code key}; empty if it vanished
     * meanwhile (a checkpoint Flink discarded) or is cut short (one being written).
     */
    private Optional<Long> checkpointId(String key) throws IOException {
        try (InputStream in = snapshots.openStream(key);
                DataInputStream d = new DataInputStream(in)) {
            int magic = d.readInt();
            if (magic != METADATA_MAGIC) {
                throw new IOException(
                        snapshots.describe(key)
                                + " is not a Flink checkpoint's metadata (magic number 0x"
                                + Integer.toHexString(magic)
                                + ")");
            }
            d.readInt(); // the metadata version
            return Optional.of(d.readLong());
        } catch (FileNotFoundException | NoSuchFileException | EOFException e) {
            return Optional.empty();
        }
    }

    /**
     * Held while a run of this ingest is active: the ingest's {@link WriterLease} in the table's
     * store (renewed by a heartbeat) and, for a local table, an exclusive lock on a file in the
     * table's directory too.
     */
    public interface RunLock extends AutoCloseable {
        /** The lease's fencing token, for the sink's committer ({@code setWriterFence}). */
        WriterLease.Fence fence();

        /** Stops the heartbeat and releases the lease (and the lock file). */
        @Override
        void close() throws IOException;
    }

    /**
     * Takes the run lock: the writer lease {@code s3mergetree_metadata/ingest-<key>/lease.json} of
     * the table's store (conditional writes, so it excludes the runs of every host and process,
     * whatever their temporary directory), then reads the ingest's state again (a run that held the
     * lease until now may have finished the ingest meanwhile). {@link IllegalStateException} with
     * one line naming the table, the holder and when its lease expires if another process runs this
     * ingest now: two runs would restore the same checkpoint and write its rows twice. The lease of
     * a run of this machine that was killed is taken over at once; one of another host when it
     * expires ({@value #LEASE_TTL_SECONDS} s after its last renewal).
     */
    public RunLock lockRun() throws IOException {
        return lockRun(false);
    }

    /**
     * Takes the run lock as {@link #lockRun()}; with {@code continuingJob} (this run waits for the
     * job a previous run submitted to a cluster, which outlives that run) a lease taken over keeps
     * its fencing token, so that job's commits go on ({@link WriterLease#acquire(TableStore,
     * String, Duration, Clock, WriterLease.Holder, WriterLease.Liveness, boolean) adopt}).
     */
    public RunLock lockRun(boolean continuingJob) throws IOException {
        WriterLease taken;
        try {
            taken =
                    WriterLease.acquire(
                            store,
                            prefix + LEASE,
                            Duration.ofSeconds(LEASE_TTL_SECONDS),
                            Clock.systemUTC(),
                            LocalProcesses.holder(),
                            LocalProcesses::isDead,
                            continuingJob);
        } catch (WriterLeaseHeldException e) {
            throw new IllegalStateException("this ingest is already running: " + e.getMessage(), e);
        }
        FileChannel ch = null;
        FileLock fileLock = null;
        try {
            if (lockFile != null) {
                // a local table: the lock file of the runs before the lease existed, too
                ch =
                        FileChannel.open(
                                lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                try {
                    fileLock = ch.tryLock();
                } catch (OverlappingFileLockException e) {
                    fileLock = null;
                }
                if (fileLock == null) {
                    throw new IllegalStateException(
                            "this ingest is already running in another process (lock "
                                    + lockFile
                                    + ")");
                }
            }
            reload();
        } catch (IOException | RuntimeException e) {
            try {
                if (fileLock != null) {
                    fileLock.release();
                }
                if (ch != null) {
                    ch.close();
                }
            } finally {
                taken.close();
            }
            throw e;
        }
        lease = taken;
        LeaseHeartbeat heartbeat =
                new LeaseHeartbeat(taken, Duration.ofSeconds(LEASE_TTL_SECONDS).dividedBy(3));
        FileChannel channel = ch;
        FileLock held = fileLock;
        return new RunLock() {
            @Override
            public WriterLease.Fence fence() {
                return taken.fence();
            }

            @Override
            public void close() throws IOException {
                try {
                    heartbeat.close();
                    taken.close();
                } finally {
                    if (held != null) {
                        try {
                            held.release();
                        } finally {
                            channel.close();
                        }
                    }
                }
            }
        };
    }

    /** Reads {@code ingest.properties} again. */
    private void reload() throws IOException {
        props.clear();
        Optional<byte[]> saved = store.readIfExists(prefix + FILE);
        if (saved.isPresent()) {
            props.load(
                    new InputStreamReader(
                            new ByteArrayInputStream(saved.get()), StandardCharsets.UTF_8));
        }
    }

    /**
     * Before this run changes the ingest's records: fails with {@link
     * io.github.s3mergetree.engine.table.WriterFencedException} if another run took the lease over
     * (this one was paused past its expiry).
     */
    private void checkLease() throws IOException {
        if (lease != null) {
            lease.check();
        }
    }

    private void save() throws IOException {
        checkLease();
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (OutputStreamWriter w = new OutputStreamWriter(b, StandardCharsets.UTF_8)) {
            props.store(w, "s3-mergetree ingest state");
        }
        // one PUT (S3) or a write renamed into place (POSIX): never half a file
        store.put(prefix + FILE, b.toByteArray());
    }

    @Override
    public void close() {
        if (snapshots != store) {
            snapshots.close();
        }
        store.close();
    }
}
