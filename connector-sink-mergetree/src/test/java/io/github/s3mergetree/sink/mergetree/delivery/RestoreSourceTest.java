package io.github.s3mergetree.sink.mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.restore.RestoreDelivery;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

/** Where the server is told to read an {@code s3://} table from, and with which keys. */
class RestoreSourceTest {
    private static S3TableStorage table(String endpoint, String region, boolean pathStyle) {
        return new S3TableStorage(
                ObjectStoreConfig.s3(
                        "bkt",
                        endpoint == null ? null : URI.create(endpoint),
                        region,
                        pathStyle,
                        null,
                        null,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(30),
                        8),
                "tables/posts");
    }

    private static Configuration keys(String ak, String sk) {
        Configuration c = new Configuration();
        c.set(MergeTreeSinkOptions.TABLE_S3_ACCESS_KEY, ak);
        c.set(MergeTreeSinkOptions.TABLE_S3_SECRET_KEY, sk);
        return c;
    }

    @Test
    void pathStyleEndpointPutsTheBucketInThePath() {
        RestoreDelivery.Source s =
                DeliveryCoordinator.restoreSource(
                        table("http://127.0.0.1:9000", "us-east-1", true), keys("K", "S"));
        assertThat(s.rootUrl()).isEqualTo("http://127.0.0.1:9000/bkt/tables/posts");
        assertThat(s.accessKeyId()).isEqualTo("K");
        assertThat(s.secretAccessKey()).isEqualTo("S");
        assertThat(s.toString())
                .as("the secret is never printed")
                .doesNotContain("S")
                .contains("key K");
    }

    @Test
    void virtualHostedEndpointPutsTheBucketInTheHost() {
        assertThat(
                        DeliveryCoordinator.restoreSource(
                                        table("https://minio.example:9443", null, false),
                                        keys("K", "S"))
                                .rootUrl())
                .isEqualTo("https://bkt.minio.example:9443/tables/posts");
    }

    @Test
    void noEndpointIsAwsRegional() {
        assertThat(
                        DeliveryCoordinator.restoreSource(
                                        table(null, "eu-west-1", false), keys("K", "S"))
                                .rootUrl())
                .isEqualTo("https://bkt.s3.eu-west-1.amazonaws.com/tables/posts");
    }

    @Test
    void theServersOwnUrlAndKeysWin() {
        Configuration c = keys("K", "S");
        c.set(MergeTreeSinkOptions.CLICKHOUSE_S3_URL, "http://s3.internal:9000/bkt/tables/posts/");
        c.set(MergeTreeSinkOptions.CLICKHOUSE_S3_ACCESS_KEY, "CK");
        c.set(MergeTreeSinkOptions.CLICKHOUSE_S3_SECRET_KEY, "CS");
        RestoreDelivery.Source s =
                DeliveryCoordinator.restoreSource(
                        table("http://127.0.0.1:9000", "us-east-1", true), c);
        assertThat(s.rootUrl()).isEqualTo("http://s3.internal:9000/bkt/tables/posts");
        assertThat(s.accessKeyId()).isEqualTo("CK");
        assertThat(s.secretAccessKey()).isEqualTo("CS");
    }

    @Test
    void anAccessKeyWithoutItsSecretIsRefused() {
        Configuration c = new Configuration();
        c.set(MergeTreeSinkOptions.CLICKHOUSE_S3_ACCESS_KEY, "CK");
        assertThatThrownBy(
                        () ->
                                DeliveryCoordinator.restoreSource(
                                        table("http://127.0.0.1:9000", "us-east-1", true), c))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("go together");
    }
}
