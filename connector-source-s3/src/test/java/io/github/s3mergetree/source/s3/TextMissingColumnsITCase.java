package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.MissingColumns;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.text.TextBlockFormat;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.nio.charset.StandardCharsets;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.testutils.logging.LoggerAuditingExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.event.Level;

/**
 * A target column that text objects on S3 do not have ({@code Scor} for {@code Score}), read by the
 * source in a MiniCluster: every row still arrives (with the type's default, as ClickHouse fills
 * it), the metric {@code rowsWithMissingColumns} of the source's readers adds up to the rows so
 * filled — also for a TabSeparatedWithNames object read in byte ranges, whose every range takes the
 * header from the object's start — and each reader logs one WARN for the column; a column some
 * JSONEachRow rows lack is not reported.
 */
class TextMissingColumnsITCase {
    static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .setConfiguration(REPORTER.addToConfiguration(new Configuration()))
                            .build());

    @RegisterExtension
    final LoggerAuditingExtension log =
            new LoggerAuditingExtension(MissingColumns.class, Level.WARN);

    static final String BUCKET = "missing";
    static final int TSV_ROWS = 100_000;
    static final int JSON_ROWS = 2_000;
    static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket(BUCKET);
        StringBuilder tsv = new StringBuilder("id\tname\tScore\n");
        for (int i = 0; i < TSV_ROWS; i++) {
            tsv.append(i).append("\tn").append(i).append('\t').append(i * 10).append('\n');
        }
        s3.put(BUCKET, "tsv/big.tsv", tsv.toString().getBytes(StandardCharsets.UTF_8));
        for (int o = 0; o < 2; o++) {
            StringBuilder json = new StringBuilder();
            for (int i = o * JSON_ROWS; i < (o + 1) * JSON_ROWS; i++) {
                // name in every other row only: ordinary JSON, not reported
                json.append("{\"id\":")
                        .append(i)
                        .append(i % 2 == 0 ? ",\"name\":\"n" + i + "\"" : "")
                        .append(",\"Score\":")
                        .append(i * 10)
                        .append("}\n");
            }
            s3.put(
                    BUCKET,
                    "json/part-" + o + ".ndjson",
                    json.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    @Test
    void aColumnTheObjectsLackIsCountedAndSaidByEveryReader() throws Exception {
        TargetSchema typo = TargetSchema.parse("id Int64, name String, Scor Int32");
        TextBlockFormat tsv =
                new TextBlockFormat(TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES, typo);
        assertThat(tsv.isSplittable("tsv/big.tsv")).isTrue();
        S3Source<Block> ranges =
                builder(tsv, "s3://" + BUCKET + "/tsv/big.tsv")
                        .setOption(S3SourceOptions.SPLIT_SIZE, 200_000L)
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 5_000)
                        .build();
        assertThat(S3SourceFormatsITCase.run(ranges))
                .isEqualTo(S3SourceITCase.expected(0, TSV_ROWS));
        assertThat(missingRows()).isEqualTo(TSV_ROWS);
        assertThat(log.getMessages()).hasSizeBetween(1, 2); // one per reader that read a range
        assertThat(log.getMessages())
                .allSatisfy(
                        m ->
                                assertThat(m)
                                        .contains("Column 'Scor'")
                                        .contains("s3://" + BUCKET + "/tsv/big.tsv")
                                        .contains("its columns: id, name, Score")
                                        .contains(S3SourceMetrics.ROWS_WITH_MISSING_COLUMNS));
        int tsvWarnings = log.getMessages().size();

        S3Source<Block> json =
                builder(
                                new TextBlockFormat(TextBlockFormat.Kind.JSON_EACH_ROW, typo),
                                "s3://" + BUCKET + "/json/*.ndjson")
                        .setOption(S3SourceOptions.MAX_BLOCK_SIZE, 500)
                        .build();
        assertThat(S3SourceFormatsITCase.run(json))
                .isEqualTo(S3SourceITCase.expected(0, 2L * JSON_ROWS));
        assertThat(missingRows()).isEqualTo(TSV_ROWS + 2L * JSON_ROWS);
        assertThat(log.getMessages().subList(tsvWarnings, log.getMessages().size()))
                .hasSizeBetween(1, 2)
                .allSatisfy(
                        m ->
                                assertThat(m)
                                        .contains("Column 'Scor'")
                                        .contains("/json/part-")
                                        .contains("its columns: id, name, Score"));
        int allWarnings = log.getMessages().size();

        TextBlockFormat right =
                new TextBlockFormat(
                        TextBlockFormat.Kind.JSON_EACH_ROW,
                        TargetSchema.parse("id Int64, name String, Score Int32"));
        assertThat(
                        S3SourceFormatsITCase.run(
                                builder(right, "s3://" + BUCKET + "/json/*.ndjson").build()))
                .isEqualTo(S3SourceITCase.expected(0, 2L * JSON_ROWS));
        assertThat(missingRows()).isEqualTo(TSV_ROWS + 2L * JSON_ROWS);
        assertThat(log.getMessages()).hasSize(allWarnings);
    }

    private static S3SourceBuilder<Block> builder(TextBlockFormat format, String location) {
        return S3Source.builder(format)
                .setLocation(location)
                .setEndpoint(s3.endpoint())
                .setPathStyleAccess(true)
                .setCredentials(S3TestServer.ACCESS_KEY, S3TestServer.SECRET_KEY);
    }

    private static long missingRows() {
        return S3SourceFaultsITCase.sumOf(REPORTER, S3SourceMetrics.ROWS_WITH_MISSING_COLUMNS);
    }
}
