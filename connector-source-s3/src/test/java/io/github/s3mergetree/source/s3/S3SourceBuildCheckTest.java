package io.github.s3mergetree.source.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.S3TestServer;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate-on-build}: mistakes about the object store fail {@code build()} within seconds,
 * naming what is wrong, instead of the running job after its retries.
 */
class S3SourceBuildCheckTest {
    static S3TestServer s3;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3TestServer();
        s3.createBucket("data");
        s3.put("data", "events/a.csv", "id\n1\n".getBytes(StandardCharsets.UTF_8));
    }

    @AfterAll
    static void stop() throws Exception {
        s3.close();
    }

    private static S3SourceBuilder<Block> builder(String location) {
        return S3Source.builder()
                .forTable("CREATE TABLE t (id Int64) ENGINE = MergeTree ORDER BY id")
                .setFormat("CSVWithNames")
                .setLocation(location)
                .setEndpoint(s3.endpoint())
                .setPathStyleAccess(true)
                .setCredentials(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY);
    }

    @Test
    void aGoodLocationBuilds() {
        assertThat(builder("s3://data/events/*.csv").build().pattern().glob())
                .isEqualTo("events/*.csv");
    }

    @Test
    void aWrongSecretFailsTheBuildNamingTheCredentials() {
        long t0 = System.nanoTime();
        assertThatThrownBy(
                        () ->
                                builder("s3://data/events/*.csv")
                                        .setCredentials(S3ProxyServer.ACCESS_KEY, "wrong")
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot list s3://data/events/*.csv")
                .hasMessageContaining("check the credentials")
                .hasMessageNotContaining("wrong");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aMissingBucketFailsTheBuild() {
        assertThatThrownBy(() -> builder("s3://nobucket/events/*.csv").build())
                .hasMessageContaining("s3://nobucket/events/*.csv")
                .hasMessageContaining("bucket");
    }

    @Test
    void anUnreachableEndpointFailsTheBuildQuickly() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        long t0 = System.nanoTime();
        assertThatThrownBy(
                        () ->
                                builder("s3://data/events/*.csv")
                                        .setEndpoint(URI.create("http://127.0.0.1:" + port))
                                        .build())
                .hasMessageContaining("cannot reach the object store")
                .hasMessageContaining("validate-on-build = false");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
        // the opt-out builds without contacting the store
        assertThat(
                        builder("s3://data/events/*.csv")
                                .setEndpoint(URI.create("http://127.0.0.1:" + port))
                                .setOption(S3SourceOptions.VALIDATE_ON_BUILD, false)
                                .build())
                .isNotNull();
    }

    @Test
    void aLocationMatchingNothingBuildsAndIsReportedEmpty(@TempDir Path dir) throws Exception {
        S3Source<Block> source = builder("s3://data/nothing/*.csv").build();
        assertThat(
                        BuildTimeCheck.check(
                                source.storeConfig(),
                                source.pattern(),
                                "s3://data/nothing/*.csv",
                                false))
                .isZero();
        Files.writeString(dir.resolve("x.csv"), "id\n1\n");
        S3Source<Block> local =
                S3Source.builder()
                        .forTable("CREATE TABLE t (id Int64) ENGINE = MergeTree ORDER BY id")
                        .setFormat("CSVWithNames")
                        .setLocation("file://" + dir + "/*.csv")
                        .build();
        assertThat(
                        BuildTimeCheck.check(
                                local.storeConfig(), local.pattern(), "file://" + dir, false))
                .isEqualTo(1);
    }
}
