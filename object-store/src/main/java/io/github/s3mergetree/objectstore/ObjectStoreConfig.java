package io.github.s3mergetree.objectstore;

import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the objects live and how to reach them: an S3 bucket (endpoint override, region, path-style
 * access, static credentials or the AWS default chain, timeouts) or a local directory ({@code
 * file://}). Serializable: it travels to the enumerator and every reader, which each create their
 * own {@link ObjectStoreClient}.
 *
 * <p>Secrets: {@link #toString()} never prints the secret key.
 */
public final class ObjectStoreConfig implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String scheme;
    private final String bucket;
    private final String endpoint;
    private final String region;
    private final boolean pathStyle;
    private final String accessKey;
    private final String secretKey;
    private final Duration connectTimeout;
    private final Duration requestTimeout;
    private final int maxConnections;

    ObjectStoreConfig(
            String scheme,
            String bucket,
            String endpoint,
            String region,
            boolean pathStyle,
            String accessKey,
            String secretKey,
            Duration connectTimeout,
            Duration requestTimeout,
            int maxConnections) {
        this.scheme = scheme;
        this.bucket = bucket;
        this.endpoint = endpoint;
        this.region = region;
        this.pathStyle = pathStyle;
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.connectTimeout = connectTimeout;
        this.requestTimeout = requestTimeout;
        this.maxConnections = maxConnections;
    }

    /** A bucket on S3 or an S3-compatible server. */
    public static ObjectStoreConfig s3(
            String bucket,
            URI endpoint,
            String region,
            boolean pathStyle,
            String accessKey,
            String secretKey,
            Duration connectTimeout,
            Duration requestTimeout,
            int maxConnections) {
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("bucket must not be empty, got '" + bucket + "'");
        }
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException(
                    "static credentials need both an access key and a secret key");
        }
        return new ObjectStoreConfig(
                "s3",
                bucket,
                endpoint == null ? null : endpoint.toString(),
                region,
                pathStyle,
                accessKey,
                secretKey,
                Objects.requireNonNull(connectTimeout, "connectTimeout"),
                Objects.requireNonNull(requestTimeout, "requestTimeout"),
                maxConnections);
    }

    /** A local directory; keys are paths relative to it. */
    public static ObjectStoreConfig localDirectory(String rootDirectory) {
        return new ObjectStoreConfig(
                "file", rootDirectory, null, null, false, null, null, null, null, 0);
    }

    public boolean isLocal() {
        return scheme.equals("file");
    }

    /** The bucket, or the root directory of a local store. */
    public String bucket() {
        return bucket;
    }

    public String endpoint() {
        return endpoint;
    }

    public String region() {
        return region;
    }

    public boolean pathStyle() {
        return pathStyle;
    }

    String accessKey() {
        return accessKey;
    }

    String secretKey() {
        return secretKey;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration requestTimeout() {
        return requestTimeout;
    }

    public int maxConnections() {
        return maxConnections;
    }

    /** A new client; the caller closes it. */
    public ObjectStoreClient createClient() {
        return isLocal()
                ? new LocalFileObjectStoreClient(java.nio.file.Path.of(bucket))
                : new AwsS3ObjectStoreClient(this);
    }

    @Override
    public String toString() {
        return isLocal()
                ? "file://" + bucket
                : "s3://"
                        + bucket
                        + (endpoint == null ? "" : " via " + endpoint)
                        + (region == null ? "" : " region " + region)
                        + (pathStyle ? " path-style" : "")
                        + (accessKey == null ? " default credentials" : " static credentials");
    }
}
