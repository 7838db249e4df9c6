package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;

/**
 * The SQL connector jar users put into Flink's {@code lib/} or hand to the SQL Client: small, and
 * conflicting with nothing on a cluster. Every class in it is this project's or relocated under
 * {@code io.github.s3mergetree.shaded}, except zstd-jni, whose native code is bound to its class
 * names; it carries no Hadoop (Parquet is read without it).
 */
class SqlConnectorJarTest {
    /** The limit on the jar's size; it was 89.5 MB with Hadoop, 37 MB without. */
    static final long MAX_BYTES = 40L * 1024 * 1024;

    /** Class packages that may stay unrelocated. */
    static final List<String> UNRELOCATED_CLASSES_ALLOWED =
            List.of("io/github/s3mergetree/", "com/github/luben/zstd/");

    @Test
    void theJarIsAtMost40MegabytesAndEveryForeignClassIsRelocated() throws Exception {
        Path jar = SqlClientE2ECase.sqlConnectorJar();
        assertThat(Files.size(jar)).as("size of %s", jar).isLessThanOrEqualTo(MAX_BYTES);
        List<String> unrelocated = new ArrayList<>();
        List<String> hadoop = new ArrayList<>();
        int classes = 0;
        try (JarFile f = new JarFile(jar.toFile())) {
            for (JarEntry e : f.stream().toList()) {
                String name = e.getName();
                if (!name.endsWith(".class")) {
                    continue;
                }
                classes++;
                if (name.contains("org/apache/hadoop/")) {
                    hadoop.add(name);
                }
                // META-INF/versions/N/...: none may be there, the jar is not multi-release
                if (UNRELOCATED_CLASSES_ALLOWED.stream().noneMatch(name::startsWith)) {
                    unrelocated.add(name);
                }
            }
        }
        assertThat(classes).as("classes in the jar").isGreaterThan(1000);
        assertThat(hadoop).as("Hadoop classes").isEmpty();
        assertThat(unrelocated).as("classes outside io.github.s3mergetree and zstd-jni").isEmpty();
    }
}
