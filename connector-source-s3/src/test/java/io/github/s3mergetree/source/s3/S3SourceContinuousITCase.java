package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
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
 * Continuous mode: objects that arrive while the job runs are discovered and read exactly once; an
 * object that keeps failing is parked after {@code s3queue_loading_retries} and the job goes on.
 */
class S3SourceContinuousITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    static final String BUCKET = "continuous";
    static final int ROWS = 1000;
    static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    static void putObject(String prefix, int i) throws Exception {
        s3.put(
                BUCKET,
                String.format("%s/obj-%04d.parquet", prefix, i),
                ParquetFiles.idsAndNames((long) i * ROWS, ROWS, CompressionCodecName.SNAPPY));
    }

    void run(DiscoveryMode mode, String prefix) throws Exception {
        int initial = 4;
        int later = 6;
        for (int i = 0; i < initial; i++) {
            putObject(prefix, i);
        }
        s3.put(BUCKET, prefix + "/obj-0002-corrupt.parquet", "this is not parquet".getBytes());
        S3Source<Block> source =
                S3Source.builder(new ParquetBlockFormat(TargetSchema.parse("id Int64")))
                        .setLocation("s3://" + BUCKET + "/" + prefix + "/*.parquet")
                        .setEndpoint(s3.endpoint())
                        .setPathStyleAccess(true)
                        .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                        .setContinuous(Duration.ofMillis(200), mode)
                        .setOption(S3SourceOptions.S3QUEUE_TRACKED_FILES_LIMIT, 100)
                        .setOption(S3SourceOptions.S3QUEUE_LOADING_RETRIES, 2)
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        long expectedRows = (long) (initial + later) * ROWS;
        long rows = 0;
        long sum = 0;
        long squares = 0;
        JobClient job;
        long parkedBefore = S3SourceFaultsITCase.sumOf(REPORTER, S3SourceMetrics.PARKED_OBJECTS);
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3-" + prefix)
                        .map(S3SourceITCase::blockChecksum)
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .collectAsync()) {
            job = env.executeAsync("continuous-" + prefix);
            int next = initial;
            long deadline = System.currentTimeMillis() + 120_000;
            while (rows < expectedRows && System.currentTimeMillis() < deadline) {
                if (next < initial + later && rows >= (long) (next - 2) * ROWS) {
                    putObject(prefix, next++); // arrives while the job runs, in key order
                }
                if (it.hasNext()) {
                    Tuple3<Long, Long, Long> t = it.next();
                    rows += t.f0;
                    sum += t.f1;
                    squares += t.f2;
                }
            }
            assertThat(rows).as("rows of the %d objects", initial + later).isEqualTo(expectedRows);
            // nothing is read twice: three more discoveries find nothing new, then one more
            // object arrives, and what is read until its rows are in must be exactly its rows
            long listings = S3SourceFaultsITCase.sumOf(REPORTER, S3SourceMetrics.LIST_REQUESTS);
            while (S3SourceFaultsITCase.sumOf(REPORTER, S3SourceMetrics.LIST_REQUESTS)
                    < listings + 3) {
                assertThat(System.currentTimeMillis()).as("3 more listings").isLessThan(deadline);
                LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
            }
            putObject(prefix, initial + later);
            while (rows < expectedRows + ROWS && System.currentTimeMillis() < deadline) {
                Tuple3<Long, Long, Long> t = it.next();
                rows += t.f0;
                sum += t.f1;
                squares += t.f2;
            }
            long parked =
                    S3SourceFaultsITCase.sumOf(REPORTER, S3SourceMetrics.PARKED_OBJECTS)
                            - parkedBefore;
            job.cancel().get();
            assertThat(Tuple3.of(rows, sum, squares))
                    .isEqualTo(S3SourceITCase.expected(0, expectedRows + ROWS));
            assertThat(parked).isEqualTo(1);
        }
    }

    @Test
    @org.junit.jupiter.api.Timeout(180)
    void orderedModeReadsNewObjectsOnce() throws Exception {
        run(DiscoveryMode.ORDERED, "ordered");
    }

    @Test
    @org.junit.jupiter.api.Timeout(180)
    void unorderedModeReadsNewObjectsOnce() throws Exception {
        run(DiscoveryMode.UNORDERED, "unordered");
    }
}
