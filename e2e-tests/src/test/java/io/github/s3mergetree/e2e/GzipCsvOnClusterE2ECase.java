package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * CSV.gz objects on the standalone Flink cluster, whose TaskManagers run with the direct memory
 * limit Flink gives them ({@code -XX:MaxDirectMemorySize} = framework + task off-heap + network
 * memory, 211 MiB here). One object decompresses to ~215 MB: more than that limit, so its output
 * does not fit a direct buffer for libdeflate and the JDK decompresses it (a warning once in the
 * TaskManager's log); before, the job failed with "OutOfMemoryError: Cannot reserve … bytes of
 * direct buffer memory". A small object beside it still fits. The table equals ClickHouse's own
 * ingestion of the same objects and passes {@code CHECK TABLE}.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class GzipCsvOnClusterE2ECase {
    static final String DDL =
            "CREATE TABLE logs (ts DateTime, n UInt32, path String, agent String, status UInt16)"
                    + " ENGINE = MergeTree ORDER BY (ts, n)";
    static final int LARGE_ROWS = 1_150_000; // ~215 MB of CSV, ~7 MB of gzip
    static final int SMALL_ROWS = 10_000;

    private static final String[] PATHS = {
        "/index.html", "/api/v1/items", "/api/v1/items/42", "/login", "/static/app.js", "/search"
    };
    private static final String[] AGENTS = {
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0"
                + " Safari/537.36 monitoring-probe/1.0 (+https://example.invalid/probe)",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko)"
                + " Version/17.4 Safari/605.1.15 corporate-proxy/2.3 build 2024-04-01",
        "curl/8.5.0 batch-exporter/3.1.4 (linux; amd64; go1.22.2) request-id-propagation enabled"
                + " retry-policy=exponential max-attempts=5",
        "python-requests/2.31.0 data-pipeline-client/0.9.7 (CPython 3.12.2; Debian 12)"
                + " connection-pool=10 keep-alive=true compression=gzip"
    };
    private static final int[] STATUSES = {200, 200, 200, 304, 404, 500};

    @Test
    void aGzipObjectLargerThanTheTaskManagersDirectMemoryIsIngested(FlinkStandaloneCluster cluster)
            throws IOException {
        Path dir = E2E.newDir("gzip-csv");
        Path large = csvGz(dir.resolve("large.csv.gz"), 0, LARGE_ROWS);
        Path small = csvGz(dir.resolve("small.csv.gz"), LARGE_ROWS, SMALL_ROWS);
        Path ddlFile = dir.resolve("logs.sql");
        Files.writeString(ddlFile, DDL);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir)) {
            s3.createBucket("logs");
            s3.upload("logs", "in/large.csv.gz", large);
            s3.upload("logs", "in/small.csv.gz", small);
            Path table = dir.resolve("table");
            ManagedProcess ingest =
                    Ingest.of(
                                    "s3://logs/in/*.csv.gz",
                                    "CSVWithNames",
                                    ddlFile,
                                    table.toString(),
                                    s3.endpoint().toString(),
                                    cluster)
                            .parallelism(2)
                            .checkpointInterval("2s")
                            .start("ingest", dir);
            int code = ingest.waitFor(Duration.ofMinutes(5));
            assertThat(code).as("%s\n%s", ingest.describe(), cluster.describe()).isZero();
            JsonNode summary = IngestCases.summary(ingest);
            assertThat(summary.path("rows").asLong()).isEqualTo(LARGE_ROWS + SMALL_ROWS);

            // a TaskManager falls back to the JDK (the large object's 208-MiB buffer, or a small
            // object's while its direct memory is busy: CI saw "limit 211 MiB, 163 MiB in use ...
            // a 7-MiB buffer") and says so once per JVM: which object it names depends on which it
            // met first, so the large object's own fallback may go unsaid
            Pattern warning =
                    Pattern.compile(
                            "decompressed by the JDK instead of libdeflate .* cannot spare a"
                                    + " \\d+-MiB buffer");
            long warned = 0;
            try (Stream<Path> logs = Files.list(cluster.logDir())) {
                for (Path log :
                        logs.filter(p -> p.getFileName().toString().startsWith("taskmanager-"))
                                .toList()) {
                    long inThisJvm =
                            Files.readAllLines(log).stream()
                                    .filter(l -> warning.matcher(l).find())
                                    .count();
                    assertThat(inThisJvm).as("said once per JVM: %s", log).isLessThan(2);
                    warned += inThisJvm;
                }
            }
            assertThat(warned)
                    .as("a fallback to the JDK said: %s", cluster.describe())
                    .isPositive();

            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table,
                            DDL,
                            s3.endpoint() + "/logs/in/*.csv.gz",
                            "CSVWithNames",
                            "1",
                            dir.resolve("chdb"));
            assertThat(v.actualRows()).isEqualTo(LARGE_ROWS + SMALL_ROWS);
        }
    }

    /** Writes rows {@code first .. first + rows - 1} as CSVWithNames, gzip-compressed. */
    private static Path csvGz(Path file, int first, int rows) throws IOException {
        try (OutputStream out =
                new BufferedOutputStream(
                        new GZIPOutputStream(Files.newOutputStream(file), 1 << 16) {
                            {
                                def.setLevel(Deflater.BEST_SPEED);
                            }
                        },
                        1 << 16)) {
            out.write("ts,n,path,agent,status\n".getBytes(StandardCharsets.US_ASCII));
            StringBuilder line = new StringBuilder(256);
            for (int i = first; i < first + rows; i++) {
                int second = i / 10;
                line.setLength(0);
                line.append(
                                String.format(
                                        Locale.ROOT,
                                        "2024-01-%02d %02d:%02d:%02d",
                                        1 + second / 86400 % 28,
                                        second / 3600 % 24,
                                        second / 60 % 60,
                                        second % 60))
                        .append(',')
                        .append(i)
                        .append(',')
                        .append(PATHS[i % PATHS.length])
                        .append(",\"")
                        .append(AGENTS[(i / 7) % AGENTS.length])
                        .append('"')
                        .append(',')
                        .append(STATUSES[(i / 3) % STATUSES.length])
                        .append('\n');
                out.write(line.toString().getBytes(StandardCharsets.US_ASCII));
            }
        }
        return file;
    }
}
