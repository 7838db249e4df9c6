package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.source.s3.s3.S3SourceMetrics;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter, in the command's own JVM, that sums the S3 source's {@code
 * malformedRowsSkipped} counters ({@code input_format_allow_errors_num/ratio}) of each job, so that
 * the ingest summary of an embedded MiniCluster run can say how many rows were skipped. A counter
 * keeps its last value after its task ends. On a remote cluster the counters live in other JVMs:
 * there the metric is in Flink's own metrics (web UI, REST, the cluster's reporters) only.
 *
 * <p>Counted per task attempt, like every Flink counter: a task restarted from a checkpoint counts
 * again the rows it skips again.
 */
public final class SkippedRowsReporter implements MetricReporter {
    /** The name of this reporter in the Flink configuration. */
    public static final String NAME = "s3mergetree_rows_skipped";

    private static final Map<String, Set<Counter>> LIVE = new ConcurrentHashMap<>();
    private static final Map<String, LongAdder> ENDED = new ConcurrentHashMap<>();

    /** Creates the reporter ({@code metrics.reporter.<name>.factory.class}). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new SkippedRowsReporter();
        }
    }

    /** Malformed rows skipped by the sources of job {@code jobId} so far (0 if none). */
    public static long total(String jobId) {
        long n = ENDED.getOrDefault(jobId, new LongAdder()).sum();
        for (Counter c : LIVE.getOrDefault(jobId, Set.of())) {
            n += c.getCount();
        }
        return n;
    }

    private static String jobId(MetricGroup group) {
        return group.getAllVariables().getOrDefault("<job_id>", "");
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        if (S3SourceMetrics.ROWS_SKIPPED.equals(name) && metric instanceof Counter c) {
            LIVE.computeIfAbsent(jobId(group), k -> ConcurrentHashMap.newKeySet()).add(c);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        if (S3SourceMetrics.ROWS_SKIPPED.equals(name) && metric instanceof Counter c) {
            String job = jobId(group);
            Set<Counter> live = LIVE.get(job);
            if (live != null && live.remove(c)) {
                ENDED.computeIfAbsent(job, k -> new LongAdder()).add(c.getCount());
            }
        }
    }
}
