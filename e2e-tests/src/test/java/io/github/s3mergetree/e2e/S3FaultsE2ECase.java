package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Case 4: the cluster reads S3 through a proxy that answers some requests with 503 SlowDown, resets
 * some connections and truncates some bodies. The table is still exactly ClickHouse's ingestion of
 * the objects (read directly), and the retries are visible in the job's metrics ({@code GET
 * /jobs/<id>/vertices/<vid>/subtasks/metrics}, counters {@code retries} and {@code throttled} of
 * the source's {@code s3} metric group).
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class S3FaultsE2ECase {
    static final int MONTHS = 4;
    static final int ROWS_PER_MONTH = 1_500;

    @Test
    void faultyS3StillGivesTheExactTableAndTheRetriesShowInTheMetrics(
            FlinkStandaloneCluster cluster) throws Exception {
        Path dir = E2E.newDir("s3-faults");
        List<Path> files = Posts.generate(MONTHS, ROWS_PER_MONTH, 3);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir);
                FaultInjectingProxy faulty = new FaultInjectingProxy(s3.port(), 0, 0, 0)) {
            s3.createBucket("posts");
            Posts.upload(s3, "posts", "faulty/", files);
            // every 4th request a 503 SlowDown, every 9th a reset, every 7th GET body cut short
            faulty.setFaults(4, 9, 7);
            faulty.setDelayMillis(50);
            Path table = dir.resolve("table");
            ManagedProcess ingest =
                    Ingest.posts(
                                    "s3://posts/faulty/*.parquet",
                                    table,
                                    faulty.endpoint().toString(),
                                    cluster)
                            .parallelism(2)
                            .checkpointInterval("1s")
                            // the source's retry backoff capped at 0.5 s (default 5 s)
                            .setting("s3_retry_max_backoff_ms=500")
                            .start("ingest", dir);
            String jobId = IngestCases.awaitJobId(ingest, cluster);

            // the counters while the job runs (they are gone once it has finished)
            Map<String, Long> maxSeen = new ConcurrentHashMap<>();
            String vertex = null;
            while (ingest.isAlive()) {
                try {
                    if (vertex == null) {
                        vertex = IngestCases.sourceVertexId(cluster, jobId);
                    }
                    s3Counters(cluster, jobId, vertex)
                            .forEach((k, v) -> maxSeen.merge(k, v, Math::max));
                } catch (RuntimeException e) {
                    // not there yet, or the job just ended
                }
                E2E.sleep(300);
            }
            int code = ingest.waitFor(Duration.ofSeconds(10));
            assertThat(code).as("%s\n%s", ingest.describe(), cluster.describe()).isZero();
            System.out.printf(
                    "faults injected: %d SlowDown, %d resets, %d truncated bodies; job metrics: %s%n",
                    faulty.slowDowns.get(), faulty.resets.get(), faulty.truncations.get(), maxSeen);
            assertThat(faulty.faults()).isPositive();
            assertThat(maxSeen.getOrDefault("retries", 0L))
                    .as("s3.retries of the job's source subtasks: %s", maxSeen)
                    .isPositive();
            assertThat(maxSeen.getOrDefault("throttled", 0L))
                    .as("s3.throttled of the job's source subtasks: %s", maxSeen)
                    .isPositive();
            assertThat(IngestCases.summary(ingest).path("rows").asLong())
                    .isEqualTo((long) MONTHS * ROWS_PER_MONTH);

            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table, s3.endpoint() + "/posts/faulty/*.parquet", dir.resolve("chdb"));
            assertThat(v.actualRows()).isEqualTo((long) MONTHS * ROWS_PER_MONTH);
        }
    }

    /**
     * The source's {@code s3.retries} and {@code s3.throttled} summed over its subtasks, keyed
     * {@code retries} and {@code throttled}.
     */
    static Map<String, Long> s3Counters(
            FlinkStandaloneCluster cluster, String jobId, String vertex) {
        String base = "/jobs/" + jobId + "/vertices/" + vertex + "/subtasks/metrics";
        List<String> wanted = new ArrayList<>();
        for (JsonNode m : cluster.rest(base)) {
            String id = m.path("id").asText();
            if (id.endsWith(".s3.retries") || id.endsWith(".s3.throttled")) {
                wanted.add(id);
            }
        }
        Map<String, Long> out = new java.util.HashMap<>();
        if (wanted.isEmpty()) {
            return out;
        }
        String query =
                String.join(
                        ",",
                        wanted.stream()
                                .map(
                                        s ->
                                                java.net.URLEncoder.encode(
                                                        s, java.nio.charset.StandardCharsets.UTF_8))
                                .toList());
        for (JsonNode m : cluster.rest(base + "?get=" + query + "&agg=sum")) {
            String id = m.path("id").asText();
            String key = id.substring(id.lastIndexOf('.') + 1);
            out.merge(key, m.path("sum").asLong(), Long::sum);
        }
        return out;
    }
}
