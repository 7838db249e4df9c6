package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;

/**
 * The e2e infrastructure itself: the standalone Flink cluster has its TaskManagers and slots and
 * runs a job jar submitted with {@code flink run}; the standalone S3 server serves what was
 * uploaded, also through the fault-injecting proxy.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class InfrastructureE2ECase {

    @Test
    void clusterRunsASubmittedJob(FlinkStandaloneCluster cluster) {
        assertThat(cluster.registeredTaskManagers()).isEqualTo(2);
        JsonNode overview = cluster.rest("/overview");
        assertThat(overview.path("slots-total").asInt()).isEqualTo(4);

        Path jar = JobJars.jarOf(TrivialJob.class, E2E.newDir("jobs").resolve("trivial-job.jar"));
        ManagedProcess run = cluster.flinkRun("flink-run-trivial", jar, List.of("200000"));
        int code = run.waitFor(Duration.ofMinutes(2));
        assertThat(code).as(run.describe()).isZero();
        JsonNode job = cluster.jobs().get(0);
        assertThat(job.path("name").asText()).isEqualTo("e2e trivial job");
        assertThat(job.path("state").asText()).isEqualTo("FINISHED");

        // kill -9 and replacement of a TaskManager: TaskManagerFailureE2ECase and
        // FlinkClusterExtension (which replaces killed ones before each case)
    }

    @Test
    void s3ServerServesUploadsDirectlyAndThroughTheFaultProxy() throws Exception {
        Path dir = E2E.newDir("s3-infra");
        Path file = dir.resolve("hello.txt");
        Files.writeString(file, "hello, s3 ".repeat(1000));
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("root"), dir.resolve("log"))) {
            s3.createBucket("infra");
            s3.upload("infra", "a/hello.txt", file);
            ResponseBytes<GetObjectResponse> direct =
                    s3.client().getObjectAsBytes(b -> b.bucket("infra").key("a/hello.txt"));
            assertThat(direct.asString(StandardCharsets.UTF_8)).isEqualTo(Files.readString(file));

            try (FaultInjectingProxy proxy = new FaultInjectingProxy(s3.port(), 2, 0, 0);
                    S3Client viaProxy = S3ServerProcess.newClient(proxy.endpoint())) {
                for (int i = 0; i < 4; i++) {
                    assertThat(
                                    viaProxy.getObjectAsBytes(
                                                    b -> b.bucket("infra").key("a/hello.txt"))
                                            .asString(StandardCharsets.UTF_8))
                            .isEqualTo(Files.readString(file));
                }
                assertThat(proxy.slowDowns.get()).isGreaterThan(0);
            }
        }
    }
}
