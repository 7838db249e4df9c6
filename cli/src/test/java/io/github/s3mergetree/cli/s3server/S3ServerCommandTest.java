package io.github.s3mergetree.cli.s3server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import io.github.s3mergetree.cli.testing.CommandRun;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Runs {@code s3-mergetree s3-server} in a thread and in a child JVM, and talks to it with the AWS
 * SDK v2: objects placed under {@code DIR/bucket/} are listed and read, a wrong secret gets 403,
 * SIGTERM stops it cleanly, and the secret key is never printed.
 */
class S3ServerCommandTest {
    static final Pattern JSON =
            Pattern.compile("\\{\"endpoint\":\"(http://127\\.0\\.0\\.1:(\\d+))\",\"port\":(\\d+)}");

    @TempDir Path tmp;

    @Test
    @Timeout(120)
    void servesTheDirectoryToTheAwsSdkAndRefusesAWrongSecret() throws Exception {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("data/logs"));
        Files.writeString(root.resolve("data/logs/a.csv"), "1,hello\n2,world\n");
        Files.writeString(root.resolve("data/b.txt"), "bee");

        InThread server = InThread.start(root, "ak-test", "sk-very-secret");
        S3ServerCommand command = server.command();
        CompletableFuture<Integer> exit = server.exit();
        ByteArrayOutputStream out = server.out();
        ByteArrayOutputStream err = server.err();
        Matcher m = server.json();
        assertThat(m.group(2)).isEqualTo(m.group(3));
        URI endpoint = server.endpoint();

        try (S3Client s3 = client(endpoint, "ak-test", "sk-very-secret")) {
            List<String> keys =
                    s3.listObjectsV2(b -> b.bucket("data")).contents().stream()
                            .map(S3Object::key)
                            .sorted()
                            .toList();
            // S3Proxy's filesystem store lists a subdirectory as a "logs/" marker object too
            assertThat(keys).containsExactly("b.txt", "logs/", "logs/a.csv");
            assertThat(s3.getObjectAsBytes(b -> b.bucket("data").key("logs/a.csv")).asUtf8String())
                    .isEqualTo("1,hello\n2,world\n");
            assertThat(
                            s3
                                    .listObjectsV2(b -> b.bucket("data").prefix("logs/"))
                                    .contents()
                                    .stream()
                                    .map(S3Object::size)
                                    .toList())
                    .containsExactly(16L);
        }
        try (S3Client wrong = client(endpoint, "ak-test", "not-the-secret")) {
            assertThatThrownBy(() -> wrong.getObjectAsBytes(b -> b.bucket("data").key("b.txt")))
                    .isInstanceOfSatisfying(
                            S3Exception.class, e -> assertThat(e.statusCode()).isEqualTo(403));
        }

