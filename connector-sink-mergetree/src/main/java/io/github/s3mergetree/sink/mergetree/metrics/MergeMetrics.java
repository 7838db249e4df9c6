package io.github.s3mergetree.sink.mergetree.metrics;

import io.github.s3mergetree.engine.merge.MergeScheduler;
import java.util.function.LongSupplier;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The merge coordinator's metrics, in its table's group under its operator metric group: active
 * parts (and the most in one partition), merges running, done and failed, uncompressed bytes
 * merged, outdated parts removed, parts detached as broken, and commits seen.
 */
@Internal
public final class MergeMetrics {
    /** Committables seen (each one published parts). */
    public final Counter commitsSeen;

    /** Outdated parts removed after old_parts_lifetime. */
    public final Counter partsRemoved;

    private volatile long activeParts;
    private volatile long maxPartsInPartition;

    /**
     * Registers the metrics of {@code scheduler} merging {@code table} in {@code operator}'s group
     * of that table ({@link TableMetricGroup}); {@code partsDetachedBroken} counts the parts the
     * coordinator's table moved to {@code detached/broken_*}.
     */
    public MergeMetrics(
            MetricGroup operator,
            String table,
            MergeScheduler scheduler,
            LongSupplier partsDetachedBroken) {
        MetricGroup group = TableMetricGroup.of(operator, table);
        commitsSeen = group.counter("commitsSeen");
        partsRemoved = group.counter("partsRemoved");
        group.gauge("activeParts", (Gauge<Long>) () -> activeParts);
        group.gauge("maxPartsInPartition", (Gauge<Long>) () -> maxPartsInPartition);
        group.gauge("mergesRunning", (Gauge<Integer>) () -> scheduler.runningMerges().size());
        group.gauge("mergesDone", (Gauge<Long>) scheduler::mergesDone);
        group.gauge("mergesFailed", (Gauge<Long>) scheduler::mergesFailed);
        group.gauge("mergedBytes", (Gauge<Long>) scheduler::bytesMerged);
        group.gauge("partsDetachedBroken", (Gauge<Long>) partsDetachedBroken::getAsLong);
    }

    /** Records the table's part counts. */
    public void parts(long active, long maxInPartition) {
        this.activeParts = active;
        this.maxPartsInPartition = maxInPartition;
    }
}
