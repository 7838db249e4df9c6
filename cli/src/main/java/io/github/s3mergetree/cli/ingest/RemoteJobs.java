package io.github.s3mergetree.cli.ingest;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state of a job on a Flink cluster, from its REST API ({@code GET /jobs/<id>}). Used when
 * {@code ingest --jobmanager} runs again after its client was killed: the job may still be running
 * on the cluster, and a second job restored from the same checkpoint would write the same rows
 * again, so the command waits for the first one instead.
 */
final class RemoteJobs {
    static final Set<String> TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED", "SUSPENDED");
    private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String jobmanager;

    RemoteJobs(String jobmanager) {
        this.jobmanager = jobmanager;
    }

    /**
     * The job's state ({@code RUNNING}, {@code FINISHED}, …); empty if the cluster does not know
     * it.
     */
    Optional<String> state(String jobId) throws IOException, InterruptedException {
        if (!jobId.matches("[0-9a-f]{32}")) {
            return Optional.empty();
        }
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(
                                        URI.create("http://" + jobmanager + "/jobs/" + jobId))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 404) {
            return Optional.empty();
        }
        if (r.statusCode() != 200) {
            throw new IOException(
                    "GET /jobs/" + jobId + " on " + jobmanager + " answered " + r.statusCode());
        }
        Matcher m = STATE.matcher(r.body());
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
