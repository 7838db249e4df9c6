package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Case 5: {@code ./s3-mergetree demo} from the repository root, as the README tells a user to run
 * it: exit code 0, the last stdout line a JSON summary with the requested number of rows, and the
 * script's class-data sharing archive in place.
 */
@ExtendWith(PackagedBuild.class)
class DemoScriptE2ECase {
    private static final int ROWS = 2_000;
    private static final int FILES = 2;

    /** The version whose CLI jar {@code ./s3-mergetree} runs (the default, Flink 2.x). */
    static final String SCRIPT_VERSION = "0.1.0-SNAPSHOT";

    @Test
    void demoScriptIngestsTheRequestedRows() throws Exception {
        // the script builds and runs the default line (its own embedded Flink 2.x MiniCluster);
        // the Flink 1.20 build (-Pflink-1.20) has no jar of that version to hand it
        assumeTrue(
                E2E.projectVersion().equals(SCRIPT_VERSION),
                "./s3-mergetree runs the Flink 2.x build; this build is " + E2E.projectVersion());
        Path root = E2E.projectRoot();
        recordThisBuildAsTheScriptsBuild(root);
        Path dir = E2E.newDir("demo-script");
        ManagedProcess demo =
                ManagedProcess.start(
                        "s3-mergetree-demo",
                        List.of(
                                root.resolve("s3-mergetree").toString(),
                                "demo",
                                "--rows",
                                Integer.toString(ROWS),
                                "--files",
                                Integer.toString(FILES),
                                "--parallelism",
                                "2",
                                "--work-dir",
                                dir.resolve("work").toString()),
                        root,
                        dir,
                        Map.of("S3_MERGETREE_JAVA_OPTS", "-Xmx768m"));
        int code = demo.waitFor(Duration.ofMinutes(5)); // a first run also writes the CDS archive
        assertThat(code).as(demo.describe()).isZero();

        assertThat(demo.stdout())
                .as("logs go to the run's log file (and to stderr with --verbose), not to stdout")
                .doesNotContainPattern(
                        "\\d\\d:\\d\\d:\\d\\d,\\d{3} +(TRACE|DEBUG|INFO|WARN|ERROR) ");
        String last = Cli.lastLine(demo.stdout());
        assertThat(last)
                .as("the last stdout line is the JSON summary; %s", demo.describe())
                .startsWith("{\"rows\":");
        JsonNode summary = E2E.JSON.readTree(last);
        assertThat(summary.path("rows").asLong())
                .as(demo.describe())
                .isEqualTo((long) ROWS * FILES);
        assertThat(summary.path("active_parts").asInt()).isGreaterThanOrEqualTo(1);
        assertThat(summary.path("parts_written").asInt())
                .isGreaterThanOrEqualTo(summary.path("active_parts").asInt());
        assertThat(summary.path("seconds").asDouble()).isPositive();
        assertThat(demo.stdout()).contains("ALTER TABLE posts ATTACH PART '");
        // the script's class-data sharing archive of this build (written by a training run when
        // missing, then used by this and every later start)
        assertThat(root.resolve("cli/target/s3-mergetree.jsa"))
                .as(demo.describe())
                .isNotEmptyFile();
        try (Stream<Path> parts = Files.list(dir.resolve("work/table"))) {
            assertThat(parts.filter(p -> p.getFileName().toString().startsWith("20")).count())
                    .isGreaterThanOrEqualTo(summary.path("active_parts").asLong());
        }
    }

    /**
     * The script builds the project ({@code mvn install}) when its cache in {@code cli/target} is
     * missing or older than a source file. The Maven run executing this test has just built every
     * module from the current sources, so instead of a nested {@code mvn install} (minutes, and it
     * would write to the local repository from inside a test) the cache records this build: the
     * command's classpath as this module's test classpath resolved it (the reactor's freshly built
     * jars, without the test jars: {@link E2E#productClasspath()}), and a fresh stamp. A cache that
     * is still valid is left alone.
     */
    static void recordThisBuildAsTheScriptsBuild(Path root) throws IOException {
        Path target = root.resolve("cli/target");
        Path stamp = target.resolve("s3-mergetree.stamp");
        Path cpFile = target.resolve("s3-mergetree.classpath");
        Path jar = target.resolve("s3-mergetree-cli-" + SCRIPT_VERSION + ".jar");
        assertThat(jar).as("the CLI jar of this build").isRegularFile();
        if (Files.isRegularFile(stamp)
                && Files.isRegularFile(cpFile)
                && !sourcesNewerThan(root, Files.getLastModifiedTime(stamp))) {
            return;
        }
        Path ownModule = root.resolve("e2e-tests");
        List<String> cp =
                Arrays.stream(E2E.productClasspath().split(java.io.File.pathSeparator))
                        .filter(e -> !e.isBlank() && !Path.of(e).startsWith(ownModule))
                        .collect(Collectors.toCollection(ArrayList::new));
        Files.writeString(cpFile, String.join(java.io.File.pathSeparator, cp));
        Files.writeString(stamp, "");
        Files.setLastModifiedTime(stamp, FileTime.fromMillis(System.currentTimeMillis()));
    }

    /** The script's test: a pom.xml or a file under a src/ directory newer than {@code time}. */
    private static boolean sourcesNewerThan(Path root, FileTime time) throws IOException {
        try (Stream<Path> files =
                Files.walk(root)
                        .filter(
                                p -> {
                                    Path rel = root.relativize(p);
                                    for (Path part : rel) {
                                        String n = part.toString();
                                        if (n.equals("target") || n.equals(".git")) {
                                            return false;
                                        }
                                    }
                                    return !rel.startsWith("tools");
                                })) {
            return files.filter(Files::isRegularFile)
                    .filter(
                            p ->
                                    p.getFileName().toString().equals("pom.xml")
                                            || root.relativize(p).toString().contains("src/"))
                    .anyMatch(
                            p -> {
                                try {
                                    return Files.getLastModifiedTime(p).compareTo(time) > 0;
                                } catch (IOException e) {
                                    return true;
                                }
                            });
        }
    }
}
