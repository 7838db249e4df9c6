package io.github.s3mergetree.cli.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RunDirectories}: a run's scratch directory is removed at its exit; the directory of a run
 * that was killed is removed by the next run, and that of a live process (another JVM holding its
 * lock) never is, however old.
 */
class RunDirectoriesTest {
    @TempDir Path tmp;

    /** A child JVM: takes a scratch directory, prints it, writes into it and waits to be killed. */
    public static void main(String[] args) throws Exception {
        Path dir = RunDirectories.scratch();
        Files.writeString(dir.resolve("flink-rpc-akka0000.jar"), "x");
        Files.createDirectories(dir.resolve("minicluster_0000/tm_0"));
        System.out.println(dir);
        System.out.flush();
        if (args.length > 0 && args[0].equals("exit")) {
            return;
        }
        if (args.length > 0 && args[0].equals("exit-busy")) {
            // as Flink's own shutdown hooks do at the same time as ours: files created and
            // deleted in the scratch directory while the JVM exits
            Runtime.getRuntime().addShutdownHook(new Thread(() -> churn(dir, 400)));
            Thread churner = new Thread(() -> churn(dir, 400));
            churner.start();
            Thread.sleep(50);
            System.exit(0);
        }
        Thread.sleep(600_000);
    }

    /** Creates and deletes files and directories in {@code dir} for {@code millis}. */
    private static void churn(Path dir, long millis) {
        long end = System.currentTimeMillis() + millis;
        for (int i = 0; System.currentTimeMillis() < end; i++) {
            try {
                Path sub = Files.createDirectory(dir.resolve("io-" + i));
                Files.writeString(sub.resolve("spill"), "x");
                if (i % 2 == 0) {
                    Files.delete(sub.resolve("spill"));
                    Files.delete(sub);
                }
            } catch (java.io.IOException e) {
                // the directory is being deleted: as for Flink, a failed write at exit
            }
        }
    }

    private Process child(Path javaTmp, String... args) throws Exception {
        List<String> cmd =
                new java.util.ArrayList<>(
                        List.of(
                                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                "-Djava.io.tmpdir=" + javaTmp,
                                "-cp",
                                System.getProperty("java.class.path"),
                                RunDirectoriesTest.class.getName()));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static Path firstLine(Process p) throws Exception {
        BufferedReader r =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return Path.of(r.readLine());
    }

    @Test
    void removesOnlyTheDirectoriesOfDeadRuns() throws Exception {
        Path javaTmp = Files.createDirectories(tmp.resolve("java-tmp"));
        Process live = child(javaTmp);
        Process killed = child(javaTmp);
        try {
            Path liveDir = firstLine(live);
            Path killedDir = firstLine(killed);
            Path runs = liveDir.getParent();
            assertThat(runs.getParent().getFileName().toString()).startsWith("s3-mergetree-");
            assertThat(killedDir.getParent()).isEqualTo(runs);
            killed.destroyForcibly(); // SIGKILL: no shutdown hook runs
            killed.waitFor(30, TimeUnit.SECONDS);
            assertThat(killedDir.resolve("minicluster_0000")).isDirectory();

            // young entries are left alone (a run may be between taking its lock and its directory)
            assertThat(RunDirectories.removeDeadRuns(runs)).isZero();
            assertThat(killedDir).isDirectory();

            // an hour later: the killed run's directory goes, the live one's stays
            ageEverything(runs);
            assertThat(RunDirectories.removeDeadRuns(runs)).isEqualTo(1);
            assertThat(killedDir).doesNotExist();
            assertThat(runs.resolve(killedDir.getFileName() + ".lock")).doesNotExist();
            assertThat(liveDir.resolve("flink-rpc-akka0000.jar")).isRegularFile();
            assertThat(RunDirectories.removeDeadRuns(runs)).isZero();

            // a run that exits normally removes its own directory
            Process exits = child(javaTmp, "exit");
            Path exitsDir = firstLine(exits);
            assertThat(exits.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(exitsDir).doesNotExist();
            assertThat(runs.resolve(exitsDir.getFileName() + ".lock")).doesNotExist();
            assertThat(liveDir).isDirectory();
        } finally {
            live.destroyForcibly();
            killed.destroyForcibly();
            live.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void anExitingRunRemovesItsDirectoryWhileOtherShutdownHooksWriteInIt() throws Exception {
        Path javaTmp = Files.createDirectories(tmp.resolve("java-tmp"));
        for (int round = 0; round < 3; round++) {
            Process exits = child(javaTmp, "exit-busy");
            Path dir = firstLine(exits);
            assertThat(exits.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(dir).as("round %d", round).doesNotExist();
            assertThat(dir.resolveSibling(dir.getFileName() + ".lock")).doesNotExist();
        }
    }

    /** Sets every entry's modification time an hour back. */
    static void ageEverything(Path dir) throws Exception {
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                Files.setLastModifiedTime(p, old);
            }
        }
    }
}
