package io.github.s3mergetree.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * A standalone S3 API server in its own JVM on 127.0.0.1, serving a directory: the product's {@code
 * s3-mergetree s3-server --root DIR --port P --access-key K --secret-key S} when this build has
 * that subcommand, else S3Proxy's {@code org.gaul.s3proxy.Main} with a properties file (filesystem
 * store). Ended by PID on {@link #close()}.
 */
final class S3ServerProcess implements AutoCloseable {
    static final String ACCESS_KEY = "e2e-access";
    static final String SECRET_KEY = "e2e-secret";

    private static final Pattern PORT = Pattern.compile("\"port\":(\\d+)");

    private final ManagedProcess process;
    private final int port;
    private final Path root;
    private final S3Client client;

    private S3ServerProcess(ManagedProcess process, int port, Path root) {
        this.process = process;
        this.port = port;
        this.root = root;
        this.client = newClient(endpoint());
    }

    /**
     * Starts {@code s3-mergetree s3-server --root root --port 0} (created if missing), reads the
     * port it chose from its stdout line {@code {"endpoint":…,"port":P}} and waits until it answers
     * a signed request.
     */
    static S3ServerProcess start(Path root, Path logDir) {
        try {
            Files.createDirectories(root);
            ManagedProcess proc =
                    ManagedProcess.start(
                            "s3-server-" + root.getParent().getFileName(),
                            List.of(
                                    ManagedProcess.javaExecutable(),
                                    "-Xmx256m",
                                    "-cp",
                                    E2E.testClasspath(),
                                    Cli.MAIN,
                                    "s3-server",
                                    "--root",
                                    root.toString(),
                                    "--port",
                                    "0",
                                    "--access-key",
                                    ACCESS_KEY,
                                    "--secret-key",
                                    SECRET_KEY),
                            logDir,
                            logDir,
                            Map.of());
            try {
                int[] port = new int[1];
                E2E.await(
                        "the S3 server's endpoint line on stdout",
                        Duration.ofSeconds(60),
                        () -> {
                            if (!proc.isAlive()) {
                                throw new AssertionError("the S3 server died: " + proc.describe());
                            }
                            Matcher m = PORT.matcher(proc.stdout());
                            if (m.find()) {
                                port[0] = Integer.parseInt(m.group(1));
                                return true;
                            }
                            return false;
                        });
                S3ServerProcess server = new S3ServerProcess(proc, port[0], root);
                E2E.await(
                        "the S3 server on port " + port[0],
                        Duration.ofSeconds(30),
                        () -> {
                            server.client.listBuckets();
                            return true;
                        });
                return server;
            } catch (RuntimeException | Error e) {
                proc.stop(Duration.ofSeconds(5));
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An AWS SDK v2 client for {@code endpoint} with this server's credentials. */
    static S3Client newClient(URI endpoint) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .forcePathStyle(true)
                .region(Region.US_EAST_1)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY)))
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClientBuilder(Apache5HttpClient.builder().maxConnections(4))
                .build();
    }

    int port() {
        return port;
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    Path root() {
        return root;
    }

    S3Client client() {
        return client;
    }

    ManagedProcess process() {
        return process;
    }

    void createBucket(String bucket) {
        client.createBucket(b -> b.bucket(bucket));
    }

    /** PUTs {@code file} as {@code s3://bucket/key}. */
    void upload(String bucket, String key, Path file) {
        client.putObject(b -> b.bucket(bucket).key(key), RequestBody.fromFile(file));
    }

    @Override
    public void close() {
        client.close();
        process.stop(Duration.ofSeconds(10));
    }
}
