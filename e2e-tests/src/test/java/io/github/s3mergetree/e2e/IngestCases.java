package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/** What the ingest cases share. */
final class IngestCases {
    private IngestCases() {}

    private static final java.util.regex.Pattern JOB_ID =
            java.util.regex.Pattern.compile("job ([0-9a-f]{32}) on the cluster");

    /** Waits until the running {@code ingest} has named its job on stderr; returns the job id. */
    static String awaitJobId(ManagedProcess ingest, FlinkStandaloneCluster cluster) {
        String[] id = new String[1];
        E2E.await(
                "the job id on the stderr of " + ingest,
                java.time.Duration.ofMinutes(2),
                () -> {
                    if (!ingest.isAlive()) {
                        throw new AssertionError(
                                "ingest ended early: " + ingest.describe() + cluster.describe());
                    }
                    java.util.regex.Matcher m = JOB_ID.matcher(ingest.stderr());
                    if (m.find()) {
                        id[0] = m.group(1);
                        return true;
                    }
                    return false;
                });
        return id[0];
    }

    /** The id of the job's (only) vertex: the chained S3 source and MergeTree sink. */
    static String sourceVertexId(FlinkStandaloneCluster cluster, String jobId) {
        for (JsonNode v : cluster.rest("/jobs/" + jobId).path("vertices")) {
            if (v.path("name").asText().startsWith("Source")) {
                return v.path("id").asText();
            }
        }
        throw new AssertionError("no source vertex in " + cluster.rest("/jobs/" + jobId));
    }

    /** Completed checkpoints of the job so far. */
    static long completedCheckpoints(FlinkStandaloneCluster cluster, String jobId) {
        return cluster.rest("/jobs/" + jobId + "/checkpoints")
                .path("counts")
                .path("completed")
                .asLong();
    }

    /** The JSON summary on the last stdout line of a finished {@code ingest}. */
    static JsonNode summary(ManagedProcess ingest) {
        String last = Cli.lastLine(ingest.stdout());
        try {
            JsonNode json = E2E.JSON.readTree(last);
            assertThat(json.has("rows")).as("summary %s\n%s", last, ingest.describe()).isTrue();
            return json;
        } catch (IOException e) {
            throw new AssertionError("the last stdout line is no JSON: " + ingest.describe(), e);
        }
    }
}
