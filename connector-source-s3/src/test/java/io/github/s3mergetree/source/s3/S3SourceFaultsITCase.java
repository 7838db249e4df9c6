package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Reads through a proxy that injects 503 SlowDown, connection resets and truncated bodies: the row
 * counts stay exact and the retries show in the source's metrics. Includes a large object split by
 * row groups and read by parallel ranged GETs.
 */
class S3SourceFaultsITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    static final String BUCKET = "faults";
    static final int SMALL = 60;
    static final int SMALL_ROWS = 500;
    static final long LARGE_ROWS = 600_000;
    static S3TestServer s3;
    static FaultInjectingProxy proxy;
    static long largeSize;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        for (int i = 0; i < SMALL; i++) {
            s3.put(
                    BUCKET,
                    String.format("in/small-%03d.parquet", i),
                    ParquetFiles.idsAndNames(
                            (long) i * SMALL_ROWS, SMALL_ROWS, CompressionCodecName.SNAPPY));
        }
        long first = (long) SMALL * SMALL_ROWS;
        byte[] large =
                ParquetFiles.write(
                        "message m { required int64 id; optional binary name (STRING); }",
                        LARGE_ROWS,
                        CompressionCodecName.ZSTD,
                        512 * 1024,
                        (g, i) -> {
                            g.add("id", first + i);
                            g.add(
                                    "name",
                                    "row "
                                            + (first + i)
                                            + " "
                                            + ((first + i) * 2654435761L % 1_000_003));
                        });
        largeSize = large.length;
        s3.put(BUCKET, "in/large.parquet", large);
        proxy = new FaultInjectingProxy(s3.port(), 9, 13, 5);
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        s3.close();
    }

    @Test
    void exactRowsDespiteSlowDownsResetsAndTruncatedBodies() throws Exception {
        S3Source<Block> source =
                S3Source.builder(
                                new ParquetBlockFormat(TargetSchema.parse("id Int64, name String")))
                        .setLocation("s3://" + BUCKET + "/in/*.parquet")
                        .setEndpoint(proxy.endpoint())
                        .setPathStyleAccess(true)
                        .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                        .setOption(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 128L * 1024)
                        .setOption(S3SourceOptions.MAX_DOWNLOAD_THREADS, 4)
                        .setOption(S3SourceOptions.SPLIT_SIZE, largeSize / 3 + 1)
                        .setOption(S3SourceOptions.S3_RETRY_ATTEMPTS, 30)
                        .setOption(S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS, 1L)
                        .setOption(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS, 20L)
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 8192)
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        long rows = 0;
        long sum = 0;
        long squares = 0;
        JobClient job;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(S3SourceITCase::blockChecksum)
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .collectAsync()) {
            job = env.executeAsync("faults");
            while (it.hasNext()) {
                Tuple3<Long, Long, Long> t = it.next();
                rows += t.f0;
                sum += t.f1;
                squares += t.f2;
            }
        }
        job.getJobExecutionResult().get();
        long total = (long) SMALL * SMALL_ROWS + LARGE_ROWS;
        assertThat(Tuple3.of(rows, sum, squares)).isEqualTo(S3SourceITCase.expected(0, total));

        assertThat(proxy.slowDowns.get()).isPositive();
        assertThat(proxy.resets.get()).isPositive();
        assertThat(proxy.truncations.get()).isPositive();
        long retries = sum(job, S3SourceMetrics.RETRIES);
        long throttled = sum(job, S3SourceMetrics.THROTTLED);
        long gets = sum(job, S3SourceMetrics.GET_REQUESTS);
        long bytes = sum(job, S3SourceMetrics.BYTES_DOWNLOADED);
        long listed = sum(job, S3SourceMetrics.OBJECTS_LISTED);
        assertThat(listed).isEqualTo(SMALL + 1);
        assertThat(retries).isGreaterThanOrEqualTo(proxy.faults());
        assertThat(throttled).isEqualTo(proxy.slowDowns.get());
        assertThat(gets).isGreaterThan(largeSize / (128 * 1024));
        assertThat(bytes).isGreaterThanOrEqualTo(largeSize);
        // the rows decoded, not the blocks Flink's numRecordsOut counts
        assertThat(sum(job, S3SourceMetrics.ROWS_READ)).isEqualTo(total);
    }

    static long sum(JobClient job, String metric) {
        return sumOf(REPORTER, metric);
    }

    /** The sum of the counters named {@code metric} in the source's {@code s3} metric groups. */
    static long sumOf(InMemoryReporter reporter, String metric) {
        long total = 0;
        for (Map.Entry<MetricGroup, Map<String, Metric>> g :
                reporter.getMetricsByGroup().entrySet()) {
            Metric m = g.getValue().get(metric);
            if (m instanceof Counter c
                    && g.getKey()
                            .getMetricIdentifier(metric)
                            .endsWith("." + S3SourceMetrics.GROUP + "." + metric)) {
                total += c.getCount();
            }
        }
        return total;
    }
}
