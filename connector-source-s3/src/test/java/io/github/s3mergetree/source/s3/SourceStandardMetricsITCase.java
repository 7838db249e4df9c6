package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Flink's standard source metrics as a Flink user reads them from a metric reporter: the reader's
 * {@code numBytesIn} is the bytes read from the S3 objects (here every object once: their sizes).
 * {@code numRecordsIn} Flink counts itself (SourceReaderBase, per record of the split reader): the
 * blocks decoded, also for a RowData source, whose rows are its {@code numRecordsOut} and the
 * {@code s3.rowsRead} counter.
 */
class SourceStandardMetricsITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    static final String BUCKET = "standard-metrics";
    static final int OBJECTS = 5;
    static final int ROWS = 300;
    static S3TestServer s3;
    static long objectBytes;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        for (int o = 0; o < OBJECTS; o++) {
            StringBuilder csv = new StringBuilder();
            for (int i = 0; i < ROWS; i++) {
                long id = (long) o * ROWS + i;
                csv.append(id).append(",\"name ").append(id).append("\"\n");
            }
            byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);
            objectBytes += bytes.length;
            s3.put(BUCKET, "in/part-" + o + ".csv", bytes);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    @Test
    void numBytesInIsTheBytesReadFromS3AndNumRecordsInTheBlocksDecoded() throws Exception {
        S3Source<RowData> source =
                S3Source.forRowData()
                        .forTable(
                                "CREATE TABLE t (id Int64, name String) ENGINE = MergeTree ORDER BY id")
                        .setFormat("CSV")
                        .setLocation("s3://" + BUCKET + "/in/*.csv")
                        .setEndpoint(s3.endpoint())
                        .setPathStyleAccess(true)
                        .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        long rows = 0;
        long sum = 0;
        JobClient job;
        try (CloseableIterator<Long> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "csv")
                        .map(r -> r.getLong(0))
                        .returns(Types.LONG)
                        .collectAsync()) {
            job = env.executeAsync("source standard metrics");
            while (it.hasNext()) {
                sum += it.next();
                rows++;
            }
        }
        job.getJobExecutionResult().get();
        long total = (long) OBJECTS * ROWS;
        assertThat(rows).isEqualTo(total);
        assertThat(sum).isEqualTo(total * (total - 1) / 2);

        String jobId = job.getJobID().toString();
        long downloaded = 0;
        long bytesIn = 0;
        long recordsIn = 0;
        long rowsRead = 0;
        int readers = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                REPORTER.getMetricsByGroup().entrySet()) {
            Map<String, String> vars = g.getKey().getAllVariables();
            if (!jobId.equals(vars.get("<job_id>"))) {
                continue;
            }
            Metric d = g.getValue().get(S3SourceMetrics.BYTES_DOWNLOADED);
            if (d instanceof Counter c) {
                downloaded += c.getCount();
            }
            if (g.getValue().get(S3SourceMetrics.ROWS_READ) instanceof Counter c) {
                rowsRead += c.getCount();
            }
            if (!vars.getOrDefault("<operator_name>", "").startsWith("Source: csv")) {
                continue;
            }
            // the source operator's own group (not its "s3" subgroup)
            if (g.getValue().get("numBytesIn") instanceof Counter c
                    && g.getValue().get("numRecordsIn") instanceof Counter r) {
                readers++;
                bytesIn += c.getCount();
                recordsIn += r.getCount();
            }
        }
        assertThat(readers).isEqualTo(2);
        assertThat(downloaded).isEqualTo(objectBytes);
        assertThat(bytesIn).as("numBytesIn").isEqualTo(objectBytes);
        // one block per object: 300 rows are less than a block
        assertThat(recordsIn).as("numRecordsIn: blocks").isEqualTo(OBJECTS);
        assertThat(rowsRead).isEqualTo(total);
    }
}
