package io.github.s3mergetree.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Where things are, free ports, JSON over HTTP and waiting: what every e2e case needs. */
final class E2E {
    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private E2E() {}

    /** The repository root (the directory of the root pom and of {@code ./s3-mergetree}). */
    static Path projectRoot() {
        String p = System.getProperty("e2e.project.root");
        if (p != null && !p.isBlank()) {
            return Path.of(p).toAbsolutePath().normalize();
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("s3-mergetree"))
                    && Files.isDirectory(d.resolve("e2e-tests"))) {
                return d;
            }
        }
        throw new IllegalStateException("cannot find the project root above " + Path.of(""));
    }

    /**
     * The version of the build under test ({@code 0.1.0-SNAPSHOT} for the Flink 2.x line, {@code
     * 0.1.0-1.20-SNAPSHOT} with {@code -Pflink-1.20}): the CLI's jar names carry it.
     */
    static String projectVersion() {
        return System.getProperty("e2e.project.version", "0.1.0-SNAPSHOT");
    }

    /** {@code ../shared} next to the repository (gen-posts.js, posts.sql). */
    static Path sharedDir() {
        String p = System.getProperty("shared.dir");
        Path dir = p != null && !p.isBlank() ? Path.of(p) : projectRoot().resolveSibling("shared");
        return dir.toAbsolutePath().normalize();
    }

    /** The directory the e2e cases keep their state and logs in ({@code e2e-tests/target/e2e}). */
    static Path workDir() {
        String p = System.getProperty("e2e.work.dir");
        Path dir =
                p != null && !p.isBlank()
                        ? Path.of(p)
                        : projectRoot().resolve("e2e-tests/target/e2e");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir.toAbsolutePath().normalize();
    }

    /** A fresh directory under {@link #workDir()} named after {@code prefix}. */
    static Path newDir(String prefix) {
        try {
            return Files.createTempDirectory(workDir(), prefix + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The test classpath (surefire runs tests from a manifest-only jar, so {@code java.class.path}
     * is not it): the product's classes and all their dependencies.
     */
    static String testClasspath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    /**
     * {@link #testClasspath()} without the project's test jars ({@code *-tests.jar}) and test class
     * directories: the classpath a user's {@code s3-mergetree} has. A test jar's {@code
     * log4j2-test.properties} takes precedence over the command's {@code log4j2.properties} and
     * logs Flink's warnings to stdout, where one written while the MiniCluster shuts down can
     * follow the command's JSON summary line (DemoScriptE2ECase failed so once).
     */
    static String productClasspath() {
        return java.util.Arrays.stream(testClasspath().split(java.io.File.pathSeparator))
                .filter(e -> !e.isBlank())
                .filter(e -> !e.endsWith("-tests.jar"))
                .filter(e -> !e.replace('\\', '/').endsWith("/test-classes"))
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    /** A port free on 127.0.0.1 right now. */
    static int freePort() {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** GET {@code url}; the status code and body. */
    static HttpResponse<String> get(String url) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GET {@code url} as JSON; fails unless 200. */
    static JsonNode getJson(String url) {
        try {
            HttpResponse<String> r = get(url);
            if (r.statusCode() != 200) {
                throw new IllegalStateException(
                        "GET " + url + " -> " + r.statusCode() + ": " + r.body());
            }
            return JSON.readTree(r.body());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + url + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Polls {@code condition} every 200 ms; fails with {@code what} after {@code timeout}. */
    static void await(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean ok;
            try {
                ok = condition.getAsBoolean();
            } catch (RuntimeException e) {
                ok = false;
            }
            if (ok) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            sleep(200);
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
