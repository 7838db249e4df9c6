package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.DeliveryCliOptions;
import io.github.s3mergetree.cli.command.FailureMessages;
import io.github.s3mergetree.cli.command.Subcommand;
import io.github.s3mergetree.cli.runtime.RunDirectories;
import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.storage.TableBuildCheck;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.s3.S3SourceMetrics;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.SecurityOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * {@code s3-mergetree ingest}: the S3 source → MergeTree sink job, on an embedded Flink MiniCluster
 * or submitted to a cluster ({@code --jobmanager}, with the job jar).
 *
 * <p>Exactly once across runs: the job checkpoints every {@code --checkpoint-interval} into the
 * ingest's state directory ({@link IngestState}) and retains its checkpoints; running the same
 * command again after a crash or kill -9 resumes from the newest one, and a finished bounded ingest
 * is not repeated. SIGTERM/SIGINT stop the job with a savepoint (a last commit), from which the
 * next run resumes — the graceful stop of {@code --continuous}.
 *
 * <p>Bad input fails before anything is written: the DDL is parsed, a table directory with another
 * DDL is refused, unknown settings are named, and the objects are listed once in the client ({@link
 * ObjectPreflight}). Progress goes to stderr; the last stdout line is a JSON summary.
 */
public final class IngestCommand implements Subcommand {
    /**
     * The exit code of a bounded ingest that finished with objects it could not read (every other
     * row committed; the summary lists them).
     */
    public static final int EXIT_FAILED_OBJECTS = 3;

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration POLL_UNTIL_RUNNING = Duration.ofMillis(10);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final Duration DELIVERY_INTERVAL = Duration.ofSeconds(2);

    @Override
    public String name() {
        return "ingest";
    }

    /**
     * Called first by the command's own process when it runs {@code ingest}: SIGTERM and SIGINT are
     * never fatal from then on ({@link GracefulStop}), so an ingest exits 0 whenever it is
     * signalled.
     */
    public static void handleSignalsForProcess(PrintStream err) {
        GracefulStop.installForProcess(err);
    }

    @Override
    public String usage() {
        return IngestOptions.USAGE + " " + DeliveryCliOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        // for crash tests only: -Ds3mergetree.deliver.halt-at=POINT stops the JVM dead there
        io.github.s3mergetree.delivery.DeliveryFaultPoints.haltAtFromSystemProperty();
        // and -Ds3mergetree.table.halt-at=POINT at a point of the table's commit, merge, cleanup
        io.github.s3mergetree.engine.table.FaultPoints.haltAtFromSystemProperty();
        DeliveryCliOptions.Split split = DeliveryCliOptions.split(args);
        IngestOptions o = IngestOptions.parse(split.rest());
        return new Run(o, split.delivery(), out, err).execute();
    }

    /**
     * The text of a progress line: {@code [bar] P% read, C% committed} when the total is known,
     * then rows read (and MB downloaded), rows committed (and MB), the read rate, parts and merges.
     * Without read metrics (none reported yet) the committed rows stand alone.
     */
    static String progressLine(
            TableProgress.Snapshot s,
            Optional<ReadProgress.Totals> read,
            java.util.OptionalLong totalRows,
            double secs) {
        StringBuilder b = new StringBuilder("progress: ");
        long rowsRead = read.map(ReadProgress.Totals::rowsRead).orElse(0L);
        if (totalRows.isPresent() && totalRows.getAsLong() > 0) {
            double total = totalRows.getAsLong();
            double committed = Math.min(1.0, s.rows() / total);
            double readFraction = Math.max(committed, Math.min(1.0, rowsRead / total));
            int hashes = (int) Math.round(committed * 30);
            int equals = Math.max(0, (int) Math.round(readFraction * 30) - hashes);
            b.append('[')
                    .append("#".repeat(hashes))
                    .append("=".repeat(equals))
                    .append(".".repeat(30 - hashes - equals))
                    .append(
                            String.format(
                                    Locale.ROOT,
                                    "] %3.0f%% read, %3.0f%% committed, ",
                                    readFraction * 100,
                                    committed * 100));
        }
        if (read.isPresent()) {
            b.append(
                    String.format(
                            Locale.ROOT,
                            "%,d rows read (%.1f MB downloaded), ",
                            rowsRead,
                            read.get().bytesDownloaded() / 1e6));
        }
        long rate = read.isPresent() ? rowsRead : s.rows();
        b.append(
                String.format(
                        Locale.ROOT,
                        "%,d rows committed (%.1f MB), %,.0f rows/s%s, %d parts written,"
                                + " %d active, %d merges, %.0f s",
                        s.rows(),
                        s.bytesUncompressed() / 1e6,
                        secs > 0 ? rate / secs : 0.0,
                        read.isPresent() ? " read" : " committed",
                        s.partsWritten(),
                        s.activeParts(),
                        s.merges(),
                        secs));
        return b.toString();
    }

