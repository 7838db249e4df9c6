package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.DeliveryCliOptions;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * One execution of {@code s3-mergetree ingest}, in order: the table, source and sink checked and
 * the objects listed before anything is written; the delivery target checked; the table created and
 * the ingest's state locked; then the job submitted (embedded or to a cluster: {@link
 * JobEnvironments}), resumed from where the last run ended ({@link IngestResume}, {@link
 * PreviousRemoteJob}), watched to its end ({@link JobCompletion}) and stopped gracefully on a
 * signal ({@link GracefulStop}); the ingest's state is updated and the result printed ({@link
 * IngestReport}) at the end.
 */
final class IngestRun {
    private static final Duration DELIVERY_INTERVAL = Duration.ofSeconds(2);

    private final IngestOptions o;
    private final DeliveryCliOptions deliveryOptions;
    private ClientDelivery delivery;
    private TableStorage storage;
    private io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.Opened deliveryOpened;
    private final PrintStream err;
    private GracefulStop stop;
    private final IngestReport report;
    private volatile JobClient client;
    private S3Source<Block> sourceForNames;
    private ObjectStoreClient describer;

    IngestRun(
            IngestOptions o, DeliveryCliOptions deliveryOptions, PrintStream out, PrintStream err) {
        this.o = o;
        this.deliveryOptions = deliveryOptions;
        this.err = err;
        this.report = new IngestReport(out, err, this::describe);
    }

    int execute() throws Exception {
        try (GracefulStop installed = GracefulStop.install(err)) {
            stop = installed;
            return executeWithStop();
        } catch (StoppedWhileWaiting e) {
            return 0;
        }
    }

    private int executeWithStop() throws Exception {
        // parsed once here: the source's columns, the sink and the delivery take it parsed
        TableDefinition table =
                IngestTable.parseDdl(o.tableDdlFile(), IngestTable.readDdl(o.tableDdlFile()));
        // the form the engine stores and compares (normalized by the DDL parser)
        String storedForm = table.storedDdl();
        TableSchema schema = table.schema();
        storage = o.tableStorage();
        IngestTable.check(storage, storedForm);
        IngestSettings settings = IngestSettings.parse(o.settings());
        S3Source<Block> source = IngestPipeline.source(o, schema, settings);
        sourceForNames = source;
        // what the sink refuses fails here, before anything is written (the job's sink is
        // built again with the run's writer lease once it is taken)
        IngestPipeline.sink(o, table, settings);

        ObjectPreflight.Listing listing = ObjectPreflight.list(source);
        if (listing.objects().isEmpty() && !o.continuous()) {
            throw new IllegalArgumentException("no object matches " + o.source());
        }
        java.util.OptionalLong totalRows = java.util.OptionalLong.empty();
        if (o.format().equalsIgnoreCase("parquet") && !o.continuous()) {
            totalRows = ParquetRowCounter.totalRows(source.storeConfig(), listing.objects());
        }
        report.setTotalRows(totalRows);
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
            deliveryOpened = ClientDelivery.open(deliveryOptions, o, storage, schema);
            partDelivery = deliveryOpened.delivery();
            partDelivery.check();
            err.println("delivering every commit into " + partDelivery.target());
        }

