package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.DeliveryCliOptions;
import io.github.s3mergetree.cli.command.Subcommand;
import java.io.PrintStream;
import java.util.List;

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
 *
 * <p>This class parses the command line; {@link IngestRun} is one execution.
 */
public final class IngestCommand implements Subcommand {
    /**
     * The exit code of a bounded ingest that finished with objects it could not read (every other
     * row committed; the summary lists them).
     */
    public static final int EXIT_FAILED_OBJECTS = 3;

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
        return new IngestRun(o, split.delivery(), out, err).execute();
    }
}
