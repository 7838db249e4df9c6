package io.github.s3mergetree.engine.testing;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/** Table stores for tests that run against both stores: the POSIX store and S3 (S3Proxy). */
public final class TestStores {
    private TestStores() {}

    /** The S3 configuration of {@code bucket} on the S3 server at {@code endpoint}. */
    public static ObjectStoreConfig s3Config(URI endpoint, String bucket) {
        return ObjectStoreConfig.s3(
                        bucket,
                        endpoint,
                        "us-east-1",
                        true,
                        S3ProxyServer.ACCESS_KEY,
                        S3ProxyServer.SECRET_KEY,
                        Duration.ofSeconds(5),
                        Duration.ofSeconds(60),
                        32)
                .withUploadPartSize(5L << 20);
    }

    /** The table under {@code prefix} (ending with /) of {@code bucket}. */
    public static TableStore s3(URI endpoint, String bucket, String prefix) {
        return TableStore.of(
                s3Config(endpoint, bucket).createClient(),
                prefix,
                "s3://" + bucket + "/" + prefix.substring(0, prefix.length() - 1));
    }

    /** The table {@code name}: a directory under {@code dir}, or a prefix of the bucket. */
    public static TableStore of(
            String kind, Path dir, S3ProxyServer server, String bucket, String name) {
        return kind.equals("s3")
                ? s3(server.endpoint(), bucket, name + "/")
                : LocalParts.store(dir.resolve(name));
    }
}