        if (stop.requested()) {
            err.println(
                    "stopped before the job started (" + stop.signalName() + "); nothing written");
            return 0;
        }
        // from here on the table is written to
        String key = IngestPipeline.ingestKey(o);
        if (storage.isLocal()) {
            Files.createDirectories(Path.of(storage.describe()));
        }
        try (TableStore store = storage.openStore()) {
            MergeTreeTable.createIfAbsent(store, table);
        }
        if (partDelivery != null) {
            delivery = new ClientDelivery(partDelivery, err, DELIVERY_INTERVAL);
        }
        try (IngestState state =
                        IngestState.open(
                                storage, o.tablePath(), key, o.checkpointDir(), o.tableS3());
                TableStore progressStore = storage.openStore();
                IngestState.RunLock lock = state.lockRun(PreviousRemoteJob.continuedBy(o, state))) {
            if (state.snapshotsOnS3()) {
                JobEnvironments.initializeS3FileSystemHere(o);
            }
            if (delivery != null) {
                delivery.start();
            }
            // the sink the job runs: commits only while this run holds the ingest's lease
            MergeTreeSink<Block> fenced =
                    IngestPipeline.sink(o, table, settings, null, lock.fence());
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
            logStart = IngestResume.startOver(o, state, progress, logStart, listing, err);
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

        if (o.jobmanager() != null
                && PreviousRemoteJob.await(o, state, stop, report, progress, logStart, err)) {
            return finish(state, progress, logStart, null, false);
        }

        List<S3ObjectSplit> resume = null;
        if (!o.continuous() && state.latestSnapshot().isEmpty()) {
            Optional<List<S3ObjectSplit>> parked =
                    IngestResume.parkedObjects(o, state, listed, listing, this::describe, err);
            if (parked.isPresent() && parked.get().isEmpty()) {
                state.markFinished();
                err.println("nothing left to read: done");
                printSummary(progress.snapshot(logStart), null, List.of());
                return 0;
            }
            resume = parked.orElse(null);
        }
        state.deleteRunReport();
        S3Source<Block> source =
                IngestPipeline.source(o, schema, settings, state.runReport(), resume);

        Configuration conf =
                JobEnvironments.configuration(
                        o, state.checkpointsUri(), state.savepointsUri(), state.latestSnapshot());
        StreamExecutionEnvironment env =
                JobEnvironments.environment(o, conf, state.snapshotsOnS3());
        IngestPipeline.addTo(env, source, sink, o);
        stop.setSavepointDirectory(state.savepointsUri());
        if (!stop.beginSubmit()) {
            return stoppedBeforeTheJob(progress, logStart);
        }
        client = env.executeAsync("s3-mergetree ingest " + key + " " + o.source());
        String jobId = client.getJobID().toString();
        report.readFrom(
                o.jobmanager() == null
                        ? SourceCountersReporter.progress(jobId)
                        : new RestReadProgress(o.jobmanager(), jobId));
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
        long from = logStart;
        try {
            readingStart =
                    JobCompletion.await(
                            client, result, start -> printProgress(progress.snapshot(from), start));
        } catch (JobCompletion.JobFailed e) {
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
     * After the job ended (or a previous remote job did): a bounded ingest that read everything is
     * marked finished; one that parked objects records them (the next run reads exactly what is
     * missing of them) and exits with {@link IngestCommand#EXIT_FAILED_OBJECTS}. A stopped job
     * keeps its savepoint. Prints the done line and the summary.
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
                report.readTotals()
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
                        report.objectName(f),
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
        return bounded && !failed.isEmpty() ? IngestCommand.EXIT_FAILED_OBJECTS : 0;
    }

    private String describe(String key) {
        if (describer == null) {
            describer = sourceForNames.storeConfig().createClient();
        }
        return describer.describe(key);
    }

    private void printProgress(TableProgress.Snapshot s, Instant start) {
        report.progress(s, start, Instant.now());
    }

    private void printSummary(
            TableProgress.Snapshot s, Instant readingStart, List<S3ObjectSplit> failed) {
        report.summary(s, readingStart, failed, rowsSkipped(), Instant.now());
    }

    /**
     * Malformed text rows this run's job skipped ({@code input_format_allow_errors_*}); 0 if no job
     * ran, {@code null} on a remote cluster (its metrics are in Flink's web UI).
     */
    private String rowsSkipped() {
        if (client == null) {
            return "0";
        }
        return o.jobmanager() == null
                ? String.valueOf(
                        SourceCountersReporter.total(
                                        client.getJobID().toString(), S3SourceMetrics.ROWS_SKIPPED)
                                .orElse(0L))
                : "null";
    }
}
