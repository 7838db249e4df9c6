package io.github.s3mergetree.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The connectors as users depend on them, each case a small Maven project of its own under {@code
 * src/test/projects/} built by a nested {@code mvn verify} against this build's artifacts (staged
 * in a repository of their own; third-party artifacts come from the local repository, no network):
 * a DataStream job on blocks without any Table API jar ({@code datastream-blocks}), a Table API /
 * SQL program ({@code table-api}), a user's shaded job jar submitted to the standalone cluster
 * ({@code job-jar}); and neither that jar nor the job jar the cli module builds carries a class
 * that the Flink cluster's own jars have.
 */
@ExtendWith({PackagedBuild.class, FlinkClusterExtension.class})
class DependencyProjectsE2ECase {
    static final List<String> MODULES =
            List.of(
                    "engine:mergetree-engine",
                    "object-store:object-store",
                    "connector-common:flink-connector-s3-mergetree-common",
                    "connector-source-s3:flink-connector-s3-source",
                    "clickhouse-delivery:clickhouse-delivery",
                    "connector-sink-mergetree:flink-connector-mergetree-sink");
    static Path repo;
    static Path settings;

    /** Stages this build's artifacts (jars and flattened poms) into a repository of their own. */
    @BeforeAll
    static void stageArtifacts() throws IOException {
        Path root = E2E.projectRoot();
        String v = E2E.projectVersion();
        repo = E2E.newDir("projects-repo");
        stage(root.resolve("target/.flattened-pom.xml"), "s3-mergetree-parent", v, "pom");
        for (String m : MODULES) {
            String dir = m.substring(0, m.indexOf(':'));
            String artifact = m.substring(m.indexOf(':') + 1);
            stage(root.resolve(dir + "/target/.flattened-pom.xml"), artifact, v, "pom");
            stage(root.resolve(dir + "/target/" + artifact + "-" + v + ".jar"), artifact, v, "jar");
        }
        String local = System.getProperty("e2e.maven.repo.local");
        assertThat(local).as("e2e.maven.repo.local (set by the pom)").isNotBlank();
        settings = repo.resolveSibling(repo.getFileName() + "-settings.xml");
        Files.writeString(
                settings,
                "<settings><mirrors><mirror><id>local-repository</id><mirrorOf>*</mirrorOf>"
                        + "<url>"
                        + Path.of(local).toUri()
                        + "</url></mirror></mirrors></settings>");
    }

    private static void stage(Path file, String artifact, String version, String ext)
            throws IOException {
        assertThat(file).as("built artifact").isRegularFile();
        Path target =
                repo.resolve("io/github/s3mergetree")
                        .resolve(artifact)
                        .resolve(version)
                        .resolve(artifact + "-" + version + "." + ext);
        Files.createDirectories(target.getParent());
        Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** {@code mvn -B verify} of the project {@code name} (one test); returns its output. */
    private static String build(String name) {
        String out = build(name, E2E.newDir("project-" + name));
        assertThat(out).contains("Tests run: 1, Failures: 0, Errors: 0");
        return out;
    }

    /** {@code mvn -B verify} of the project {@code name} in {@code dir}; returns its output. */
    private static String build(String name, Path dir) {
        Path project = E2E.projectRoot().resolve("e2e-tests/src/test/projects/" + name);
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                "mvn",
                                "-B",
                                "-s",
                                settings.toString(),
                                "-Dmaven.repo.local=" + repo,
                                "-Ds3mergetree.version=" + E2E.projectVersion(),
                                "-Dflink.version=" + FlinkStandaloneCluster.flinkVersion(),
                                "-DbuildDirectory=" + dir.resolve("target"),
                                "-f",
                                project.resolve("pom.xml").toString(),
                                "verify"));
        ManagedProcess mvn = ManagedProcess.start("mvn-" + name, cmd, dir, dir, Map.of());
        int code = mvn.waitFor(Duration.ofMinutes(8));
        assertThat(code).as("mvn verify of %s\n%s", name, mvn.describe()).isZero();
        return mvn.stdout();
    }

    @Test
    void aDataStreamJobOnBlocksNeedsNoTableApi() {
        build("datastream-blocks");
    }

    @Test
    void aTableApiProgramReadsAndWritesWithSql() {
        build("table-api");
    }

    @Test
    void theJobJarHasNoClassTheFlinkClusterHas() {
        assertNoClassOfTheCluster(Ingest.jobJar());
    }

    /**
     * A user's job jar (maven-shade-plugin, Flink {@code provided}, as Flink's quickstart): the
     * connectors' scopes keep every class of the cluster out of it, and {@code flink run} of it on
     * the standalone cluster (a RowData job with a lambda filter) writes the rows ClickHouse keeps
     * with the same filter.
     */
    @Test
    void aUserJobJarRunsOnTheCluster(FlinkStandaloneCluster cluster) throws IOException {
        Path dir = E2E.newDir("project-job-jar");
        build("job-jar", dir);
        Path jar = dir.resolve("target/job-jar-1.jar");
        assertNoClassOfTheCluster(jar);

        List<Path> files = Posts.generate(2, 1_000, 5);
        try (S3ServerProcess s3 = S3ServerProcess.start(dir.resolve("s3"), dir)) {
            s3.createBucket("posts");
            Posts.upload(s3, "posts", "in/", files);
            Path table = dir.resolve("table");
            ManagedProcess run =
                    cluster.flinkRun(
                            "flink-run-job-jar",
                            jar,
                            List.of(
                                    "s3://posts/in/*.parquet",
                                    s3.endpoint().toString(),
                                    S3ServerProcess.ACCESS_KEY,
                                    S3ServerProcess.SECRET_KEY,
                                    table.toString(),
                                    Posts.ddlFile().toString()));
            int code = run.waitFor(Duration.ofMinutes(5));
            assertThat(code).as("%s\n%s", run.describe(), cluster.describe()).isZero();
            Judge.Verdict v =
                    Judge.assertEqualToClickHouse(
                            table,
                            s3.endpoint() + "/posts/in/*.parquet",
                            "Score > 0",
                            dir.resolve("chdb"));
            // the filter kept some rows and dropped others
            assertThat(v.actualRows()).isPositive().isLessThan(2_000);
        }
    }

    private static void assertNoClassOfTheCluster(Path jobJar) {
        Set<String> flink = new HashSet<>();
        for (String jar : FlinkStandaloneCluster.flinkClasspath().split(File.pathSeparator)) {
            if (jar.endsWith(".jar")) {
                flink.addAll(classes(Path.of(jar)));
            }
        }
        assertThat(flink).hasSizeGreaterThan(10_000);
        Set<String> job = classes(jobJar);
        assertThat(job).anyMatch(c -> c.startsWith("io/github/s3mergetree/sink/"));
        Set<String> both = new TreeSet<>(job);
        both.retainAll(flink);
        assertThat(both).as("classes of %s that the Flink cluster has", jobJar).isEmpty();
    }

    private static Set<String> classes(Path jar) {
        Set<String> out = new HashSet<>();
        try (JarFile f = new JarFile(jar.toFile())) {
            for (Enumeration<JarEntry> e = f.entries(); e.hasMoreElements(); ) {
                String n = e.nextElement().getName();
                if (n.endsWith(".class")
                        && !n.startsWith("META-INF/")
                        && !n.endsWith("module-info.class")
                        && !n.endsWith("package-info.class")) {
                    out.add(n);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return out;
    }
}
