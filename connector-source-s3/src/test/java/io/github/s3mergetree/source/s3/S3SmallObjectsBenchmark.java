package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.FileUtils;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * 1,000 small Parquet objects on S3Proxy (loopback): the source in a local Flink job (parallelism
 * 2) beside chDB's {@code INSERT INTO <Null table> SELECT * FROM s3(...)} over the same objects.
 * Not part of the default test run: {@code mvn -pl connector-source-s3 test
 * -Dtest=S3SmallObjectsBenchmark -Ds3source.benchmark=true}.
 */
@EnabledIfSystemProperty(named = "s3source.benchmark", matches = "true")
class S3SmallObjectsBenchmark {
    @org.junit.jupiter.api.extension.RegisterExtension
    static final org.apache.flink.test.junit5.MiniClusterExtension MINI_CLUSTER =
            new org.apache.flink.test.junit5.MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final int OBJECTS = Integer.getInteger("s3source.benchmark.objects", 1000);
    static final int ROWS = 10_000;
    static final int ROUNDS = 5;

    @Test
    void smallObjects() throws Exception {
        Path dir = Files.createTempDirectory("s3small");
        try (S3TestServer s3 = new S3TestServer(dir.resolve("store"))) {
            s3.createBucket("bench");
            long bytes = 0;
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < OBJECTS; i++) {
                byte[] b =
                        ParquetFiles.idsAndNames(
                                (long) i * ROWS, ROWS, CompressionCodecName.SNAPPY);
                bytes += b.length;
                String key = String.format("small/part-%04d.parquet", i);
                keys.add(key);
                s3.put("bench", key, b); // PUT: S3Proxy stores the MD5, GETs do not rehash
            }
            long rows = (long) OBJECTS * ROWS;
            System.out.printf("%d objects, %.1f MB, %d rows%n", OBJECTS, bytes / 1e6, rows);
            String url = s3.endpoint() + "/bench/small/*.parquet";
            try (ChDb chdb = ChDb.start(dir.resolve("chdb"))) {
                chdb.execute("CREATE TABLE sink (id Int64, name Nullable(String)) ENGINE = Null");
                double[] chdbTimes = new double[ROUNDS];
                double[] srcTimes = new double[ROUNDS];
                for (int round = 0; round < ROUNDS; round++) {
                    long t0 = System.nanoTime();
                    chdb.execute(
                            "INSERT INTO sink SELECT id, name FROM s3('"
                                    + url
                                    + "', '"
                                    + S3TestServer.ACCESS_KEY
                                    + "', '"
                                    + S3TestServer.SECRET_KEY
                                    + "', 'Parquet')");
                    double chdbSec = (System.nanoTime() - t0) / 1e9;
                    long t1 = System.nanoTime();
                    long[] got = runSource(s3);
                    double srcWall = (System.nanoTime() - t1) / 1e9;
                    double srcSec = got[1] / 1e3;
                    if (got[0] != rows) {
                        throw new AssertionError(
                                "source read " + got[0] + " rows, expected " + rows);
                    }
                    System.out.printf(
                            "round %d: chDB s3() -> Null %.2f s (%.0f MB/s, %.1f M rows/s) | source (Flink job, p=2) %.2f s job runtime (%.0f MB/s, %.1f M rows/s), %.2f s with submission%n",
                            round,
                            chdbSec,
                            bytes / 1e6 / chdbSec,
                            rows / 1e6 / chdbSec,
                            srcSec,
                            bytes / 1e6 / srcSec,
                            rows / 1e6 / srcSec,
                            srcWall);
                    chdbTimes[round] = chdbSec;
                    srcTimes[round] = srcSec;
                }
                java.util.Arrays.sort(chdbTimes);
                java.util.Arrays.sort(srcTimes);
                System.out.printf(
                        "median of %d: chDB %.2f s (%.0f MB/s) | source %.2f s (%.0f MB/s) | source/chDB speed %.2f%n",
                        ROUNDS,
                        chdbTimes[ROUNDS / 2],
                        bytes / 1e6 / chdbTimes[ROUNDS / 2],
                        srcTimes[ROUNDS / 2],
                        bytes / 1e6 / srcTimes[ROUNDS / 2],
                        chdbTimes[ROUNDS / 2] / srcTimes[ROUNDS / 2]);
                System.out.println("chDB " + chdb.version());
            }
        } finally {
            FileUtils.deleteDirectory(dir.toFile());
        }
    }

    /** (rows, net runtime ms) of a job reading every object. */
    static long[] runSource(S3TestServer s3) throws Exception {
        S3Source<Block> source =
                S3Source.builder(
                                new ParquetBlockFormat(
                                        TargetSchema.parse("id Int64, name Nullable(String)")))
                        .setLocation("s3://bench/small/*.parquet")
                        .setEndpoint(s3.endpoint())
                        .setPathStyleAccess(true)
                        .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                        .build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        long rows = 0;
        org.apache.flink.core.execution.JobClient job;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(b -> Tuple3.of((long) b.rows(), 0L, 0L))
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .collectAsync()) {
            job = env.executeAsync("small objects");
            while (it.hasNext()) {
                rows += it.next().f0;
            }
        }
        long ms = job.getJobExecutionResult().get().getNetRuntime();
        return new long[] {rows, ms};
    }
}
