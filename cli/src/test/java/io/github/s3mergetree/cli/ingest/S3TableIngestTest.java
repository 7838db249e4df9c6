package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.store.TableStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest --table-path s3://…} in child JVMs, the table and the ingest's
 * checkpoints on the S3 server only (Flink's S3 file system plugin for the checkpoints): killed
 * with SIGKILL mid-job and run again, the ingest resumes from its checkpoint on S3 and ends exact;
 * ClickHouse (chDB) then attaches the table in place from the S3 server ({@code s3_plain}, {@code
 * table_disk = 1}) and equals its own insert of the same files.
 *
 * <p>On the Flink 1.20 line the build has no S3 plugin (flink-s3-fs-presto 1.20.x is not served by
 * the registry the project builds from): there the test shows that the ingest refuses checkpoints
 * on S3 with a message naming the plugin, and runs the same kill and rerun with its checkpoints in
 * a local {@code --checkpoint-dir}.
 */
class S3TableIngestTest {
    private static final String PREFIX = "tables/posts";
    private static final String TABLE = "s3://" + IngestFixture.BUCKET + "/" + PREFIX;

    /** Whether the build put Flink's S3 plugin into target/plugins (not on the 1.20 line). */
    private static final boolean S3_PLUGIN =
            !Boolean.getBoolean("s3mergetree.test.s3PluginSkipped");

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    /** The options that put the checkpoints where this line can: S3, else a local directory. */
    private List<String> checkpointArgs() {
        return S3_PLUGIN
                ? List.of("--checkpoint-interval", "1s")
                : List.of(
                        "--checkpoint-interval",
                        "1s",
                        "--checkpoint-dir",
                        tmp.resolve("checkpoints").toString());
    }

    @Test
    void rerunAfterKill9ResumesFromItsCheckpointOnS3AndEndsExact() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            // many small objects, read slowly, so that the kill lands mid-job
            fx.addFiles(30, 1500);
            if (!S3_PLUGIN) {
                // no plugin of this Flink: checkpoints on S3 are refused before anything is written
                Process refused =
                        fx.startChild(
                                fx.ingestArgs(TABLE, "--checkpoint-interval", "1s"), "refused");
                assertThat(refused.waitFor(2, TimeUnit.MINUTES)).isTrue();
                assertThat(refused.exitValue()).isNotZero();
                assertThat(fx.childErr("refused"))
                        .contains("checkpoints on S3 need Flink's S3 file system plugin")
                        .contains("--checkpoint-dir");
                assertThat(committedRows(fx)).isZero();
            }
            List<String> firstArgs = new ArrayList<>(checkpointArgs());
            firstArgs.addAll(List.of("--setting", "s3_max_get_rps=1"));
            Process first =
                    fx.startChild(fx.ingestArgs(TABLE, firstArgs.toArray(String[]::new)), "first");
            try {
                awaitTrue(
                        () -> committedRows(fx) > 0 || !first.isAlive(),
                        Duration.ofMinutes(3),
                        () -> "a first commit; the run's stderr:\n" + fx.childErr("first"));
                assertThat(first.isAlive()).as(fx.childErr("first")).isTrue();
            } finally {
                first.destroyForcibly(); // SIGKILL
                first.waitFor(30, TimeUnit.SECONDS);
            }
            long before = committedRows(fx);
            assertThat(before).as(fx.childErr("first")).isBetween(1L, fx.rowsWritten() - 1);
            // the checkpoints are objects of the bucket, beside the table (the S3 server's files)
            Path metadata =
                    fx.store
                            .resolve(IngestFixture.BUCKET)
                            .resolve(PREFIX)
                            .resolve("s3mergetree_metadata");
            Path checkpoints = S3_PLUGIN ? metadata : tmp.resolve("checkpoints");
            assertThat(checkpointMetadataFiles(checkpoints)).as(fx.childErr("first")).isNotEmpty();

            List<String> again =
                    new ArrayList<>(fx.ingestArgs(TABLE, checkpointArgs().toArray(String[]::new)));
            Process second = fx.startChild(again, "second");
            assertThat(second.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(second.exitValue()).as(fx.childErr("second")).isZero();
            assertThat(fx.childErr("second"))
                    .contains(
                            "resuming from "
                                    + (S3_PLUGIN
                                            ? TABLE + "/s3mergetree_metadata/ingest-"
                                            : checkpoints.toUri().toString().replaceAll("/$", "")
                                                    + "/ingest-"));
            String json = lastLine(fx.childOut("second"));
            assertThat(json).startsWith("{\"rows\":" + fx.rowsWritten() + ",");
            assertThat(committedRows(fx)).isEqualTo(fx.rowsWritten());
            // a finished ingest leaves no checkpoints behind
            assertThat(checkpointMetadataFiles(checkpoints)).isEmpty();
            // nothing of the table on the local disk (no directory named "s3:")
            assertThat(Path.of("s3:")).doesNotExist();
            assertThat(tmp.resolve("s3:")).doesNotExist();

            fx.assertS3TableEqualToClickHouse(PREFIX);
        }
    }

    /** Rows committed so far, from the part log (the table may be mid-write). */
    private static long committedRows(IngestFixture fx) {
        try (TableStore s = fx.s3TableStore(TABLE)) {
            return new TableProgress(s).snapshot(0).rows();
        } catch (Exception e) {
            return 0;
        }
    }

    private static List<Path> checkpointMetadataFiles(Path metadata) throws Exception {
        if (!Files.isDirectory(metadata)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(metadata)) {
            return s.filter(p -> p.getFileName().toString().equals("_metadata")).toList();
        }
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines[lines.length - 1];
    }

    private interface Check {
        boolean ok() throws Exception;
    }

    private interface Detail {
        String get() throws Exception;
    }

    private static void awaitTrue(Check c, Duration timeout, Detail what) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what.get());
            }
            Thread.sleep(100);
        }
    }
}
