package io.github.s3mergetree.cli.ingest;

import java.util.Optional;

/**
 * How far a running ingest job has read: the rows its S3 source decoded and the bytes it
 * downloaded, from the job's own metrics (the source's {@code s3.rowsRead} and {@code
 * s3.bytesDownloaded} counters). The progress line shows them beside the rows committed, which only
 * move at checkpoints: a bounded ingest commits at its end, so committed rows alone stand still for
 * most of its run.
 *
 * <p>Two ways to the metrics: an embedded MiniCluster runs in this JVM and reports to a {@link
 * SourceCountersReporter}; a cluster is asked over its REST API ({@link RestReadProgress}).
 */
interface ReadProgress extends AutoCloseable {
    /** Rows read and bytes downloaded, summed over the source's subtasks. */
    record Totals(long rowsRead, long bytesDownloaded) {}

    /** The latest totals; empty while the job has reported none. */
    Optional<Totals> totals();

    @Override
    void close();
}
