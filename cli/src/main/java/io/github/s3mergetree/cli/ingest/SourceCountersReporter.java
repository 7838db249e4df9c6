package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter, in the command's own JVM, that sums the S3 source's counters of each job
 * of an embedded MiniCluster: {@code s3.rowsRead} and {@code s3.bytesDownloaded} for the progress
 * line, {@code s3.malformedRowsSkipped} ({@code input_format_allow_errors_num/ratio}) for the
 * summary. On a remote cluster the counters live in other JVMs: there the command asks the REST API
 * ({@link RestReadProgress}).
 *
 * <p>A counter keeps its last value after its task ends. Counted per task attempt, like every Flink
 * counter: a task restarted from a checkpoint counts again the rows it reads (or skips) again.
 */
public final class SourceCountersReporter implements MetricReporter {
    /** The name of this reporter in the Flink configuration. */
    public static final String NAME = "s3mergetree_source";

    /** The counters summed, by their name in the source's {@code s3} group. */
    static final Set<String> COUNTERS =
            Set.of(
                    S3SourceMetrics.ROWS_READ,
                    S3SourceMetrics.BYTES_DOWNLOADED,
                    S3SourceMetrics.ROWS_SKIPPED);

    /** Job id → live counter → its name. */
    private static final Map<String, Map<Counter, String>> LIVE = new ConcurrentHashMap<>();

    /** Job id → counter name → the sum of the counters whose task ended. */
    private static final Map<String, Map<String, LongAdder>> ENDED = new ConcurrentHashMap<>();

    /** Creates the reporter ({@code metrics.reporter.<name>.factory.class}). */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new SourceCountersReporter();
        }
    }

    /** Makes the embedded MiniCluster configured by {@code conf} report to this JVM. */
    static void install(Configuration conf) {
        conf.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
    }

    /**
     * The sum of counter {@code name} (one of {@link #COUNTERS}) over the sources of job {@code
     * jobId} so far; empty while the job has registered none.
     */
    static Optional<Long> total(String jobId, String name) {
        Map<Counter, String> live = LIVE.get(jobId);
        Map<String, LongAdder> ended = ENDED.get(jobId);
        if (live == null && ended == null) {
            return Optional.empty();
        }
        long n = ended == null || !ended.containsKey(name) ? 0 : ended.get(name).sum();
        if (live != null) {
            for (Map.Entry<Counter, String> e : live.entrySet()) {
                if (e.getValue().equals(name)) {
                    n += e.getKey().getCount();
                }
            }
        }
        return Optional.of(n);
    }

    /** The read progress of job {@code jobId} of this JVM's MiniCluster. */
    static ReadProgress progress(String jobId) {
        return new ReadProgress() {
            @Override
            public Optional<Totals> totals() {
                return total(jobId, S3SourceMetrics.ROWS_READ)
                        .map(
                                rows ->
                                        new Totals(
                                                rows,
                                                total(jobId, S3SourceMetrics.BYTES_DOWNLOADED)
                                                        .orElse(0L)));
            }

            @Override
            public void close() {}
        };
    }

    private static boolean tracked(Metric metric, String name, MetricGroup group) {
        return metric instanceof Counter
                && COUNTERS.contains(name)
                && group.getMetricIdentifier(name)
                        .endsWith("." + S3SourceMetrics.GROUP + "." + name);
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
        if (tracked(metric, name, group)) {
            LIVE.computeIfAbsent(jobId(group), k -> new ConcurrentHashMap<>())
                    .put((Counter) metric, name);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        if (tracked(metric, name, group)) {
            String job = jobId(group);
            Map<Counter, String> live = LIVE.get(job);
            if (live != null && live.remove(metric) != null) {
                ENDED.computeIfAbsent(job, k -> new ConcurrentHashMap<>())
                        .computeIfAbsent(name, k -> new LongAdder())
                        .add(((Counter) metric).getCount());
            }
        }
    }
}
