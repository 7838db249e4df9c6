package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.testutils.EventRows;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.data.RowData;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An {@code s3://} table is checked when the sink is built and when an {@code INSERT} into a {@code
 * 'mergetree'} table is planned ({@code validate-on-build}, as the source does): a wrong secret, a
 * missing bucket and an unreachable endpoint fail within seconds with one line saying which, before
 * any job exists; {@code validate-on-build = false} skips the check.
 */
class SinkBuildTimeCheckTest {
    private static S3ProxyServer s3;

    @BeforeAll
    static void startS3() throws Exception {
        s3 = new S3ProxyServer();
        s3.createBucket("bkt");
    }

    @AfterAll
    static void stopS3() throws Exception {
        s3.close();
    }

    private static MergeTreeSinkBuilder<RowData> sink(
            String endpoint, String bucket, String secret) {
        return MergeTreeSink.forRowData()
                .setRowType(EventRows.ROW_TYPE)
                .setTablePath("s3://" + bucket + "/tables/events")
                .setTableS3(endpoint, "us-east-1", true)
                .setTableCredentials(S3ProxyServer.ACCESS_KEY, secret)
                .setDdl(EventRows.ddl("events"));
    }

    /** An endpoint where nothing listens. */
    private static String unreachable() throws Exception {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return "http://127.0.0.1:" + s.getLocalPort();
        }
    }

    private static void failsFastWithOneLine(ThrowingCallable call, String... parts) {
        long start = System.nanoTime();
        assertThatThrownBy(call)
                .satisfies(
                        e -> {
                            Throwable root = e;
                            while (!(root instanceof IllegalArgumentException)
                                    && root.getCause() != null) {
                                root = root.getCause();
                            }
                            assertThat(root).isInstanceOf(IllegalArgumentException.class);
                            assertThat(root.getMessage())
                                    .doesNotContain("\n")
                                    .doesNotContain("wrong-secret")
                                    .contains(parts)
                                    .contains("validate-on-build = false skips this check");
                        });
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void buildRefusesAWrongSecretAMissingBucketAndAnUnreachableEndpoint() throws Exception {
        String endpoint = s3.endpoint().toString();
        failsFastWithOneLine(
                () -> sink(endpoint, "bkt", "wrong-secret").build(),
                "s3://bkt/tables/events",
                "check the credentials");
        failsFastWithOneLine(
                () -> sink(endpoint, "no-such-bucket", S3ProxyServer.SECRET_KEY).build(),
                "s3://no-such-bucket/tables/events",
                "does the bucket exist");
        failsFastWithOneLine(
                () -> sink(unreachable(), "bkt", S3ProxyServer.SECRET_KEY).build(),
                "cannot reach the object store of s3://bkt/tables/events",
                "check the endpoint");
        // the right settings build
        assertThat(sink(endpoint, "bkt", S3ProxyServer.SECRET_KEY).build()).isNotNull();
    }

    @Test
    void validateOnBuildFalseSkipsTheCheck() {
        MergeTreeSink<RowData> built =
                sink(s3.endpoint().toString(), "bkt", "wrong-secret")
                        .setOption(MergeTreeSinkOptions.VALIDATE_ON_BUILD, false)
                        .build();
        assertThat(built.storage().describe()).isEqualTo("s3://bkt/tables/events");
    }

    @Test
    void theTableStoreRetriesUnderTheS3RetrySettings() {
        String endpoint = s3.endpoint().toString();
        MergeTreeSink<RowData> defaults = sink(endpoint, "bkt", S3ProxyServer.SECRET_KEY).build();
        assertThat(((S3TableStorage) defaults.storage()).config().retryPolicy().maxAttempts())
                .isEqualTo(20);
        MergeTreeSink<RowData> set =
                sink(endpoint, "bkt", S3ProxyServer.SECRET_KEY)
                        .setOption(MergeTreeSinkOptions.S3_RETRY_ATTEMPTS, 7)
                        .setOption(MergeTreeSinkOptions.S3_RETRY_INITIAL_BACKOFF_MS, 10L)
                        .setOption(MergeTreeSinkOptions.S3_RETRY_MAX_BACKOFF_MS, 100L)
                        .build();
        RetryPolicy p = ((S3TableStorage) set.storage()).config().retryPolicy();
        assertThat(List.of(p.maxAttempts(), p.initialBackoffMs(), p.maxBackoffMs()))
                .containsExactly(7, 10L, 100L);
        assertThatThrownBy(
                        () ->
                                sink(endpoint, "bkt", S3ProxyServer.SECRET_KEY)
                                        .setOption(MergeTreeSinkOptions.S3_RETRY_MAX_BACKOFF_MS, 1L)
                                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "s3_retry_max_backoff_ms (1) must be >= s3_retry_initial_backoff_ms (50)"
                                + " >= 0");
    }

    private static String sinkTable(String secret, String extra) {
        return "CREATE TABLE events_sink (id BIGINT NOT NULL, name STRING) WITH ("
                + "'connector' = 'mergetree', 'path' = 's3://bkt/tables/sql',"
                + " 'engine' = 'MergeTree', 'order-by' = 'id',"
                + " 'table.s3.endpoint' = '"
                + s3.endpoint()
                + "', 'table.s3.path-style-access' = 'true',"
                + " 'table.s3.access-key' = '"
                + S3ProxyServer.ACCESS_KEY
                + "', 'table.s3.secret-key' = '"
                + secret
                + "'"
                + extra
                + ")";
    }

    @Test
    void planningAnInsertRefusesAWrongSecretUnlessValidateOnBuildIsFalse() {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.executeSql(sinkTable("wrong-secret", ""));
        failsFastWithOneLine(
                () ->
                        t.explainSql(
                                "INSERT INTO events_sink SELECT * FROM (VALUES (CAST(1 AS BIGINT),"
                                        + " 'a')) AS v(id, name)"),
                "s3://bkt/tables/sql",
                "check the credentials");

        TableEnvironment unchecked = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        unchecked.executeSql(sinkTable("wrong-secret", ", 'validate-on-build' = 'false'"));
        assertThat(
                        unchecked.explainSql(
                                "INSERT INTO events_sink SELECT * FROM (VALUES (CAST(1 AS BIGINT),"
                                        + " 'a')) AS v(id, name)"))
                .contains("events_sink");
    }
}
