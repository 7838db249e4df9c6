package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive-style partition directories ({@code .../c=north/n=5/...}) in a MiniCluster job, from S3
 * (S3Proxy) and from {@code file://}: the rows equal ClickHouse's (chDB's {@code s3()} and {@code
 * file()}) over the same objects with the same structure, with {@code use_hive_partitioning} on
 * (its default: the path's values, converted to the columns' types; a column both in the file and
 * the path takes the path's) and off (the columns read from the objects or their defaults).
 */
class HivePartitioningITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String BUCKET = "hive";

    /** A String column in the file and the path, strings, integers, dates, bools, Nullable. */
    static final String STRUCTURE =
            "id UInt64, v String, c String, n Int32, nn Nullable(UInt8), d Date, b Bool,"
                    + " s Nullable(String), u LowCardinality(String), t DateTime64(3)";

    /** The partition directories of each object (the same depth: one glob matches all). */
    static final String[] DIRS = {
        "c=north/n=5/nn=7/d=2024-01-02/b=true/s=x/u=a%20b/t=2024-01-02 03:04:05.5",
        "c=south/n=-3/nn=300/d=2024-1-3/b=0/s=__HIVE_DEFAULT_PARTITION__/u=%C3%A9t%C3%A9/t=1700000000",
        "c=a=b/n=+7/nn=0/d=20240104/b=yes/s=/u=x y/t=2024-01-04T05:06:07",
        "c=\"q\"/n=007/nn=255/d=2024-01-05/b=off/s=é/u=K=V/t=2024-01-05"
    };

    static final String GLOB = "t/*/*/*/*/*/*/*/*/part.parquet";
    static S3TestServer s3;
    @TempDir static Path tmp;
    static Path local;
    static ChDb chdb;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        chdb = ChDb.start(tmp.resolve("chdb"));
        local = tmp.resolve("local");
        for (int i = 0; i < DIRS.length; i++) {
            // the file has id, v and c (c also in the path: the path's value wins)
            chdb.execute(
                    "INSERT INTO FUNCTION file('o.parquet', 'Parquet') SELECT number + "
                            + i * 100
                            + " AS id, concat('v', toString(number)) AS v, 'in-file' AS c"
                            + " FROM numbers(50) SETTINGS engine_file_truncate_on_insert = 1");
            byte[] bytes = Files.readAllBytes(chdb.userFilesDir().resolve("o.parquet"));
            String key = "t/" + DIRS[i] + "/part.parquet";
            s3.put(BUCKET, key, bytes);
            Path f = local.resolve(key);
            Files.createDirectories(f.getParent());
            Files.write(f, bytes);
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (chdb != null) {
            chdb.close();
        }
        s3.close();
    }

    @Test
    void s3ObjectsTakeThePathsValuesAsClickHouseDoes() throws Exception {
        byte[] theirs = clickHouse(s3Function(), true);
        assertThat(theirs).isNotEmpty();
        assertThat(ours(s3Source(true))).isEqualTo(theirs);
    }

    @Test
    void localFilesTakeThePathsValuesAsClickHouseDoes() throws Exception {
        byte[] theirs = clickHouse(fileFunction(), true);
        assertThat(ours(fileSource(true))).isEqualTo(theirs);
        // and the same rows as from S3
        assertThat(theirs).isEqualTo(clickHouse(s3Function(), true));
    }

    @Test
    void withTheSettingOffTheColumnsAreReadFromTheObjects() throws Exception {
        byte[] theirs = clickHouse(s3Function(), false);
        assertThat(ours(s3Source(false))).isEqualTo(theirs);
        assertThat(ours(fileSource(false))).isEqualTo(clickHouse(fileFunction(), false));
        // c from the file, the others the types' defaults
        assertThat(chdb.rows(selectFrom(s3Function(), false, "DISTINCT c, n, s")))
                .containsExactly(new String[] {"in-file", "0", null});
    }

    private static String s3Function() {
        return "s3('"
                + s3.endpoint()
                + "/"
                + BUCKET
                + "/"
                + GLOB
                + "', '"
                + S3TestServer.ACCESS_KEY
                + "', '"
                + S3TestServer.SECRET_KEY
                + "', 'Parquet', '"
                + STRUCTURE
                + "')";
    }

    private static String fileFunction() {
        return "file('" + local.resolve(GLOB) + "', 'Parquet', '" + STRUCTURE + "')";
    }

    private static String selectFrom(String function, boolean hive, String what) {
        return "SELECT "
                + what
                + " FROM "
                + function
                + " SETTINGS session_timezone = 'UTC', use_hive_partitioning = "
                + (hive ? 1 : 0);
    }

    /** chDB's rows, ordered by id, as RowBinary. */
    private static byte[] clickHouse(String function, boolean hive) throws Exception {
        Path out = tmp.resolve("ch-" + System.nanoTime() + ".bin");
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + out
                        + "', 'RowBinary') SELECT * FROM "
                        + function
                        + " ORDER BY id SETTINGS session_timezone = 'UTC', use_hive_partitioning = "
                        + (hive ? 1 : 0));
        return Files.exists(out) ? Files.readAllBytes(out) : new byte[0];
    }

    private static S3Source<Block> s3Source(boolean hive) {
        return S3Source.builder()
                .setSchema(TargetSchema.parse(STRUCTURE))
                .setFormat("Parquet")
                .setLocation("s3://" + BUCKET + "/" + GLOB)
                .setEndpoint(URI.create(s3.endpoint().toString()))
                .setPathStyleAccess(true)
                .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY)
                .setOption(S3SourceOptions.USE_HIVE_PARTITIONING, hive)
                .build();
    }

    private static S3Source<Block> fileSource(boolean hive) {
        return S3Source.builder()
                .setSchema(TargetSchema.parse(STRUCTURE))
                .setFormat("Parquet")
                .setLocation("file://" + local.resolve(GLOB))
                .setOption(S3SourceOptions.USE_HIVE_PARTITIONING, hive)
                .build();
    }

    /** Our rows, ordered by id (the first column, UInt64 little-endian), as RowBinary. */
    private static byte[] ours(S3Source<Block> source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        List<byte[]> rows = new ArrayList<>();
        try (CloseableIterator<byte[]> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .flatMap(HivePartitioningITCase::rowBinaryRows)
                        .returns(
                                org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo
                                        .BYTE_PRIMITIVE_ARRAY_TYPE_INFO)
                        .executeAndCollect()) {
            it.forEachRemaining(rows::add);
        }
        rows.sort(Comparator.comparingLong(HivePartitioningITCase::id));
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] r : rows) {
            all.write(r);
        }
        return all.toByteArray();
    }

    private static void rowBinaryRows(Block b, Collector<byte[]> out) {
        for (int r = 0; r < b.rows(); r++) {
            ByteArraySink row = new ByteArraySink();
            for (int c = 0; c < b.columnCount(); c++) {
                ValueSerde.write(b.types().get(c), b.column(c), r, row);
            }
            out.collect(row.toByteArray());
        }
    }

    private static long id(byte[] row) {
        return java.nio.ByteBuffer.wrap(row, 0, 8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getLong();
    }
}
