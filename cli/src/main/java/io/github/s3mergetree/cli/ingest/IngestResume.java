package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a run of an ingest starts from, besides a checkpoint (which Flink resumes itself): {@code
 * --start-over}, which forgets the ingest's state, and the objects the last finished run could not
 * read, of which this run reads exactly what is missing ({@link FailedObjectsResume}).
 */
final class IngestResume {
    private IngestResume() {}

    /**
     * {@code --start-over}: says what it does to the table, then forgets this ingest's state.
     * Returns the new start of the part log count.
     */
    static long startOver(
            IngestOptions o,
            IngestState state,
            TableProgress progress,
            long logStart,
            ObjectPreflight.Listing listing,
            PrintStream err)
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

    /**
     * The splits a bounded run reads to finish the objects the last finished run parked (printing
     * which and why); empty when nothing was parked. An empty list inside means nothing is left to
     * read.
     */
    static Optional<List<S3ObjectSplit>> parkedObjects(
            IngestOptions o,
            IngestState state,
            S3Source<Block> listed,
            ObjectPreflight.Listing listing,
            Function<String, String> describeObject,
            PrintStream err)
            throws IOException {
        List<S3ObjectSplit> parked = state.failedObjects();
        if (parked.isEmpty()) {
            return Optional.empty();
        }
        Map<String, ObjectSummary> byKey = new HashMap<>();
        for (ObjectSummary os : listing.objects()) {
            byKey.put(os.key(), os);
        }
        FailedObjectsResume.Plan plan =
                FailedObjectsResume.plan(
                        parked,
                        byKey,
                        listed.splitPlanner(),
                        o.resumeChangedObjects(),
                        describeObject::apply);
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
        return Optional.of(plan.splits());
    }
}
