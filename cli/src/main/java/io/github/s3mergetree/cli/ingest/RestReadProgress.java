package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The read progress of a job on a Flink cluster, from its REST API: the job's vertices ({@code
 * /jobs/:id}), the names of their metrics ending in {@code .s3.rowsRead} / {@code
 * .s3.bytesDownloaded} ({@code /jobs/:id/vertices/:v/subtasks/metrics}) and their sums over the
 * subtasks ({@code ...?get=...&agg=sum}). As fresh as the cluster's {@code
 * metrics.fetcher.update-interval} (10 s by default). A failed request leaves the last totals.
 */
final class RestReadProgress implements ReadProgress {
    private static final Pattern VERTEX_ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f]{32})\"");
    private static final Pattern METRIC_ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final Pattern SUM =
            Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"\\s*,\\s*\"sum\"\\s*:\\s*([0-9.eE+-]+)");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String base;
    private final String jobId;

    /** Vertex id → its metric names to sum (none for the vertices without a source). */
    private final Map<String, List<String>> metrics = new LinkedHashMap<>();

    private ReadProgress.Totals last;

    /**
     * @param restAddress {@code host:port} of the cluster's REST endpoint (the ingest's {@code
     *     --jobmanager})
     */
    RestReadProgress(String restAddress, String jobId) {
        this.base = "http://" + restAddress;
        this.jobId = jobId;
    }

    @Override
    public synchronized Optional<Totals> totals() {
        try {
            if (metrics.values().stream().allMatch(List::isEmpty)) {
                // until the source's vertex has registered its metrics
                discover();
            }
            long rows = 0;
            long bytes = 0;
            boolean any = false;
            for (Map.Entry<String, List<String>> v : metrics.entrySet()) {
                if (v.getValue().isEmpty()) {
                    continue;
                }
                String body =
                        get(
                                "/jobs/"
                                        + jobId
                                        + "/vertices/"
                                        + v.getKey()
                                        + "/subtasks/metrics?agg=sum&get="
                                        + URLEncoder.encode(
                                                String.join(",", v.getValue()),
                                                StandardCharsets.UTF_8));
                Matcher m = SUM.matcher(body);
                while (m.find()) {
                    long value = (long) Double.parseDouble(m.group(2));
                    any = true;
                    if (m.group(1).endsWith("." + S3SourceMetrics.ROWS_READ)) {
                        rows += value;
                    } else {
                        bytes += value;
                    }
                }
            }
            if (any) {
                last = new Totals(rows, bytes);
            }
        } catch (IOException e) {
            // the cluster is busy or away: the last totals stand
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return Optional.ofNullable(last);
    }

    /** Finds the vertices of the job and the names of their read metrics. */
    private void discover() throws IOException, InterruptedException {
        if (metrics.isEmpty()) {
            Set<String> vertices = new LinkedHashSet<>();
            Matcher v = VERTEX_ID.matcher(get("/jobs/" + jobId));
            while (v.find()) {
                vertices.add(v.group(1));
            }
            for (String id : vertices) {
                metrics.put(id, List.of());
            }
        }
        for (Map.Entry<String, List<String>> e : metrics.entrySet()) {
            if (!e.getValue().isEmpty()) {
                continue;
            }
            List<String> names = new ArrayList<>();
            Matcher m =
                    METRIC_ID.matcher(
                            get(
                                    "/jobs/"
                                            + jobId
                                            + "/vertices/"
                                            + e.getKey()
                                            + "/subtasks/metrics"));
            while (m.find()) {
                String name = m.group(1);
                if (name.endsWith("." + S3SourceMetrics.GROUP + "." + S3SourceMetrics.ROWS_READ)
                        || name.endsWith(
                                "."
                                        + S3SourceMetrics.GROUP
                                        + "."
                                        + S3SourceMetrics.BYTES_DOWNLOADED)) {
                    names.add(name);
                }
            }
            e.setValue(names);
        }
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(base + path))
                                .timeout(Duration.ofSeconds(5))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + r.statusCode());
        }
        return r.body();
    }

    @Override
    public void close() {
        // the JDK client needs no closing before Java 21
    }
}
