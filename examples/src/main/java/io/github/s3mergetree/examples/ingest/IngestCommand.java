package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.TableDirectory;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.examples.cli.DeliveryCliOptions;
import io.github.s3mergetree.examples.cli.RunDirectories;
import io.github.s3mergetree.examples.cli.S3MergeTreeCommand;
import io.github.s3mergetree.examples.cli.Subcommand;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.source.s3.S3Source;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import sun.misc.Signal;

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
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration POLL_UNTIL_RUNNING = Duration.ofMillis(10);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final Duration DELIVERY_INTERVAL = Duration.ofSeconds(2);

    @Override
    public String name() {
        return "ingest";
    }

    @Override
    public String usage() {
        return IngestOptions.USAGE + " " + DeliveryCliOptions.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        DeliveryCliOptions.Split split = DeliveryCliOptions.split(args);
        IngestOptions o = IngestOptions.parse(split.rest());
        return new Run(o, split.delivery(), out, err).execute();
    }

    /** One execution of the command. */
    private static final class Run {
        private final IngestOptions o;
        private final DeliveryCliOptions deliveryOptions;
        private ClientDelivery delivery;
        private final PrintStream out;
        private final PrintStream err;
        private final AtomicBoolean stopRequested = new AtomicBoolean();
        private volatile JobClient client;
        private java.util.OptionalLong totalRows = java.util.OptionalLong.empty();

        Run(IngestOptions o, DeliveryCliOptions deliveryOptions, PrintStream out, PrintStream err) {
            this.o = o;
            this.deliveryOptions = deliveryOptions;
            this.out = out;
            this.err = err;
        }

        int execute() throws Exception {
            String ddl = readDdl();
            // the form the engine stores and compares (normalized by the DDL parser)
            String storedForm = parseDdl(ddl).ddl();
            TableSchema schema = TableSchema.parse(ddl);
            checkTableDirectory(storedForm);
            IngestSettings settings = IngestSettings.parse(o.settings());
            S3Source<Block> source = IngestPipeline.source(o, schema, settings);
            MergeTreeSink<Block> sink = IngestPipeline.sink(o, ddl, settings);

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
                partDelivery =
                        deliveryOptions.open(
                                new io.github.s3mergetree.delivery.store.LocalTableFiles(
                                        o.tablePath()),
                                schema);
                partDelivery.check();
                err.println("delivering every commit into " + partDelivery.target());
            }

            // from here on the table directory is written to
            String key = IngestPipeline.ingestKey(o);
            Files.createDirectories(o.tablePath());
            TableDirectory.createOrOpen(o.tablePath(), storedForm);
            IngestState state = IngestState.open(o.tablePath(), key);
            if (partDelivery != null) {
                delivery = new ClientDelivery(partDelivery, err, DELIVERY_INTERVAL);
            }
            try (IngestState.RunLock lock = state.lockRun()) {
                if (delivery != null) {
                    delivery.start();
                }
                int code = run(state, source, sink, listing);
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
            }
        }

        private int run(
                IngestState state,
                S3Source<Block> source,
                MergeTreeSink<Block> sink,
                ObjectPreflight.Listing listing)
                throws Exception {
            String key = IngestPipeline.ingestKey(o);
            TableProgress progress = new TableProgress(o.tablePath());
            if (state.partLogStart().isEmpty()) {
                state.setPartLogStart(progress.partLogLines());
            }
            long logStart = state.partLogStart().get();
            if (state.finished() && !o.continuous()) {
                err.println(
                        "this ingest already finished (state in "
                                + state.directory()
                                + "); nothing to do. Delete that directory to ingest again.");
                printSummary(progress.snapshot(logStart), null);
                return 0;
            }

            if (o.jobmanager() != null && awaitPreviousRemoteJob(state, progress, logStart)) {
                if (!o.continuous()) {
                    state.markFinished();
                }
                printSummary(progress.snapshot(logStart), null);
                return 0;
            }

            Configuration conf = flinkConfiguration(state);
            StreamExecutionEnvironment env = environment(conf);
            IngestPipeline.addTo(env, source, sink, o);
            installStopHandler(state);
            client = env.executeAsync("s3-mergetree ingest " + key + " " + o.source());
            state.setJob(client.getJobID().toString(), o.jobmanager());
            err.printf(
                    Locale.ROOT,
                    "job %s %s (%s), table %s%n",
                    client.getJobID(),
                    o.jobmanager() == null
                            ? "on an embedded MiniCluster"
                            : "on the cluster at " + o.jobmanager(),
                    conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH)
                            .map(p -> "resuming from " + p)
                            .orElse("fresh start"),
                    o.tablePath());

            Instant readingStart = awaitEnd(progress, logStart, listing);
            boolean stopped = stopRequested.get();
            if (!o.continuous() && !stopped) {
                state.markFinished();
            }
            TableProgress.Snapshot s = progress.snapshot(logStart);
            err.printf(
                    Locale.ROOT,
                    "%s: %d rows committed in %d parts, %d merges, %d active parts%n",
                    stopped ? "stopped with a savepoint" : "done",
                    s.rows(),
                    s.partsWritten(),
                    s.merges(),
                    s.activeParts());
            printSummary(s, readingStart);
            return 0;
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
            while (st.isPresent() && !RemoteJobs.TERMINAL.contains(st.get())) {
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
                return Files.readString(o.tableDdlFile(), StandardCharsets.UTF_8);
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(
                        "--table-ddl-file " + o.tableDdlFile() + " does not exist");
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

        private void checkTableDirectory(String ddl) throws IOException {
            Path table = o.tablePath();
            if (Files.exists(table) && !Files.isDirectory(table)) {
                throw new IllegalArgumentException(
                        "--table-path " + table + " exists and is not a directory");
            }
            Path stored =
                    table.resolve(TableDirectory.METADATA_DIR).resolve(TableDirectory.DDL_FILE);
            if (Files.isRegularFile(stored)) {
                String existing = Files.readString(stored, StandardCharsets.UTF_8);
                if (!existing.strip().equals(ddl.strip())) {
                    throw new IllegalArgumentException(
                            "the table directory "
                                    + table
                                    + " was created with a different DDL (see "
                                    + stored
                                    + ")");
                }
            } else if (Files.isDirectory(table)) {
                try (var s = Files.list(table)) {
                    if (s.findAny().isPresent()) {
                        throw new IllegalArgumentException(
                                "--table-path "
                                        + table
                                        + " is a non-empty directory that is not a table"
                                        + " directory");
                    }
                }
            }
        }

        private Configuration flinkConfiguration(IngestState state) throws IOException {
            Configuration conf = new Configuration();
            if (o.jobmanager() == null) {
                // the embedded MiniCluster reports the skipped malformed rows to the summary
                conf.setString(
                        "metrics.reporter." + SkippedRowsReporter.NAME + ".factory.class",
                        SkippedRowsReporter.Factory.class.getName());
            }
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, o.checkpointInterval());
            conf.set(
                    CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                    state.checkpointsDirectory().toUri().toString());
            conf.set(
                    CheckpointingOptions.SAVEPOINT_DIRECTORY,
                    state.savepointsDirectory().toUri().toString());
            conf.set(
                    CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(
                    RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                    Duration.ofSeconds(2));
            Optional<Path> snapshot = state.latestSnapshot();
            snapshot.ifPresent(
                    p -> conf.set(StateRecoveryOptions.SAVEPOINT_PATH, p.toUri().toString()));
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

        private StreamExecutionEnvironment environment(Configuration conf) throws IOException {
            if (o.jobmanager() == null) {
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

        /** SIGTERM / SIGINT: stop the job with a savepoint (its last commit), then exit 0. */
        private void installStopHandler(IngestState state) {
            sun.misc.SignalHandler handler =
                    sig -> {
                        if (!stopRequested.compareAndSet(false, true)) {
                            return;
                        }
                        err.println("SIG" + sig.getName() + ": stopping with a savepoint...");
                        JobClient c = client;
                        if (c == null) {
                            System.exit(130);
                        }
                        Thread t =
                                new Thread(
                                        () -> {
                                            try {
                                                String path =
                                                        c.stopWithSavepoint(
                                                                        false,
                                                                        state.savepointsDirectory()
                                                                                .toUri()
                                                                                .toString(),
                                                                        SavepointFormatType
                                                                                .CANONICAL)
                                                                .get(5, TimeUnit.MINUTES);
                                                err.println("savepoint: " + path);
                                            } catch (Exception e) {
                                                err.println(
                                                        "stop with savepoint failed: "
                                                                + e.getMessage()
                                                                + "; cancelling (the next run"
                                                                + " resumes from the last"
                                                                + " checkpoint)");
                                                c.cancel();
                                            }
                                        },
                                        "s3-mergetree-stop");
                        t.setDaemon(true);
                        t.start();
                    };
            for (String sig : List.of("TERM", "INT")) {
                try {
                    Signal.handle(new Signal(sig), handler);
                } catch (IllegalArgumentException e) {
                    // not supported on this platform: the default handling applies
                }
            }
        }

        /** Waits for the job's end with progress lines; returns when reading started. */
        private Instant awaitEnd(
                TableProgress progress, long logStart, ObjectPreflight.Listing listing)
                throws Exception {
            CompletableFuture<?> result = client.getJobExecutionResult();
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
                throw new IllegalStateException(
                        "the job failed: " + S3MergeTreeCommand.innermostMessage(e.getCause()),
                        e.getCause());
            }
            return readingStart == null ? Instant.now() : readingStart;
        }

        private void printProgress(TableProgress.Snapshot s, Instant start) {
            double secs =
                    start == null ? 0 : Duration.between(start, Instant.now()).toMillis() / 1e3;
            String bar = "";
            if (totalRows.isPresent() && totalRows.getAsLong() > 0) {
                double f = Math.min(1.0, s.rows() / (double) totalRows.getAsLong());
                int filled = (int) Math.round(f * 30);
                bar =
                        "["
                                + "#".repeat(filled)
                                + ".".repeat(30 - filled)
                                + String.format(Locale.ROOT, "] %3.0f%% ", f * 100);
            }
            err.printf(
                    Locale.ROOT,
                    "progress: %s%,d rows, %.1f MB committed, %,.0f rows/s, %d parts written,"
                            + " %d active, %d merges, %.0f s%n",
                    bar,
                    s.rows(),
                    s.bytesUncompressed() / 1e6,
                    secs > 0 ? s.rows() / secs : 0.0,
                    s.partsWritten(),
                    s.activeParts(),
                    s.merges(),
                    secs);
        }

        private void printSummary(TableProgress.Snapshot s, Instant readingStart) {
            double seconds = secondsSince(readingStart, s.lastEvent());
            double insertSeconds = secondsSince(readingStart, s.lastNewPart());
            out.printf(
                    Locale.ROOT,
                    "{\"rows\":%d,\"bytes_uncompressed\":%d,\"seconds\":%.3f,\"rows_per_s\":%.0f,"
                            + "\"insert_seconds\":%.3f,"
                            + "\"parts_written\":%d,\"active_parts\":%d,\"merges\":%d,"
                            + "\"rows_skipped\":%s}%n",
                    s.rows(),
                    s.bytesUncompressed(),
                    seconds,
                    seconds > 0 ? s.rows() / seconds : 0.0,
                    insertSeconds,
                    s.partsWritten(),
                    s.activeParts(),
                    s.merges(),
                    rowsSkipped());
            out.flush();
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
                    ? String.valueOf(SkippedRowsReporter.total(client.getJobID().toString()))
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