    /** A stop was requested while the command waited, before it started anything. */
    private static final class StoppedException extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    /** The job ended with a failure (not a stop). */
    private static final class JobFailedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        JobFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** One execution of the command. */
    private static final class Run {
        private final IngestOptions o;
        private final DeliveryCliOptions deliveryOptions;
        private ClientDelivery delivery;
        private TableStorage storage;
        private io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.Opened
                deliveryOpened;
        private final PrintStream out;
        private final PrintStream err;
        private GracefulStop stop;
        private volatile JobClient client;
        private java.util.OptionalLong totalRows = java.util.OptionalLong.empty();

        /**
         * Rows read and bytes downloaded by the running job, from its metrics: an embedded
         * MiniCluster reports them into this JVM, a cluster answers over REST. Null before a job.
         */
        private ReadProgress read;

        private S3Source<Block> sourceForNames;
        private ObjectStoreClient describer;

        Run(IngestOptions o, DeliveryCliOptions deliveryOptions, PrintStream out, PrintStream err) {
            this.o = o;
            this.deliveryOptions = deliveryOptions;
            this.out = out;
            this.err = err;
        }

        int execute() throws Exception {
            try (GracefulStop installed = GracefulStop.install(err)) {
                stop = installed;
                return executeWithStop();
            } catch (StoppedException e) {
                return 0;
            }
        }

