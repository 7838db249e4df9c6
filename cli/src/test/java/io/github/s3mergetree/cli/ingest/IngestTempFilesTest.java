package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code ingest} leaves in the temp directory, run as a child JVM with its own {@code
 * java.io.tmpdir}: while it runs, Flink's MiniCluster directories are in the run's scratch
 * directory under {@code s3-mergetree-<user>/runs/} and its RPC jar in {@code
 * s3-mergetree-<user>/rpc/} (one copy for all runs), never at the top of the temp directory, and
 * its log is {@code s3-mergetree-<user>/logs/<time>-<pid>.log}; killed with SIGKILL, it leaves its
 * scratch directory, which the next run removes; a run that ends leaves nothing but its log.
 */
class IngestTempFilesTest {
    @TempDir Path tmp;

    @Test
    void flinkTempFilesAreTheRunsOwnAndAKilledRunsAreRemovedByTheNext() throws Exception {
        Path javaTmp = Files.createDirectories(tmp.resolve("java-tmp"));
        String user = System.getProperty("user.name").replaceAll("[^A-Za-z0-9._-]", "_");
        Path base = javaTmp.resolve("s3-mergetree-" + user);
        List<String> jvm = List.of("-Djava.io.tmpdir=" + javaTmp);
        try (IngestFixture fx = new IngestFixture(tmp.resolve("fx"))) {
            // 24 objects at s3_max_get_rps=2: the first run is still reading (not exiting and
            // removing
            // its scratch directory) when its first commit is seen
            fx.addFiles(24, 1000);
            Path table = tmp.resolve("table");
            Process first =
                    fx.startChild(
                            fx.ingestArgs(
                                    table,
                                    "--checkpoint-interval",
                                    "1s",
                                    "--setting",
                                    "s3_max_get_rps=2"),
                            "first",
                            jvm);
            Path scratch;
            try {
                awaitTrue(() -> committed(table) > 0 || !first.isAlive(), Duration.ofMinutes(3));
                assertThat(first.isAlive()).as("still running").isTrue();
                List<Path> dirs =
                        list(base.resolve("runs")).stream().filter(Files::isDirectory).toList();
                assertThat(dirs).hasSize(1);
                scratch = dirs.get(0);
                assertThat(names(scratch))
                        .anyMatch(n -> n.startsWith("minicluster_"))
                        .noneMatch(n -> n.startsWith("flink-rpc-"));
                // Flink's RPC jar: one copy kept between runs (CachedRpcSystemLoader)
                assertThat(names(base.resolve("rpc")))
                        .singleElement()
                        .asString()
                        .matches("flink-rpc-\\d+-[0-9a-f]{8}\\.jar");
                assertThat(names(javaTmp))
                        .noneMatch(n -> n.startsWith("minicluster_") || n.startsWith("flink-"));
                assertThat(names(base.resolve("logs")))
                        .singleElement()
                        .asString()
                        .matches("\\d{8}-\\d{6}-" + first.pid() + "\\.log");
            } finally {
                first.destroyForcibly(); // SIGKILL
                assertThat(first.waitFor(30, TimeUnit.SECONDS)).as("killed").isTrue();
            }
            assertThat(scratch).as("a killed run cannot clean up").isDirectory();
            age(base.resolve("runs"));

            Process second =
                    fx.startChild(
                            fx.ingestArgs(table, "--checkpoint-interval", "1s"), "second", jvm);
            assertThat(second.waitFor(5, TimeUnit.MINUTES)).isTrue();
            assertThat(second.exitValue()).as(fx.childErr("second")).isZero();
            assertThat(IngestFixture.tableRows(table)).isEqualTo(fx.rowsWritten());
            assertThat(list(base.resolve("runs")))
                    .as("the killed run's (pid %d) and its own (pid %d)", first.pid(), second.pid())
                    .isEmpty();
            assertThat(names(javaTmp))
                    .noneMatch(n -> n.startsWith("minicluster_") || n.startsWith("flink-"));
            assertThat(names(base.resolve("logs"))).hasSize(2);
            assertThat(names(base.resolve("rpc"))).as("the same copy reused").hasSize(1);
        }
    }

    private static long committed(Path table) {
        try {
            return new TableProgress(table).snapshot(0).rows();
        } catch (Exception e) {
            return 0;
        }
    }

    private static List<Path> list(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    private static List<String> names(Path dir) throws Exception {
        return list(dir).stream().map(p -> p.getFileName().toString()).toList();
    }

    private static void age(Path dir) throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setLastModifiedTime(p, old);
            }
        }
    }

    private static void awaitTrue(java.util.function.BooleanSupplier c, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out");
            }
            Thread.sleep(200);
        }
    }
}
