package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.enumerator.FailedObjectsReport;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.FailedObjects;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;

/**
 * Bounded sources with {@code s3.failed-objects = PARK}: an object that cannot be read is parked
 * with its error, position and rows delivered, the job finishes with every other row exactly once,
 * and the report lists it; a new source given the report's splits ({@code setSplits}) reads exactly
 * the missing rows — the same version from its position, a new version from the start (no row was
 * delivered) or from the first undelivered row. A task failure after a park (restore from a
 * checkpoint) neither loses nor repeats the parked object in the report.
 */
class S3SourceParkingITCase {
    @org.junit.jupiter.api.extension.RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String BUCKET = "parking";
    static final int ROWS = 1000;
    static S3TestServer s3;

    @TempDir Path tmp;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    static byte[] parquet(long from, long rows) throws Exception {
        return ParquetFiles.idsAndNames(from, rows, CompressionCodecName.SNAPPY);
    }

    private static <T> S3SourceBuilder<T> builder(S3ObjectFormat<T> format, String glob) {
        return S3Source.builder(format)
                .setLocation("s3://" + BUCKET + "/" + glob)
                .setEndpoint(s3.endpoint())
                .setPathStyleAccess(true)
                .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                .setOption(S3SourceOptions.FAILED_OBJECTS, FailedObjects.PARK)
                .setOption(S3SourceOptions.S3QUEUE_LOADING_RETRIES, 1)
                .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 500);
    }

    /** Rows, sum and sum of squares of the ids the source emits. */
    static Tuple3<Long, Long, Long> run(S3Source<Block> source, boolean failOnce) throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, failOnce ? "fixed-delay" : "none");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(100);
        FAILED.set(!failOnce);
        SEEN.set(0);
        long rows = 0;
        long sum = 0;
        long squares = 0;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(
                                b -> {
                                    Tuple3<Long, Long, Long> t = S3SourceITCase.blockChecksum(b);
                                    SEEN.addAndGet(t.f0);
                                    if (SEEN.get() > 2 * ROWS && !FAILED.getAndSet(true)) {
                                        throw new IllegalStateException("injected task failure");
                                    }
                                    return t;
                                })
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .executeAndCollect()) {
            while (it.hasNext()) {
                Tuple3<Long, Long, Long> t = it.next();
                rows += t.f0;
                sum += t.f1;
                squares += t.f2;
            }
        }
        return Tuple3.of(rows, sum, squares);
    }

    static final AtomicBoolean FAILED = new AtomicBoolean();
    static final java.util.concurrent.atomic.AtomicLong SEEN =
            new java.util.concurrent.atomic.AtomicLong();

    private static Tuple3<Long, Long, Long> plus(
            Tuple3<Long, Long, Long> a, Tuple3<Long, Long, Long> b) {
        return Tuple3.of(a.f0 + b.f0, a.f1 + b.f1, a.f2 + b.f2);
    }

    private static String etag(String key) {
        HeadObjectResponse h = s3.client().headObject(b -> b.bucket(BUCKET).key(key));
        return io.github.s3mergetree.objectstore.ObjectSummary.normalizeEtag(h.eTag());
    }

    /**
     * Four good objects and a truncated one, with a task failure and restore in the middle: the job
     * finishes with the 4,000 good rows once, the report lists the truncated object (no rows
     * delivered); after it is replaced, a source of the report's split reads its 1,000 rows.
     */
    @Test
    void truncatedObjectIsParkedAndItsNewVersionReadFromTheStart() throws Exception {
        for (int i = 0; i < 4; i++) {
            s3.put(BUCKET, "p/good-" + i + ".parquet", parquet((long) i * ROWS, ROWS));
        }
        byte[] whole = parquet(4L * ROWS, ROWS);
        s3.put(BUCKET, "p/broken.parquet", Arrays.copyOf(whole, whole.length / 2));
        String report = tmp.resolve("report.json").toString();
        ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse("id Int64"));
        Tuple3<Long, Long, Long> first =
                run(
                        builder(format, "p/*.parquet")
                                .setOption(S3SourceOptions.FAILED_OBJECTS_REPORT, report)
                                .build(),
                        true);
        assertThat(FAILED).as("the injected failure happened").isTrue();
        assertThat(first).isEqualTo(S3SourceITCase.expected(0, 4L * ROWS));
        List<S3ObjectSplit> failed = FailedObjectsReport.read(report);
        assertThat(failed).hasSize(1);
        S3ObjectSplit f = failed.get(0);
        assertThat(f.key()).isEqualTo("p/broken.parquet");
        assertThat(f.rowsRead()).isZero();
        assertThat(f.offset()).isEqualTo(S3ObjectSplit.NOT_STARTED);
        assertThat(f.failure().orElseThrow()).contains("broken.parquet");

        // fixed: no row was delivered, so the new version is read from the start
        s3.put(BUCKET, "p/broken.parquet", whole);
        S3ObjectSplit again =
                S3ObjectSplit.of(f.key(), etag(f.key()), whole.length, 0, whole.length);
        String report2 = tmp.resolve("report2.json").toString();
        Tuple3<Long, Long, Long> second =
                run(
                        builder(format, "p/*.parquet")
                                .setSplits(List.of(again))
                                .setOption(S3SourceOptions.FAILED_OBJECTS_REPORT, report2)
                                .build(),
                        false);
        assertThat(plus(first, second)).isEqualTo(S3SourceITCase.expected(0, 5L * ROWS));
        assertThat(FailedObjectsReport.read(report2)).isEmpty();
    }

    /**
     * A CSV object with a bad value on line 1,701: the rows of the blocks before it (1,500) are
     * delivered and counted in the report; resumed unchanged from the report, it fails at the same
     * line without delivering a row twice; its fixed version is resumed from row 1,500 on.
     */
    @Test
    void partlyReadObjectResumesFromItsFirstUndeliveredRow() throws Exception {
        int lines = 3000;
        int badLine = 1701;
        StringBuilder bad = new StringBuilder();
        StringBuilder good = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            good.append(10_000 + i).append('\n');
            bad.append(i == badLine ? "oops" : String.valueOf(10_000 + i)).append('\n');
        }
        s3.put(BUCKET, "c/data.csv", bad.toString().getBytes(StandardCharsets.UTF_8));
        TextBlockFormat csv =
                new TextBlockFormat(TextBlockFormat.Kind.of("CSV"), TargetSchema.parse("id Int64"));
        String report = tmp.resolve("csv.json").toString();
        Tuple3<Long, Long, Long> first =
                run(
                        builder(csv, "c/*.csv")
                                .setOption(S3SourceOptions.FAILED_OBJECTS_REPORT, report)
                                .build(),
                        false);
        List<S3ObjectSplit> failed = FailedObjectsReport.read(report);
        assertThat(failed).hasSize(1);
        S3ObjectSplit f = failed.get(0);
        long delivered = f.rowsRead();
        assertThat(delivered).isEqualTo(1500); // three blocks of 500 before the bad one
        assertThat(first).isEqualTo(S3SourceITCase.expected(10_001, 10_001 + delivered));
        assertThat(f.failure().orElseThrow()).contains("data.csv");

        // unchanged: resumed from its position, it fails again there and delivers nothing twice
        String report2 = tmp.resolve("csv2.json").toString();
        Tuple3<Long, Long, Long> again =
                run(
                        builder(csv, "c/*.csv")
                                .setSplits(List.of(f.withoutFailure()))
                                .setOption(S3SourceOptions.FAILED_OBJECTS_REPORT, report2)
                                .build(),
                        false);
        assertThat(again.f0).isZero();
        assertThat(FailedObjectsReport.read(report2))
                .singleElement()
                .satisfies(s -> assertThat(s.rowsRead()).isEqualTo(delivered));

        // fixed (a new version): read from the start, its first 1,500 rows skipped
        s3.put(BUCKET, "c/data.csv", good.toString().getBytes(StandardCharsets.UTF_8));
        long size = good.length();
        S3ObjectSplit resume =
                new S3ObjectSplit(
                        f.key(),
                        etag(f.key()),
                        size,
                        0,
                        size,
                        S3ObjectSplit.NOT_STARTED,
                        0,
                        delivered,
                        null);
        String report3 = tmp.resolve("csv3.json").toString();
        Tuple3<Long, Long, Long> rest =
                run(
                        builder(csv, "c/*.csv")
                                .setSplits(List.of(resume))
                                .setOption(S3SourceOptions.FAILED_OBJECTS_REPORT, report3)
                                .build(),
                        false);
        assertThat(plus(first, rest)).isEqualTo(S3SourceITCase.expected(10_001, 10_001 + lines));
        assertThat(FailedObjectsReport.read(report3)).isEmpty();
    }
}