        private int executeWithStop() throws Exception {
            String ddl = readDdl();
            // the form the engine stores and compares (normalized by the DDL parser)
            String storedForm = parseDdl(ddl).ddl();
            TableSchema schema = TableSchema.parse(ddl);
            storage = o.tableStorage();
            checkTable(storage, storedForm);
            IngestSettings settings = IngestSettings.parse(o.settings());
            S3Source<Block> source = IngestPipeline.source(o, schema, settings);
            sourceForNames = source;
            // what the sink refuses fails here, before anything is written (the job's sink is
            // built again with the run's writer lease once it is taken)
            IngestPipeline.sink(o, ddl, settings);

            ObjectPreflight.Listing listing = ObjectPreflight.list(source);
            if (listing.objects().isEmpty() && !o.continuous()) {
                throw new IllegalArgumentException("no object matches " + o.source());
            }
            if (o.format().equalsIgnoreCase("parquet") && !o.continuous()) {
                totalRows = ParquetRowCounter.totalRows(source.storeConfig(), listing.objects());
            }
            err.printf(
                    Locale.ROOT,
                    "input: %d objects, %.1f MB%s matching %s%n",
                    listing.objects().size(),
                    listing.totalBytes() / 1e6,
                    totalRows.isPresent()
                            ? String.format(Locale.ROOT, ", %,d rows", totalRows.getAsLong())
                            : "",
                    o.source());

            io.github.s3mergetree.delivery.PartDelivery partDelivery = null;
            if (deliveryOptions != null) {
                // fail before the job starts when the target does not fit
                // the table's own keys: what the server reads an S3 table with unless
                // --clickhouse-s3-access-key says otherwise
                org.apache.flink.configuration.Configuration tableOptions =
                        new org.apache.flink.configuration.Configuration();
                if (o.tableOnS3() && o.tableS3().accessKey() != null) {
                    tableOptions.set(
                            io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions
                                    .TABLE_S3_ACCESS_KEY,
                            o.tableS3().accessKey());
                    tableOptions.set(
                            io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions
                                    .TABLE_S3_SECRET_KEY,
                            o.tableS3().secretKey());
                }
                deliveryOpened = deliveryOptions.open(storage, storedForm, tableOptions);
                partDelivery = deliveryOpened.delivery();
                partDelivery.check();
                err.println("delivering every commit into " + partDelivery.target());
            }

            if (stop.requested()) {
                err.println(
                        "stopped before the job started ("
                                + stop.signalName()
                                + "); nothing written");
                return 0;
            }
            // from here on the table is written to
            String key = IngestPipeline.ingestKey(o);
            if (storage.isLocal()) {
                Files.createDirectories(Path.of(storage.describe()));
            }
            try (TableStore store = storage.openStore()) {
                MergeTreeTable.createIfAbsent(store, storedForm);
            }
            if (partDelivery != null) {
                delivery = new ClientDelivery(partDelivery, err, DELIVERY_INTERVAL);
            }
            try (IngestState state =
                            IngestState.open(
                                    storage, o.tablePath(), key, o.checkpointDir(), o.tableS3());
                    TableStore progressStore = storage.openStore();
                    IngestState.RunLock lock = state.lockRun(continuesRemoteJob(state))) {
                if (state.snapshotsOnS3()) {
                    // this process reads the job's failed-objects report and, when the job runs
                    // embedded, writes its checkpoints: Flink's S3 file system, on the table's S3
                    Configuration fs = new Configuration();
                    for (String kv : o.flinkConfig()) {
                        int eq = kv.indexOf('=');
                        if (eq > 0) {
                            fs.setString(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
                        }
                    }
                    FlinkFileSystems.configureS3(fs, o.tableS3());
                    FlinkFileSystems.initializeWithS3Plugin(fs);
                }
                if (delivery != null) {
                    delivery.start();
                }
                // the sink the job runs: commits only while this run holds the ingest's lease
                MergeTreeSink<Block> fenced =
                        IngestPipeline.sink(o, ddl, settings, null, lock.fence());
                int code =
                        run(
                                state,
                                new TableProgress(progressStore),
                                schema,
                                settings,
                                source,
                                fenced,
                                listing);
                if (delivery != null) {
                    long[] totals = delivery.finish();
                    err.printf(
                            Locale.ROOT,
                            "delivered %d parts (%d rows) into %s during this run%n",
                            totals[0],
                            totals[1],
                            partDelivery.target());
                }
                return code;
            } finally {
                if (delivery != null) {
                    delivery.close();
                }
                if (deliveryOpened != null) {
                    deliveryOpened.close();
                }
                if (describer != null) {
                    describer.close();
                }
            }
        }

        private int run(
                IngestState state,
                TableProgress progress,
                TableSchema schema,
                IngestSettings settings,
                S3Source<Block> listed,
                MergeTreeSink<Block> sink,
                ObjectPreflight.Listing listing)
                throws Exception {
            String key = IngestPipeline.ingestKey(o);
            if (state.partLogStart().isEmpty()) {
                state.setPartLogStart(progress.partLogLines());
            }
            long logStart = state.partLogStart().get();
            if (o.startOver()) {
                logStart = startOver(state, progress, logStart, listing);
            }
            if (state.finished() && !o.continuous()) {
                err.println(
                        "this ingest already finished (state in "
                                + state.directory()
                                + "); nothing to do. (--start-over would read every object again"
                                + " and add its rows to the table a second time.)");
                printSummary(progress.snapshot(logStart), null, List.of());
                return 0;
            }

            if (o.jobmanager() != null && awaitPreviousRemoteJob(state, progress, logStart)) {
                return finish(state, progress, logStart, null, false);
            }

            List<S3ObjectSplit> resume = null;
            if (!o.continuous() && state.latestSnapshot().isEmpty()) {
                List<S3ObjectSplit> parked = state.failedObjects();
                if (!parked.isEmpty()) {
                    FailedObjectsResume.Plan plan = resumePlan(listed, parked, listing);
                    err.println(
                            "the last run of this ingest could not read "
                                    + plan.notes().size()
                                    + (plan.notes().size() == 1 ? " object" : " objects")
                                    + "; reading exactly what is missing of "
                                    + (plan.notes().size() == 1 ? "it" : "them")
                                    + ":");
                    for (String note : plan.notes()) {
                        err.println("  " + note);
                    }
                    if (plan.splits().isEmpty()) {
                        state.markFinished();
                        err.println("nothing left to read: done");
                        printSummary(progress.snapshot(logStart), null, List.of());
                        return 0;
                    }
                    resume = plan.splits();
                }
            }
            state.deleteRunReport();
            S3Source<Block> source =
                    IngestPipeline.source(o, schema, settings, state.runReport(), resume);

            Configuration conf = flinkConfiguration(state);
            StreamExecutionEnvironment env = environment(conf, state);
            IngestPipeline.addTo(env, source, sink, o);
            stop.setSavepointDirectory(state.savepointsUri());
            if (!stop.beginSubmit()) {
                return stoppedBeforeTheJob(progress, logStart);
            }
            client = env.executeAsync("s3-mergetree ingest " + key + " " + o.source());
            String jobId = client.getJobID().toString();
            read =
                    o.jobmanager() == null
                            ? SourceCountersReporter.progress(jobId)
                            : new RestReadProgress(o.jobmanager(), jobId);
            state.setJob(jobId, o.jobmanager());
            CompletableFuture<?> result = client.getJobExecutionResult();
            stop.submitted(client, result);
            err.printf(
                    Locale.ROOT,
                    "job %s %s (%s), table %s%n",
                    client.getJobID(),
                    o.jobmanager() == null
                            ? "on an embedded MiniCluster"
                            : "on the cluster at " + o.jobmanager(),
                    conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                            .map(p -> "resuming from " + p)
                            .orElse(
                                    resume == null
                                            ? "fresh start"
                                            : "reading " + resume.size() + " resumed splits"),
                    storage.describe());

            Instant readingStart;
            try {
                readingStart = awaitEnd(result, progress, logStart);
            } catch (JobFailedException e) {
                stop.ended();
                if (stop.requested() && stop.cancelled()) {
                    // checkpoints are retained on cancellation: the next run resumes from the last
                    err.println(
                            "stopped: the job was cancelled after its last checkpoint; the next run"
                                    + " resumes from it");
                    printSummary(progress.snapshot(logStart), null, List.of());
                    return 0;
                }
                throw e;
            }
            stop.ended();
            boolean stopped = stop.savepoint(Duration.ofMinutes(1)).isPresent();
            if (stop.requested() && !stopped) {
                err.println(
                        stop.signalName()
                                + " came when the job had already finished its input: not"
                                + " stopped, finished");
            }
            return finish(state, progress, logStart, readingStart, stopped);
        }

        /** A stop was requested before the job was submitted: nothing to stop, exit 0. */
        private int stoppedBeforeTheJob(TableProgress progress, long logStart) throws IOException {
            err.println(
                    "stopped before the job started ("
                            + stop.signalName()
                            + "); nothing of this run was committed, the next run goes on from"
                            + " where the last one ended");
            printSummary(progress.snapshot(logStart), null, List.of());
            return 0;
        }

        /**
         * After the job ended (or a previous remote job did): a bounded ingest that read everything
         * is marked finished; one that parked objects records them (the next run reads exactly what
         * is missing of them) and exits with {@link #EXIT_FAILED_OBJECTS}. A stopped job keeps its
         * savepoint. Prints the done line and the summary.
         */
        private int finish(
                IngestState state,
                TableProgress progress,
                long logStart,
                Instant readingStart,
                boolean stopped)
                throws IOException {
            List<S3ObjectSplit> failed = state.runFailedObjects();
            boolean bounded = !o.continuous() && !stopped;
            if (bounded) {
                if (failed.isEmpty()) {
                    state.markFinished();
                } else {
                    state.recordFailedObjects();
                }
            }
            TableProgress.Snapshot s = progress.snapshot(logStart);
            err.printf(
                    Locale.ROOT,
                    "%s: %s%d rows committed in %d parts, %d merges, %d active parts%n",
                    stopped ? "stopped with a savepoint" : "done",
                    readTotals()
                            .map(
                                    t ->
                                            String.format(
                                                    Locale.ROOT,
                                                    "%d rows read (%.1f MB downloaded), ",
                                                    t.rowsRead(),
                                                    t.bytesDownloaded() / 1e6))
                            .orElse(""),
                    s.rows(),
                    s.partsWritten(),
                    s.merges(),
                    s.activeParts());
            if (!failed.isEmpty()) {
                err.printf(
                        Locale.ROOT,
                        "%d %s could not be read%s; every other row is committed:%n",
                        failed.size(),
                        failed.size() == 1 ? "object" : "objects (or byte ranges of objects)",
                        o.continuous() ? " and stay parked" : "");
                for (S3ObjectSplit f : failed) {
                    err.printf(
                            Locale.ROOT,
                            "  %s: %,d rows committed; %s%n",
                            objectName(f),
                            f.rowsRead(),
                            f.failure().orElse(""));
                }
                if (bounded) {
                    err.println(
                            "fix them and run the same command again: it reads exactly what is"
                                    + " missing (an object with no committed rows anew, whatever"
                                    + " its version; a changed one with committed rows only with"
                                    + " --resume-changed-objects)");
                }
            }
            printSummary(s, readingStart, failed);
            return bounded && !failed.isEmpty() ? EXIT_FAILED_OBJECTS : 0;
        }

        /** What to read of the parked objects of the last finished run, given the objects now. */
        private FailedObjectsResume.Plan resumePlan(
                S3Source<Block> listed,
                List<S3ObjectSplit> parked,
                ObjectPreflight.Listing listing) {
            Map<String, ObjectSummary> byKey = new HashMap<>();
            for (ObjectSummary os : listing.objects()) {
                byKey.put(os.key(), os);
            }
            return FailedObjectsResume.plan(
                    parked, byKey, listed.splitPlanner(), o.resumeChangedObjects(), this::describe);
        }

        /**
         * {@code --start-over}: says what it does to the table, then forgets this ingest's state.
         * Returns the new start of the part log count.
         */
        private long startOver(
                IngestState state,
                TableProgress progress,
                long logStart,
                ObjectPreflight.Listing listing)
                throws IOException {
            TableProgress.Snapshot before = progress.snapshot(logStart);
            long now = progress.partLogLines();
            err.printf(
                    Locale.ROOT,
                    "--start-over: forgetting this ingest's state in %s (%s). The %,d rows its"
                            + " earlier runs committed stay in %s; every one of the %d objects"
                            + " matching %s is read again from the start, so the table will hold"
                            + " %s rows twice. (For a clean copy, ingest into a new --table-path.)%n",
                    state.directory(),
                    state.finished()
                            ? "finished"
                            : state.failedObjects().isEmpty()
                                    ? "not finished"
                                    : "finished but for "
                                            + state.failedObjects().size()
                                            + " failed objects",
                    before.rows(),
                    o.tablePath(),
                    listing.objects().size(),
                    o.source(),
                    before.rows() == 0 ? "no" : "those");
            state.startOver(now);
            return now;
        }

        private String describe(String key) {
            if (describer == null) {
                describer = sourceForNames.storeConfig().createClient();
            }
            return describer.describe(key);
        }

        private String objectName(S3ObjectSplit f) {
            return describe(f.key())
                    + (f.isWholeObject()
                            ? ""
                            : String.format(
                                    Locale.ROOT, " bytes [%d, %d)", f.rangeStart(), f.rangeEnd()));
        }

        /**
         * Whether this run may continue the job a previous run submitted to the same cluster
         * ({@link #awaitPreviousRemoteJob}): that job commits under the previous run's lease, which
         * this run then adopts.
         */
        private boolean continuesRemoteJob(IngestState state) {
            return o.jobmanager() != null
                    && o.jobmanager().equals(state.lastJobManager().orElse(null));
        }

        /**
         * After a killed client, the previous job of this ingest may still run on the cluster: wait
         * for it (a second job from the same checkpoint would write rows twice). Returns whether it
         * finished the work.
         */
        private boolean awaitPreviousRemoteJob(
                IngestState state, TableProgress progress, long logStart) throws Exception {
            if (state.lastJobId().isEmpty()
                    || !o.jobmanager().equals(state.lastJobManager().orElse(null))) {
                return false;
            }
            String id = state.lastJobId().get();
            RemoteJobs jobs = new RemoteJobs(o.jobmanager());
            Optional<String> st = jobs.state(id);
            if (st.isEmpty() || RemoteJobs.TERMINAL.contains(st.get())) {
                return false;
            }
            err.println(
                    "the previous job of this ingest, "
                            + id
                            + ", is still "
                            + st.get()
                            + " on "
                            + o.jobmanager()
                            + ": waiting for it instead of starting another");
            long nextProgress = 0;
            read = new RestReadProgress(o.jobmanager(), id);
            while (st.isPresent() && !RemoteJobs.TERMINAL.contains(st.get())) {
                if (stop.requested()) {
                    err.println(
                            "stopped waiting ("
                                    + stop.signalName()
                                    + "); job "
                                    + id
                                    + " still runs on "
                                    + o.jobmanager()
                                    + ", and the next run waits for it again");
                    throw new StoppedException();
                }
                Thread.sleep(POLL.toMillis());
                if (System.nanoTime() >= nextProgress) {
                    nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
                    printProgress(progress.snapshot(logStart), null);
                }
                st = jobs.state(id);
            }
            err.println("job " + id + " ended " + st.orElse("(unknown to the cluster)"));
            return st.isPresent() && st.get().equals("FINISHED");
        }

        private String readDdl() throws IOException {
            try {
                return DdlFiles.read(o.tableDdlFile());
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(
                        "--table-ddl-file " + o.tableDdlFile() + " does not exist");
            } catch (DdlParseException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }

        /**
         * The table's layout; {@link IllegalArgumentException} naming the file if it is invalid.
         */
        private TableLayout parseDdl(String ddl) {
            try {
                return TableLayouts.fromDdl(ddl);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        "the DDL in " + o.tableDdlFile() + " is invalid: " + e.getMessage(), e);
            }
        }

        /**
         * Refuses a table path that is not a table of this DDL: a file, a table with another DDL, a
         * non-empty directory or prefix that is not a table. Objects only a delivery check writes
         * (and removes again: {@link DeliveryLedger#isCheckLeftover}) do not count, so a run killed
         * during its checks does not block the next one.
         */
        private void checkTable(TableStorage storage, String ddl) throws IOException {
            if (storage.isLocal()) {
                Path table = Path.of(storage.describe());
                if (Files.exists(table) && !Files.isDirectory(table)) {
                    throw new IllegalArgumentException(
                            "--table-path " + table + " exists and is not a directory");
                }
                if (!Files.exists(table)) {
                    return;
                }
            }
            // wrong credentials, a missing bucket or an unreachable endpoint: one line in seconds,
            // not after the table store's retries (which outlast an outage of a running job)
            TableBuildCheck.check(storage);
            try (TableStore store = TableBuildCheck.quick(storage).openStore()) {
                Optional<String> existing = MergeTreeTable.storedDdl(store);
                if (existing.isPresent()) {
                    if (!existing.get().strip().equals(ddl.strip())) {
                        throw new IllegalArgumentException(
                                "the table "
                                        + storage.describe()
                                        + " was created with a different DDL (see "
                                        + store.describe(
                                                TableKeys.METADATA_DIR + "/" + TableKeys.DDL_FILE)
                                        + ")");
                    }
                } else {
                    // a delivery check's probe left by a killed run is no table content
                    Optional<String> foreign =
                            store.list("").stream()
                                    .map(o -> o.key())
                                    .filter(k -> !DeliveryLedger.isCheckLeftover(k))
                                    .findFirst();
                    if (foreign.isPresent()) {
                        throw new IllegalArgumentException(
                                "--table-path "
                                        + storage.describe()
                                        + (storage.isLocal()
                                                ? " is a non-empty directory that is not a table"
                                                        + " directory"
                                                : " holds objects but is not a table (no "
                                                        + TableKeys.METADATA_DIR
                                                        + "/"
                                                        + TableKeys.DDL_FILE
                                                        + ")")
                                        + ", e.g. "
                                        + store.describe(foreign.get()));
                    }
                }
            }
        }

        private Configuration flinkConfiguration(IngestState state) throws IOException {
            Configuration conf = new Configuration();
            if (o.jobmanager() == null) {
                // the embedded MiniCluster reports the source's counters (rows read, bytes
                // downloaded, malformed rows skipped) to the progress line and the summary
                SourceCountersReporter.install(conf);
            }
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, o.checkpointInterval());
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, state.checkpointsUri());
            conf.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, state.savepointsUri());
            conf.set(
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofSeconds(2));
            state.latestSnapshot().ifPresent(p -> conf.set(StateRecoveryOptions.SAVEPOINT_PATH, p));
            for (String kv : o.flinkConfig()) {
                int eq = kv.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(
                            "--flink-config takes key=value, not '" + kv + "'");
                }
                conf.setString(kv.substring(0, eq).trim(), kv.substring(eq + 1).trim());
            }
            return conf;
        }

        private StreamExecutionEnvironment environment(Configuration conf, IngestState state)
                throws IOException {
            if (o.jobmanager() == null) {
                if (state.snapshotsOnS3()) {
                    // the embedded cluster writes its checkpoints to S3 from this JVM
                    FlinkFileSystems.configureS3(conf, o.tableS3());
                    FlinkFileSystems.initializeWithS3Plugin(conf);
                }
                int p =
                        o.parallelism() != null
                                ? o.parallelism()
                                : Math.max(1, Runtime.getRuntime().availableProcessors());
                // the MiniCluster's working directories, RPC jar and spill files go to this run's
                // own scratch directory, removed at exit (or by the next run after a kill)
                String scratch = RunDirectories.scratch().toString();
                if (!conf.contains(CoreOptions.TMP_DIRS)) {
                    conf.set(CoreOptions.TMP_DIRS, scratch);
                }
                if (!conf.contains(WebOptions.UPLOAD_DIR)) {
                    conf.set(WebOptions.UPLOAD_DIR, scratch);
                }
                if (!conf.contains(WebOptions.TMP_DIR)) {
                    conf.set(WebOptions.TMP_DIR, scratch);
                }
                if (!conf.contains(SecurityOptions.DELEGATION_TOKENS_ENABLED)) {
                    // one local process obtains no Kerberos delegation tokens; Flink's token
                    // manager would still load Hadoop's UserGroupInformation and parse its XML
                    // configuration at every start (~0.1 CPU-s, plus the JIT of the XML parser)
                    conf.set(SecurityOptions.DELEGATION_TOKENS_ENABLED, false);
                }
                EmbeddedNetworkMemory.configure(conf, p);
                return StreamExecutionEnvironment.createLocalEnvironment(p, conf);
            }
            int colon = o.jobmanager().lastIndexOf(':');
            String host = o.jobmanager().substring(0, colon);
            int port = Integer.parseInt(o.jobmanager().substring(colon + 1));
            Path jar = JobJar.locate(o.jobJar());
            StreamExecutionEnvironment env =
                    StreamExecutionEnvironment.createRemoteEnvironment(
                            host, port, conf, jar.toString());
            if (o.parallelism() != null) {
                env.setParallelism(o.parallelism());
            }
            return env;
        }

        /** Waits for the job's end with progress lines; returns when reading started. */
        private Instant awaitEnd(CompletableFuture<?> result, TableProgress progress, long logStart)
                throws Exception {
            Instant readingStart = null;
            long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
            while (!result.isDone()) {
                try {
                    // until the job runs, poll often: its start of reading is the summary's
                    // zero, and a late one would shorten the measured seconds (by up to POLL)
                    Duration wait = readingStart == null ? POLL_UNTIL_RUNNING : POLL;
                    result.get(wait.toMillis(), TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    // poll
                }
                if (readingStart == null && !result.isDone()) {
                    try {
                        JobStatus st = client.getJobStatus().get(10, TimeUnit.SECONDS);
                        if (st == JobStatus.RUNNING) {
                            readingStart = Instant.now();
                        }
                    } catch (Exception e) {
                        // the status is best effort; the result decides
                    }
                }
                if (System.nanoTime() >= nextProgress) {
                    nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
                    printProgress(progress.snapshot(logStart), readingStart);
                }
            }
            try {
                result.get();
            } catch (ExecutionException e) {
                throw new JobFailedException(
                        "the job failed: " + FailureMessages.innermostMessage(e.getCause()),
                        e.getCause());
            }
            return readingStart == null ? Instant.now() : readingStart;
        }

        /**
         * One progress line: rows read and bytes downloaded (the job's metrics) beside the rows
         * committed (the part log), which only move at checkpoints. With a known total (Parquet
         * footers) a bar shows both: {@code #} committed, {@code =} read, not yet committed.
         */
        private void printProgress(TableProgress.Snapshot s, Instant start) {
            double secs =
                    start == null ? 0 : Duration.between(start, Instant.now()).toMillis() / 1e3;
            err.println(progressLine(s, readTotals(), totalRows, secs));
        }

        /** The job's read totals so far; empty without a job or before it reported any. */
        private Optional<ReadProgress.Totals> readTotals() {
            return read == null ? Optional.empty() : read.totals();
        }

        private void printSummary(
                TableProgress.Snapshot s, Instant readingStart, List<S3ObjectSplit> failed) {
            double seconds = secondsSince(readingStart, s.lastEvent());
            double insertSeconds = secondsSince(readingStart, s.lastNewPart());
            StringBuilder failedJson = new StringBuilder("[");
            for (S3ObjectSplit f : failed) {
                if (failedJson.length() > 1) {
                    failedJson.append(',');
                }
                failedJson
                        .append("{\"object\":")
                        .append(jsonString(objectName(f)))
                        .append(",\"rows_committed\":")
                        .append(f.rowsRead())
                        .append(",\"error\":")
                        .append(jsonString(f.failure().orElse("")))
                        .append('}');
            }
            failedJson.append(']');
            out.printf(
                    Locale.ROOT,
                    "{\"rows\":%d,\"bytes_uncompressed\":%d,\"seconds\":%.3f,\"rows_per_s\":%.0f,"
                            + "\"insert_seconds\":%.3f,"
                            + "\"parts_written\":%d,\"active_parts\":%d,\"merges\":%d,"
                            + "\"rows_skipped\":%s,\"failed_objects\":%s}%n",
                    s.rows(),
                    s.bytesUncompressed(),
                    seconds,
                    seconds > 0 ? s.rows() / seconds : 0.0,
                    insertSeconds,
                    s.partsWritten(),
                    s.activeParts(),
                    s.merges(),
                    rowsSkipped(),
                    failedJson);
            out.flush();
        }

        /** {@code v} as a JSON string literal. */
        static String jsonString(String v) {
            StringBuilder b = new StringBuilder("\"");
            for (int i = 0; i < v.length(); i++) {
                char c = v.charAt(i);
                switch (c) {
                    case '"' -> b.append("\\\"");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    case '\r' -> b.append("\\r");
                    case '\t' -> b.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                        } else {
                            b.append(c);
                        }
                    }
                }
            }
            return b.append('"').toString();
        }

        /**
         * Malformed text rows this run's job skipped ({@code input_format_allow_errors_*}); 0 if no
         * job ran, {@code null} on a remote cluster (its metrics are in Flink's web UI).
         */
        private String rowsSkipped() {
            if (client == null) {
                return "0";
            }
            return o.jobmanager() == null
                    ? String.valueOf(
                            SourceCountersReporter.total(
                                            client.getJobID().toString(),
                                            S3SourceMetrics.ROWS_SKIPPED)
                                    .orElse(0L))
                    : "null";
        }

        /** Seconds from the job's reading start to {@code end} (now when there is none yet). */
        private static double secondsSince(Instant readingStart, Instant end) {
            if (readingStart == null) {
                return 0;
            }
            Instant until = end != null && end.isAfter(readingStart) ? end : Instant.now();
            return Duration.between(readingStart, until).toMillis() / 1e3;
        }
    }
}
