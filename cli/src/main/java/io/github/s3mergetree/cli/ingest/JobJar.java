package io.github.s3mergetree.cli.ingest;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Finds the job jar ({@code s3-mergetree-cli-*-job.jar}: the connectors and their dependencies
 * without Flink's own classes) that {@code --jobmanager} ships to a cluster.
 */
final class JobJar {
    private JobJar() {}

    /** {@code explicit} if given, else the job jar in the {@code target/} this code runs from. */
    static Path locate(Path explicit) throws IOException {
        if (explicit != null) {
            if (!Files.isRegularFile(explicit)) {
                throw new IllegalArgumentException("--job-jar " + explicit + " does not exist");
            }
            return explicit;
        }
        Path here;
        try {
            here =
                    Path.of(
                            JobJar.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the job jar; pass --job-jar", e);
        }
        // cli/target/classes or cli/target/s3-mergetree-cli-<v>.jar
        Path target = here.getParent();
        if (target != null && Files.isDirectory(target)) {
            try (Stream<Path> s = Files.list(target)) {
                var jar =
                        s.filter(p -> p.getFileName().toString().endsWith("-job.jar")).findFirst();
                if (jar.isPresent()) {
                    return jar.get();
                }
            }
        }
        throw new IllegalArgumentException(
                "no *-job.jar next to "
                        + here
                        + ": build it with `mvn -pl cli -am package -DskipTests`, or pass"
                        + " --job-jar");
    }
}
