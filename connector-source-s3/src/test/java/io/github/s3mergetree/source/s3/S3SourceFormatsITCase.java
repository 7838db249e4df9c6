package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.arrow.ArrowBlockFormat;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Formats from S3 in a MiniCluster: JSONEachRow objects in every compression, a large uncompressed
 * CSVWithNames object split into byte ranges aligned to line ends, and Arrow / ArrowStream objects
 * written by ClickHouse (chDB).
 */
class S3SourceFormatsITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final String BUCKET = "formats";
    static final int ROWS = 3000;
    static final String[] EXTENSIONS = {"", ".gz", ".zst", ".lz4", ".xz", ".bz2"};
    static S3TestServer s3;
    static int csvRows = 150_000;
    static final int ARROW_ROWS = 50_000;
    @TempDir static Path tmp;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        for (int e = 0; e < EXTENSIONS.length; e++) {
            StringBuilder b = new StringBuilder();
            for (int i = e * ROWS; i < (e + 1) * ROWS; i++) {
                b.append("{\"id\":").append(i).append(",\"name\":\"n").append(i).append("\"}\n");
            }
            String ext = EXTENSIONS[e];
            s3.put(
                    BUCKET,
                    "json/part-" + e + ".jsonl" + ext,
                    io.github.s3mergetree.source.s3.testutils.Compressors.compress(
                            ext.isEmpty() ? "" : ext.substring(1),
                            b.toString().getBytes(StandardCharsets.UTF_8)));
        }
        StringBuilder csv = new StringBuilder("name,id\n");
        for (int i = 0; i < csvRows; i++) {
            csv.append("\"row, ").append(i).append("\",").append(i).append('\n');
        }
        s3.put(BUCKET, "csv/big.csv", csv.toString().getBytes(StandardCharsets.UTF_8));
        StringBuilder tsv = new StringBuilder("name\tid\n");
        for (int i = 0; i < csvRows; i++) {
            tsv.append("row\\t")
                    .append(i)
                    .append(i % 7 == 0 ? "\\\\" : "")
                    .append('\t')
                    .append(i)
                    .append('\n');
        }
        s3.put(BUCKET, "tsv/big.tsv", tsv.toString().getBytes(StandardCharsets.UTF_8));
        // Arrow objects written by ClickHouse (chDB): ids [i * ARROW_ROWS, (i + 1) * ARROW_ROWS)
        try (ChDb chdb = ChDb.start(tmp.resolve("chdb"))) {
            for (int i = 0; i < 6; i++) {
                String format = i % 2 == 0 ? "Arrow" : "ArrowStream";
                String key = "arrow/part-" + i + (i % 2 == 0 ? ".arrow" : ".arrows");
                chdb.execute(
                        "INSERT INTO FUNCTION file('o.bin', '"
                                + format
                                + "') SELECT toInt64(number + "
                                + (long) i * ARROW_ROWS
                                + ") AS id, toLowCardinality(toString(number % 10)) AS name"
                                + " FROM numbers("
                                + ARROW_ROWS
                                + ") SETTINGS engine_file_truncate_on_insert = 1,"
                                + " max_block_size = 7000,"
                                + " output_format_arrow_low_cardinality_as_dictionary = 1");
                s3.put(BUCKET, key, Files.readAllBytes(chdb.userFilesDir().resolve("o.bin")));
            }
        }
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    static Tuple3<Long, Long, Long> run(S3Source<Block> source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        long rows = 0;
        long sum = 0;
        long sq = 0;
        try (CloseableIterator<Tuple3<Long, Long, Long>> it =
                env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                        .map(S3SourceITCase::blockChecksum)
                        .returns(Types.TUPLE(Types.LONG, Types.LONG, Types.LONG))
                        .executeAndCollect()) {
            while (it.hasNext()) {
                Tuple3<Long, Long, Long> t = it.next();
                rows += t.f0;
                sum += t.f1;
                sq += t.f2;
            }
        }
        return Tuple3.of(rows, sum, sq);
    }

    static S3SourceBuilder<Block> builder(S3ObjectFormat<Block> format, String location) {
        return S3Source.builder(format)
                .setLocation(location)
                .setEndpoint(s3.endpoint())
                .setPathStyleAccess(true)
                .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY);
    }

    @Test
    void jsonEachRowInEveryCompression() throws Exception {
        TargetSchema schema = TargetSchema.parse("id Int64, name String");
        S3Source<Block> source =
                builder(
                                new TextBlockFormat(TextBlockFormat.Kind.JSON_EACH_ROW, schema),
                                "s3://" + BUCKET + "/json/part-*.jsonl*")
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 1000)
                        .build();
        assertThat(run(source))
                .isEqualTo(S3SourceITCase.expected(0, (long) EXTENSIONS.length * ROWS));
    }

    @Test
    void arrowFileAndStreamObjectsWrittenByClickHouse() throws Exception {
        TargetSchema schema = TargetSchema.parse("id Int64, name LowCardinality(String)");
        S3Source<Block> files =
                builder(
                                new ArrowBlockFormat(ArrowBlockFormat.Kind.ARROW, schema),
                                "s3://" + BUCKET + "/arrow/*.arrow")
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 4000)
                        .build();
        S3Source<Block> streams =
                builder(
                                new ArrowBlockFormat(
                                        ArrowBlockFormat.Kind.of("ArrowStream"), schema),
                                "s3://" + BUCKET + "/arrow/*.arrows")
                        .build();
        Tuple3<Long, Long, Long> f = run(files);
        Tuple3<Long, Long, Long> s = run(streams);
        Tuple3<Long, Long, Long> all = S3SourceITCase.expected(0, 6L * ARROW_ROWS);
        assertThat(Tuple3.of(f.f0 + s.f0, f.f1 + s.f1, f.f2 + s.f2)).isEqualTo(all);
        assertThat(f.f0).isEqualTo(3L * ARROW_ROWS);
    }

    @Test
    void largeCsvIsReadWholeAndLargeTsvInRowAlignedRanges() throws Exception {
        TargetSchema schema = TargetSchema.parse("id Int64, name String");
        TextBlockFormat csv = new TextBlockFormat(TextBlockFormat.Kind.CSV_WITH_NAMES, schema);
        assertThat(csv.isSplittable("csv/big.csv"))
                .as("a range of a CSV object could start inside a quoted field")
                .isFalse();
        S3Source<Block> source =
                builder(csv, "s3://" + BUCKET + "/csv/big.csv")
                        .setOption(S3SourceOptions.SPLIT_SIZE, 300_000L)
                        .setOption(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 64L * 1024)
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 10_000)
                        .build();
        assertThat(run(source)).isEqualTo(S3SourceITCase.expected(0, csvRows));
        TextBlockFormat tsv =
                new TextBlockFormat(TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES, schema);
        assertThat(tsv.isSplittable("tsv/big.tsv")).isTrue();
        S3Source<Block> ranges =
                builder(tsv, "s3://" + BUCKET + "/tsv/big.tsv")
                        .setOption(S3SourceOptions.SPLIT_SIZE, 300_000L)
                        .setOption(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 64L * 1024)
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 10_000)
                        .build();
        assertThat(run(ranges)).isEqualTo(S3SourceITCase.expected(0, csvRows));
    }
}
