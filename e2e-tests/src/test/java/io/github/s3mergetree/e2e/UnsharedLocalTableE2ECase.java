package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Never a silently split table: on a cluster whose TaskManagers each run in their own working
 * directory, an ingest into a local table path they do not share fails before its first commit with
 * a message that says so, and nothing is visible in any of the directories.
 *
 * <p>The hosts' own disks are modelled by the absolute path {@code /proc/self/cwd/table}, which
 * every process resolves to a {@code table} directory in its own working directory: the same path,
 * a different directory per process, as a local path on separate hosts.
 */
@ExtendWith(PackagedBuild.class)
class UnsharedLocalTableE2ECase {
    static final String TABLE = "/proc/self/cwd/table";

    @Test
    void aLocalPathTheTaskManagersDoNotShareFailsBeforeTheFirstCommit() throws Exception {
        Path dir = E2E.newDir("unshared-table");
        List<Path> files = Posts.generate(4, 1_500, 4);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir);
                FlinkStandaloneCluster cluster =
                        FlinkStandaloneCluster.start(
                                dir.resolve("flink"),
                                2,
                                new FlinkStandaloneCluster.Options(true, null, Map.of()))) {
            s3.createBucket("posts");
            Posts.upload(s3, "posts", "year/", files);
            ManagedProcess ingest =
                    Ingest.posts(
                                    "s3://posts/year/*.parquet",
                                    TABLE,
                                    s3.endpoint().toString(),
                                    cluster)
                            .parallelism(2)
                            .checkpointInterval("1s")
                            .start("ingest", dir);
            int code = ingest.waitFor(Duration.ofMinutes(4));
            assertThat(code).as("%s\n%s", ingest.describe(), cluster.describe()).isNotZero();
            assertThat(ingest.stderr())
                    .as(ingest.describe())
                    .contains("is not shared by the TaskManagers")
                    .contains("Nothing was committed");
            // the job failed at once, not after restarts
            List<com.fasterxml.jackson.databind.JsonNode> jobs = cluster.jobs();
            assertThat(jobs).isNotEmpty();
            assertThat(jobs.get(0).path("state").asText()).isEqualTo("FAILED");

            // nothing visible: the client's table and each TaskManager's have no committed row
            for (Path table :
                    List.of(
                            dir.resolve("table"),
                            cluster.taskManagerDir(0).resolve("table"),
                            cluster.taskManagerDir(1).resolve("table"))) {
                if (Files.isDirectory(table.resolve("s3mergetree_metadata"))) {
                    assertThat(Judge.activeParts(table)).as("active parts in %s", table).isEmpty();
                }
            }
            assertThat(cluster.taskManagerDir(0).resolve("table"))
                    .as("the TaskManagers wrote their own directories")
                    .isDirectory();
        }
    }
}
