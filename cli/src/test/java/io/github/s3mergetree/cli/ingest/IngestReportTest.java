package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * What {@link IngestReport} prints: the JSON summary (seconds from the job's reading start to the
 * table's last event, failed objects with escaped names and errors) and progress lines, at times
 * given to it rather than read from the clock.
 */
class IngestReportTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final IngestReport report =
            new IngestReport(
                    new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    key -> "s3://bucket/" + key);

    @Test
    void theSummaryMeasuresFromTheReadingStartAndListsFailedObjectsAsJson() {
        TableProgress.Snapshot s =
                new TableProgress.Snapshot(
                        8_000, 1_000_000, 3, 1, 2, T0.plusSeconds(4), T0.plusSeconds(3));
        S3ObjectSplit whole =
                new S3ObjectSplit("in/a \"b\".csv", "e", 100, 0, 100, 0, 0, 7, "bad row\n\tat 3");
        S3ObjectSplit range = new S3ObjectSplit("in/c.csv", "e", 100, 10, 50, 0, 0, 0, "gone");

        report.summary(s, T0, List.of(whole, range), "12", T0.plusSeconds(60));

        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo(
                        "{\"rows\":8000,\"bytes_uncompressed\":1000000,\"seconds\":4.000,"
                                + "\"rows_per_s\":2000,\"insert_seconds\":3.000,"
                                + "\"parts_written\":3,\"active_parts\":2,\"merges\":1,"
                                + "\"rows_skipped\":12,\"failed_objects\":["
                                + "{\"object\":\"s3://bucket/in/a \\\"b\\\".csv\","
                                + "\"rows_committed\":7,\"error\":\"bad row\\n\\tat 3\"},"
                                + "{\"object\":\"s3://bucket/in/c.csv bytes [10, 50)\","
                                + "\"rows_committed\":0,\"error\":\"gone\"}]}"
                                + System.lineSeparator());
    }

    @Test
    void withoutAJobTheSummaryHasNoSeconds() {
        TableProgress.Snapshot s = new TableProgress.Snapshot(5, 10, 1, 0, 1, T0, T0);
        report.summary(s, null, List.of(), "0", T0.plusSeconds(9));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .startsWith("{\"rows\":5,\"bytes_uncompressed\":10,\"seconds\":0.000,")
                .contains("\"rows_per_s\":0,\"insert_seconds\":0.000,")
                .contains("\"failed_objects\":[]}");
    }

    @Test
    void aSummaryBeforeTheTablesFirstEventRunsUntilNow() {
        assertThat(IngestReport.secondsSince(T0, null, T0.plusMillis(2500))).isEqualTo(2.5);
        assertThat(IngestReport.secondsSince(T0, T0.minusSeconds(1), T0.plusSeconds(1)))
                .isEqualTo(1.0);
        assertThat(IngestReport.secondsSince(null, T0, T0.plusSeconds(1))).isZero();
    }

    @Test
    void progressUsesTheJobsReadTotalsOnceItReportsThem() {
        TableProgress.Snapshot s = new TableProgress.Snapshot(0, 0, 0, 0, 0, null, null);
        report.setTotalRows(OptionalLong.of(1000));
        report.progress(s, T0, T0.plusSeconds(10));
        report.readFrom(
                new ReadProgress() {
                    @Override
                    public Optional<Totals> totals() {
                        return Optional.of(new Totals(500, 2_000_000));
                    }

                    @Override
                    public void close() {}
                });
        report.progress(s, T0, T0.plusSeconds(10));

        String[] lines = err.toString(StandardCharsets.UTF_8).split(System.lineSeparator());
        assertThat(lines).hasSize(2);
        assertThat(lines[0])
                .isEqualTo(
                        "progress: [..............................]   0% read,   0% committed, 0"
                                + " rows committed (0.0 MB), 0 rows/s committed, 0 parts written,"
                                + " 0 active, 0 merges, 10 s");
        assertThat(lines[1])
                .startsWith("progress: [===============...............]  50% read,   0% committed,")
                .contains(
                        "500 rows read (2.0 MB downloaded), 0 rows committed (0.0 MB), 50 rows/s read");
    }

    @Test
    void jsonStringsEscapeQuotesBackslashesAndControlCharacters() {
        assertThat(IngestReport.jsonString("a\"b\\c\r\u0001"))
                .isEqualTo("\"a\\\"b\\\\c\\r\\u0001\"");
    }
}
