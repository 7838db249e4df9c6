package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.parquet.ParquetBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Bounded reads of real objects from an S3 API server on loopback, in a Flink MiniCluster. */
class S3SourceITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String BUCKET = "itcase";
    static final int DIRS = 10;
    static final int FILES_PER_DIR = 210;
    static final int ROWS_PER_FILE = 20;
    static S3TestServer s3;

    static java.nio.file.Path baseDir;

    @BeforeAll
    static void start() throws Exception {
        baseDir = java.nio.file.Files.createTempDirectory("s3source-itcase");
        s3 = new S3TestServer(baseDir);
        s3.createBucket(BUCKET);
        List<String> keys = new ArrayList<>();
        for (int d = 0; d < DIRS; d++) {
            for (int f = 0; f < FILES_PER_DIR; f++) {
                keys.add(String.format("many/%d/part-%04d.parquet", d, f));
            }
        }
        for (String k : keys) {
            s3.writeDirect(BUCKET, k, body(k));
        }
        // objects the glob must not match
        s3.put(BUCKET, "many/1/readme.txt", "not parquet".getBytes());
        s3.put(BUCKET, "many/10/part-0000.parquet", "not parquet".getBytes());
        s3.put(BUCKET, "other/part-0000.parquet", "not parquet".getBytes());
    }

    static byte[] body(String k) {
        int d = Integer.parseInt(k.substring(5, k.indexOf('/', 5)));
        int f = Integer.parseInt(k.substring(k.lastIndexOf('-') + 1, k.lastIndexOf('.')));
        long first = ((long) d * FILES_PER_DIR + f) * ROWS_PER_FILE;
        try {
            return ParquetFiles.idsAndNames(first, ROWS_PER_FILE, CompressionCodecName.SNAPPY);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (s3 != null) {
            s3.close();
        }
        org.apache.flink.util.FileUtils.deleteDirectory(baseDir.toFile());
    }

    static S3SourceBuilder<Block> builder(String location, String schema) {
        return S3Source.builder(new ParquetBlockFormat(TargetSchema.parse(schema)))
                .setLocation(location)
                .setEndpoint(s3.endpoint())
                .setPathStyleAccess(true)
                .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY);
    }

    /** (rows, sum of ids, sum of squares of ids) over all emitted blocks. */
    static Tuple3<Long, Long, Long> checksum(S3Source<Block> source, int parallelism)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(parallelism);
        long rows = 0;
        long sum = 0;
        long squares = 0;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(S3SourceITCase::blockChecksum)
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

    static Tuple3<Long, Long, Long> blockChecksum(Block b) {
        LongColumn ids = (LongColumn) b.column(0);
        long sum = 0;
        long sq = 0;
        for (int i = 0; i < ids.size(); i++) {
            sum += ids.get(i);
            sq += ids.get(i) * ids.get(i);
        }
        return Tuple3.of((long) b.rows(), sum, sq);
    }

    static Tuple3<Long, Long, Long> expected(long from, long to) {
        long sum = 0;
        long sq = 0;
        for (long i = from; i < to; i++) {
            sum += i;
            sq += i * i;
        }
        return Tuple3.of(to - from, sum, sq);
    }

    @Test
    void readsTwoThousandObjectsMatchedByAGlob() throws Exception {
        S3Source<Block> source =
                builder(
                                "s3://" + BUCKET + "/many/{0..9}/part-*.parquet",
                                "id Int64, name Nullable(String)")
                        .setOption(S3SourceOptions.S3_LIST_OBJECT_KEYS_SIZE, 100)
                        .build();
        assertThat(source.pattern().listPrefixes()).hasSize(10);
        long total = (long) DIRS * FILES_PER_DIR * ROWS_PER_FILE;
        assertThat(checksum(source, 2)).isEqualTo(expected(0, total));
    }

    @Test
    void alternativesAndQuestionMarkSelectASubset() throws Exception {
        // dirs 3 and 7, files 0100..0109
        S3Source<Block> source =
                builder("s3://" + BUCKET + "/many/{3,7}/part-010?.parquet", "id Int64").build();
        long rows = 0;
        Tuple3<Long, Long, Long> got = checksum(source, 2);
        long sum = 0;
        long sq = 0;
        for (int d : new int[] {3, 7}) {
            for (int f = 100; f < 110; f++) {
                long first = ((long) d * FILES_PER_DIR + f) * ROWS_PER_FILE;
                Tuple3<Long, Long, Long> e = expected(first, first + ROWS_PER_FILE);
                rows += e.f0;
                sum += e.f1;
                sq += e.f2;
            }
        }
        assertThat(got).isEqualTo(Tuple3.of(rows, sum, sq));
    }
}
