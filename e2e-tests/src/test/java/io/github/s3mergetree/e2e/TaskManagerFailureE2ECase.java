package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Case 2: a TaskManager running the ingest job is killed with {@code kill -9} in the middle of the
 * job (some rows committed by a checkpoint, not all); the job restarts on the remaining slots, and
 * the table is still exactly ClickHouse's ingestion of the objects: no row lost, none twice.
 *
 * <p>The S3 server sits behind the (fault-free) proxy with a delay per request, so the job lasts
 * long enough to be hit in the middle.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class TaskManagerFailureE2ECase {
    static final int MONTHS = 12;
    static final int ROWS_PER_MONTH = 1_500;

    @Test
    void killedTaskManagerLosesNoRowAndDuplicatesNone(FlinkStandaloneCluster cluster)
            throws Exception {
        Path dir = E2E.newDir("tm-kill");
        List<Path> files = Posts.generate(MONTHS, ROWS_PER_MONTH, 2);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir);
                FaultInjectingProxy slow = new FaultInjectingProxy(s3.port(), 0, 0, 0)) {
            s3.createBucket("posts");
            Posts.upload(s3, "posts", "year/", files);
            slow.setDelayMillis(400);
            Path table = dir.resolve("table");
            ManagedProcess ingest =
                    Ingest.posts(
                                    "s3://posts/year/*.parquet",
                                    table,
                                    slow.endpoint().toString(),
                                    cluster)
                            .parallelism(2)
                            .checkpointInterval("1s")
                            .optimizeFinal()
                            .start("ingest", dir);
            String jobId = IngestCases.awaitJobId(ingest, cluster);
            String vertex = IngestCases.sourceVertexId(cluster, jobId);

            // the middle: rows committed by a checkpoint, the job still reading
            E2E.await(
                    "rows committed by job " + jobId,
                    Duration.ofMinutes(2),
                    () -> {
                        if (!ingest.isAlive()) {
                            throw new AssertionError("ingest ended early: " + ingest.describe());
                        }
                        return Judge.committedRows(table) > 0;
                    });
            List<String> hosts = new ArrayList<>();
            for (JsonNode tm :
                    cluster.rest("/jobs/" + jobId + "/vertices/" + vertex + "/taskmanagers")
                            .path("taskmanagers")) {
                hosts.add(tm.path("taskmanager-id").asText());
            }
            assertThat(hosts).as("TaskManagers running the job").isNotEmpty();
            String victimId = hosts.get(0);
            int victim = Integer.parseInt(victimId.substring(victimId.lastIndexOf('-') + 1));
            assertThat(cluster.jobStatus(jobId)).isEqualTo("RUNNING");
            long rowsBefore = Judge.committedRows(table);
            long requestsBefore = slow.requests();
            cluster.killTaskManager(victim);
            System.out.printf(
                    "killed TaskManager %s (pid %d) with %d rows committed, %d S3 requests made%n",
                    victimId,
                    cluster.taskManagerProcesses().get(victim).pid(),
                    rowsBefore,
                    requestsBefore);
            assertThat(rowsBefore)
                    .as("rows committed before the kill")
                    .isLessThan((long) MONTHS * ROWS_PER_MONTH);

            assertThat(IngestCases.completedCheckpoints(cluster, jobId)).isPositive();
            int code = ingest.waitFor(Duration.ofMinutes(5));
            System.out.printf("the job made %d S3 requests in all%n", slow.requests());
            assertThat(code).as("%s\n%s", ingest.describe(), cluster.describe()).isZero();
            JsonNode exceptions = cluster.rest("/jobs/" + jobId + "/exceptions");
            assertThat(exceptions.path("exceptionHistory").path("entries").size())
                    .as("the job saw the TaskManager's loss: %s", exceptions)
                    .isPositive();
            JsonNode summary = IngestCases.summary(ingest);
            assertThat(summary.path("rows").asLong()).isEqualTo((long) MONTHS * ROWS_PER_MONTH);

            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table, s3.endpoint() + "/posts/year/*.parquet", dir.resolve("chdb"));
            assertThat(v.actualRows()).isEqualTo((long) MONTHS * ROWS_PER_MONTH);
        }
    }
}
