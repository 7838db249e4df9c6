package io.github.s3mergetree.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tools/cli-classpath.sh}, the classpath {@code ./s3-mergetree} runs the command with after
 * its own build: the cli module's compile and runtime dependencies and no test artifact.
 * (tools/examples-classpath.sh before the command had its own module.) Until 2026-12-07 the
 * script's Maven call filtered by {@code -Dmdep.includeScope}, which maven-dependency-plugin does
 * not read, so every test jar was on the command's classpath and Log4j took a {@code
 * log4j2-test.properties} from one of them (logging to stdout); the e2e test of the script writes
 * its cache itself and never saw it.
 *
 * <p>Tagged "installed": the script resolves this build's modules from the local Maven repository,
 * so it runs in {@code mvn -Pheavy-tests verify -pl cli}, which CI runs after {@code mvn install}.
 */
@Tag("installed")
class CliClasspathScriptTest {
    @TempDir Path tmp;

    @Test
    void writesTheCommandsRuntimeClasspathWithoutTestArtifacts() throws Exception {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path script = root.resolve("tools/cli-classpath.sh");
        Path out = tmp.resolve("command.classpath");
        Files.writeString(out, "/stale/entry-tests.jar"); // an old file must not survive
        Path log = tmp.resolve("script.log");
        Process p =
                new ProcessBuilder("bash", script.toString(), out.toString(), "-o")
                        .redirectErrorStream(true)
                        .redirectOutput(log.toFile())
                        .start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the script ends").isTrue();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(output).isZero();

        List<String> entries =
                Arrays.stream(Files.readString(out).trim().split(":"))
                        .filter(e -> !e.isEmpty())
                        .toList();
        assertThat(entries).as(output).hasSizeGreaterThan(100);
        for (String e : entries) {
            assertThat(Path.of(e)).as("a classpath entry").isRegularFile();
        }
        List<String> names =
                entries.stream().map(e -> Path.of(e).getFileName().toString()).toList();
        // the command's own modules and its runtime
        assertThat(names)
                .anyMatch(n -> n.matches("mergetree-engine-[0-9.]+(-1\\.20)?-SNAPSHOT\\.jar"))
                .anyMatch(n -> n.matches("flink-connector-mergetree-sink-.*\\.jar"))
                .anyMatch(n -> n.matches("flink-runtime-[0-9.]+\\.jar"))
                .anyMatch(n -> n.matches("log4j-core-.*\\.jar"));
        // no test artifact: test jars, JUnit, AssertJ, Testcontainers, Flink's test utilities
        assertThat(names)
                .noneMatch(n -> n.endsWith("-tests.jar"))
                .noneMatch(n -> n.startsWith("junit"))
                .noneMatch(n -> n.startsWith("assertj"))
                .noneMatch(n -> n.startsWith("testcontainers"))
                .noneMatch(n -> n.startsWith("flink-test-utils"));
        assertThat(jarsHolding(entries, "log4j2-test.properties"))
                .as("Log4j must find the command's log4j2.properties, not a test configuration")
                .isEmpty();
    }

    private static List<String> jarsHolding(List<String> entries, String resource)
            throws IOException {
        List<String> holding = new ArrayList<>();
        for (String e : entries) {
            if (!e.endsWith(".jar")) {
                continue;
            }
            try (ZipFile zip = new ZipFile(e)) {
                if (zip.getEntry(resource) != null) {
                    holding.add(e);
                }
            }
        }
        return holding;
    }
}
