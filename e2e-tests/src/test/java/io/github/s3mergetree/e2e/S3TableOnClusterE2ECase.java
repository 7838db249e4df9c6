package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.AttachStatements;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.source.s3.testutils.FaultInjectingProxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The table on object storage, on a cluster whose hosts share no filesystem: a standalone cluster
 * whose two TaskManagers each run in their own working directory (own {@code io.tmp.dirs}), with
 * Flink's {@code flink-s3-fs-presto} plugin in {@code plugins/} and {@code s3.*} in {@code
 * config.yaml}. A batch {@code ingest --table-path s3://lake/tables/posts} with its checkpoints on
 * S3 loses a TaskManager to {@code kill -9} mid-job; the job recovers from its S3 checkpoint and
 * the summary is exact. Then chDB (ClickHouse 26.7) attaches the table in place from the S3 server
 * process ({@code s3_plain}, {@code table_disk = 1}): {@code CHECK TABLE} passes, count and {@code
 * RowsHash} equal ClickHouse's own {@code INSERT … SELECT FROM s3()} of the same objects, and
 * merges ran (active parts of level > 0). Nothing of the table is on any local disk.
 *
 * <p>The Flink 1.20 line has no S3 plugin in this build (flink-s3-fs-presto 1.20.x is not served by
 * the registry the project builds from), so there the case is not run (an explicit assumption).
 */
@ExtendWith(PackagedBuild.class)
class S3TableOnClusterE2ECase {
    static final int MONTHS = 12;
    static final int ROWS_PER_MONTH = 1_500;
    static final String BUCKET = "lake";
    static final String PREFIX = "tables/posts";
    static final String TABLE = "s3://" + BUCKET + "/" + PREFIX;

    /** The plugins directory the cli build made ({@code cli/target/plugins}). */
    static Path pluginsDir() {
        return E2E.projectRoot().resolve("cli/target/plugins");
    }

    static boolean s3PluginOfThisFlink() throws Exception {
        Path d = pluginsDir().resolve("s3-fs-presto");
        if (!Files.isDirectory(d)) {
            return false;
        }
        String jar = "flink-s3-fs-presto-" + FlinkStandaloneCluster.flinkVersion() + ".jar";
        try (Stream<Path> s = Files.list(d)) {
            return s.anyMatch(p -> p.getFileName().toString().equals(jar));
        }
    }

    @Test
    void killedTaskManagerOnHostsWithoutSharedDisksLeavesAnExactTableClickHouseReadsInPlace()
            throws Exception {
        assumeTrue(
                s3PluginOfThisFlink(),
                "no flink-s3-fs-presto plugin of Flink "
                        + FlinkStandaloneCluster.flinkVersion()
                        + " in "
                        + pluginsDir());
        Path dir = E2E.newDir("s3-table-cluster");
        List<Path> files = Posts.generate(MONTHS, ROWS_PER_MONTH, 3);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir);
                FaultInjectingProxy slow = new FaultInjectingProxy(s3.port(), 0, 0, 0)) {
            s3.createBucket("posts");
            s3.createBucket(BUCKET);
            Posts.upload(s3, "posts", "year/", files);
            slow.setDelayMillis(400);
            Map<String, String> conf =
                    Map.of(
                            "s3.endpoint",
                            s3.endpoint().toString(),
                            "s3.path-style-access",
                            "true",
                            "s3.ssl.enabled",
                            "false",
                            "s3.access-key",
                            S3ServerProcess.ACCESS_KEY,
                            "s3.secret-key",
                            S3ServerProcess.SECRET_KEY,
                            // the cluster's own default: on S3 too (nothing local is shared)
                            "execution.checkpointing.dir",
                            "s3://" + BUCKET + "/cluster/checkpoints",
                            "execution.checkpointing.savepoint-dir",
                            "s3://" + BUCKET + "/cluster/savepoints");
            try (FlinkStandaloneCluster cluster =
                    FlinkStandaloneCluster.start(
                            dir.resolve("flink"),
                            2,
                            new FlinkStandaloneCluster.Options(true, pluginsDir(), conf))) {
                ManagedProcess ingest =
                        Ingest.posts(
                                        "s3://posts/year/*.parquet",
                                        TABLE,
                                        slow.endpoint().toString(),
                                        cluster)
                                .option("--table-s3-endpoint", s3.endpoint().toString())
                                .parallelism(2)
                                .checkpointInterval("1s")
                                .optimizeFinal()
                                .start(
                                        "ingest",
                                        dir,
                                        List.of("-Ds3mergetree.plugins.dir=" + pluginsDir()));
                String jobId = IngestCases.awaitJobId(ingest, cluster);
                String vertex = IngestCases.sourceVertexId(cluster, jobId);
                E2E.await(
                        "rows committed by job " + jobId,
                        Duration.ofMinutes(2),
                        () -> {
                            if (!ingest.isAlive()) {
                                throw new AssertionError(
                                        "ingest ended early: " + ingest.describe());
                            }
                            return committedRows(s3) > 0;
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
                long rowsBefore = committedRows(s3);
                assertThat(cluster.jobStatus(jobId)).isEqualTo("RUNNING");
                assertThat(IngestCases.completedCheckpoints(cluster, jobId)).isPositive();
                cluster.killTaskManager(victim);
                System.out.printf(
                        "killed TaskManager %s with %d rows committed%n", victimId, rowsBefore);
                assertThat(rowsBefore).isLessThan((long) MONTHS * ROWS_PER_MONTH);

                int code = ingest.waitFor(Duration.ofMinutes(5));
                assertThat(code).as("%s\n%s", ingest.describe(), cluster.describe()).isZero();
                JsonNode exceptions = cluster.rest("/jobs/" + jobId + "/exceptions");
                assertThat(exceptions.path("exceptionHistory").path("entries").size())
                        .as("the job saw the TaskManager's loss: %s", exceptions)
                        .isPositive();
                JsonNode checkpoints = cluster.rest("/jobs/" + jobId + "/checkpoints");
                assertThat(
                                checkpoints
                                        .path("latest")
                                        .path("restored")
                                        .path("external_path")
                                        .asText())
                        .as("the job restored an S3 checkpoint: %s", checkpoints)
                        .startsWith(TABLE + "/s3mergetree_metadata/ingest-");
                assertThat(IngestCases.summary(ingest).path("rows").asLong())
                        .isEqualTo((long) MONTHS * ROWS_PER_MONTH);
                // nothing of the table on any process's disk
                for (Path d : List.of(dir, cluster.taskManagerDir(0), cluster.taskManagerDir(1))) {
                    assertThat(d.resolve("s3:")).doesNotExist();
                    assertThat(d.resolve("tables")).doesNotExist();
                }
            }

            List<ActivePart> parts;
            try (TableStore store = store(s3)) {
                parts = MergeTreeTable.readActiveParts(store);
            }
            assertThat(parts).isNotEmpty();
            assertThat(parts.stream().mapToInt(p -> p.name().level()).max().orElse(0))
                    .as("merges ran: %s", parts)
                    .isPositive();
            try (ChDb ch = ChDb.start(dir.resolve("chdb"))) {
                ch.execute(
                        AttachStatements.s3Plain(
                                Posts.ddl(),
                                s3.endpoint() + "/" + BUCKET + "/" + PREFIX + "/",
                                S3ServerProcess.ACCESS_KEY,
                                S3ServerProcess.SECRET_KEY,
                                UUID.randomUUID()));
                ch.assertCheckTablePasses("posts");
                ch.execute(Posts.ddl().replaceFirst("CREATE TABLE posts", "CREATE TABLE expected"));
                ch.execute(
                        "INSERT INTO expected SELECT * FROM s3('"
                                + s3.endpoint()
                                + "/posts/year/*.parquet', '"
                                + S3ServerProcess.ACCESS_KEY
                                + "', '"
                                + S3ServerProcess.SECRET_KEY
                                + "', 'Parquet')");
                long expected = ch.queryLong("SELECT count() FROM expected");
                assertThat(expected).isEqualTo((long) MONTHS * ROWS_PER_MONTH);
                assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(expected);
                assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM posts"))
                        .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM expected"));
            }
        }
    }

    private static TableStore store(S3ServerProcess s3) throws java.io.IOException {
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        return TableLocation.parse(
                        TABLE,
                        new TableLocation.S3Settings(
                                s3.endpoint(),
                                null,
                                true,
                                S3ServerProcess.ACCESS_KEY,
                                S3ServerProcess.SECRET_KEY,
                                d.connectTimeout(),
                                d.requestTimeout()))
                .openStore();
    }

    /** Rows of the table's active parts so far (0 before the first commit). */
    private static long committedRows(S3ServerProcess s3) {
        try (TableStore store = store(s3)) {
            return MergeTreeTable.readActiveParts(store).stream().mapToLong(ActivePart::rows).sum();
        } catch (Exception e) {
            return 0;
        }
    }
}
