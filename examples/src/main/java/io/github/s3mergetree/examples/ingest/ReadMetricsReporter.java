package io.github.s3mergetree.examples.ingest;

import io.github.s3mergetree.source.s3.s3.S3SourceMetrics;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter that keeps the S3 source's {@code s3.rowsRead} and {@code
 * s3.bytesDownloaded} counters of an embedded MiniCluster, so that the ingest command in the same
 * JVM can read them ({@link #install}). A counter whose task ended (or failed over) keeps counting
 * in the totals with its last value: rows read again after a restart count again, as Flink's own
 * {@code numRecordsIn} does.
 */
public final class ReadMetricsReporter implements MetricReporter {
    static final String NAME = "s3mergetree-progress";
    static final String RUN = "run";

    /** The reporters of this JVM by run id (one MiniCluster per ingest run). */
    private static final Map<String, ReadMetricsReporter> REPORTERS = new ConcurrentHashMap<>();

    private final String run;
    private final Map<Counter, String> live = new ConcurrentHashMap<>();
    private long retiredRows;
    private long retiredBytes;

    ReadMetricsReporter(String run) {
        this.run = run;
    }

    /**
     * Configures {@code conf} (of an embedded MiniCluster) to report to a reporter of this JVM;
     * returns the progress that reads it.
     */
    static ReadProgress install(Configuration conf) {
        String run = UUID.randomUUID().toString();
        String prefix = "metrics.reporter." + NAME + ".";
        conf.setString(prefix + "factory.class", Factory.class.getName());
        conf.setString(prefix + RUN, run);
        return new ReadProgress() {
            // kept after the MiniCluster closed its reporter at the end of the job
            private ReadMetricsReporter reporter;

            @Override
            public synchronized Optional<Totals> totals() {
                if (reporter == null) {
                    reporter = REPORTERS.get(run);
                }
                return reporter == null ? Optional.empty() : Optional.of(reporter.totals());
            }

            @Override
            public void close() {
                REPORTERS.remove(run);
            }
        };
    }

    synchronized ReadProgress.Totals totals() {
        long rows = retiredRows;
        long bytes = retiredBytes;
        for (Map.Entry<Counter, String> e : live.entrySet()) {
            if (e.getValue().equals(S3SourceMetrics.ROWS_READ)) {
                rows += e.getKey().getCount();
            } else {
                bytes += e.getKey().getCount();
            }
        }
        return new ReadProgress.Totals(rows, bytes);
    }

    private static boolean tracked(Metric metric, String name, MetricGroup group) {
        return metric instanceof Counter
                && (name.equals(S3SourceMetrics.ROWS_READ)
                        || name.equals(S3SourceMetrics.BYTES_DOWNLOADED))
                && group.getMetricIdentifier(name)
                        .endsWith("." + S3SourceMetrics.GROUP + "." + name);
    }

    @Override
    public void open(MetricConfig config) {
        REPORTERS.put(run, this);
    }

    @Override
    public void close() {
        REPORTERS.remove(run, this);
    }

    @Override
    public synchronized void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
        if (tracked(metric, name, group)) {
            live.put((Counter) metric, name);
        }
    }

    @Override
    public synchronized void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
        if (metric instanceof Counter c && live.remove(c) != null) {
            if (name.equals(S3SourceMetrics.ROWS_READ)) {
                retiredRows += c.getCount();
            } else {
                retiredBytes += c.getCount();
            }
        }
    }

    /**
     * Creates the reporter of a run (Flink finds it by {@code factory.class} among the factories of
     * {@code META-INF/services}).
     */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new ReadMetricsReporter(properties.getProperty(RUN, "unnamed"));
        }
    }
}