        command.stop();
        assertThat(exit.get(30, TimeUnit.SECONDS)).isZero();
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(stderr)
                .contains(endpoint.toString())
                .contains("ak-test")
                .contains("buckets: data")
                .contains("stopped")
                .doesNotContain("sk-very-secret");
        assertThat(out.toString(StandardCharsets.UTF_8)).doesNotContain("sk-very-secret");
        // the port is free again
        try (S3Client s3 = client(endpoint, "ak-test", "sk-very-secret")) {
            assertThatThrownBy(() -> s3.listBuckets()).isNotInstanceOf(S3Exception.class);
        }
    }

    @Test
    @Timeout(120)
    void childJvmServesWithDefaultKeysAndStopsOnSigterm() throws Exception {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("bucket"));
        Files.writeString(root.resolve("bucket/x.json"), "{\"a\":1}\n");
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        Process p =
                new ProcessBuilder(
                                java.toString(),
                                "-cp",
                                System.getProperty("java.class.path"),
                                S3MergeTreeCommand.class.getName(),
                                "s3-server",
                                "--root",
                                root.toString())
                        .redirectError(tmp.resolve("stderr.txt").toFile())
                        .start();
        try {
            BufferedReader stdout =
                    new BufferedReader(
                            new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = stdout.readLine();
            assertThat(line).as("stderr: %s", stderr()).isNotNull();
            Matcher m = JSON.matcher(line);
            assertThat(m.matches()).as("stdout: %s", line).isTrue();
            try (S3Client s3 =
                    client(
                            URI.create(m.group(1)),
                            S3ServerCommand.DEFAULT_ACCESS_KEY,
                            S3ServerCommand.DEFAULT_SECRET_KEY)) {
                assertThat(
                                s3.getObjectAsBytes(b -> b.bucket("bucket").key("x.json"))
                                        .asUtf8String())
                        .isEqualTo("{\"a\":1}\n");
            }
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).isEqualTo(143);
            assertThat(stderr())
                    .contains("access key '" + S3ServerCommand.DEFAULT_ACCESS_KEY + "'")
                    .contains("stopped")
                    .doesNotContain(S3ServerCommand.DEFAULT_SECRET_KEY)
                    .doesNotContain("Exception");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void badPortAndHalfCredentialsAreUsageErrors() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        S3MergeTreeCommand c =
                new S3MergeTreeCommand(
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(c.run(new String[] {"s3-server", "--root", "x", "--port", "70000"}))
                .isEqualTo(2);
        assertThat(c.run(new String[] {"s3-server", "--root", "x", "--access-key", "k"}))
                .isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--port must be an integer in 0..65535")
                .contains("give both --access-key and --secret-key, or neither");
    }

    /** A bucket directory S3 would refuse stops the server at start-up, naming it and the rule. */
    @Test
    void refusesBucketDirectoriesS3WouldRefuse() throws Exception {
        Path root = tmp.resolve("root");
        Files.createDirectories(root.resolve("b"));
        Files.createDirectories(root.resolve("Upper_Case"));
        Files.createDirectories(root.resolve("good-bucket.1"));
        Files.createDirectories(root.resolve(".hidden"));
        CommandRun run = CommandRun.of("s3-server", "--root", root.toString());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .contains("'b' (S3 bucket names have 3 to 63 characters, this has 1)")
                .contains("'Upper_Case' (S3 bucket names consist of lowercase letters")
                .doesNotContain("good-bucket.1")
                .doesNotContain(".hidden")
                .doesNotContain("\tat ");

        for (String ok : List.of("abc", "a".repeat(63), "my.bucket-2", "0to9")) {
            assertThat(BucketNames.problem(ok)).as(ok).isEmpty();
        }
        for (String bad :
                List.of(
                        "ab",
                        "a".repeat(64),
                        "-abc",
                        "abc-",
                        "a..b",
                        "192.168.5.4",
                        "xn--abc",
                        "abc-s3alias",
                        "a b c",
                        "abc+d",
                        "ünï")) {
            assertThat(BucketNames.problem(bad)).as(bad).isPresent();
        }
    }

    private String stderr() throws java.io.IOException {
        Path f = tmp.resolve("stderr.txt");
        return Files.exists(f) ? Files.readString(f) : "";
    }

    /**
     * {@code s3-server --root ROOT --access-key AK --secret-key SK} running in a thread, started
     * and its JSON line on stdout read.
     */
    record InThread(
            S3ServerCommand command,
            CompletableFuture<Integer> exit,
            ByteArrayOutputStream out,
            ByteArrayOutputStream err,
            Matcher json) {
        URI endpoint() {
            return URI.create(json.group(1));
        }

        static InThread start(Path root, String accessKey, String secretKey) throws Exception {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            S3ServerCommand command = new S3ServerCommand();
            CompletableFuture<Integer> exit =
                    CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    return command.run(
                                            List.of(
                                                    "--root",
                                                    root.toString(),
                                                    "--access-key",
                                                    accessKey,
                                                    "--secret-key",
                                                    secretKey),
                                            new PrintStream(out, true, StandardCharsets.UTF_8),
                                            new PrintStream(err, true, StandardCharsets.UTF_8));
                                } catch (Exception e) {
                                    throw new RuntimeException(e);
                                }
                            });
            long deadline = System.currentTimeMillis() + 60_000;
            while (!out.toString(StandardCharsets.UTF_8).contains("\n")) {
                assertThat(exit).as("stderr: %s", err).isNotDone();
                assertThat(System.currentTimeMillis()).isLessThan(deadline);
                Thread.sleep(20);
            }
            String line = out.toString(StandardCharsets.UTF_8).strip();
            Matcher m = JSON.matcher(line);
            assertThat(m.matches()).as("stdout: %s", line).isTrue();
            return new InThread(command, exit, out, err, m);
        }
    }

    static S3Client client(URI endpoint, String accessKey, String secretKey) {
        return S3Client.builder()
                .endpointOverride(endpoint)
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .httpClientBuilder(Apache5HttpClient.builder())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(
                        StaticCredentialsProvider.create(
                                AwsBasicCredentials.create(accessKey, secretKey)))
                .build();
    }
}
