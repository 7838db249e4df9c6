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
    private final long uploadPartSize;
    private final boolean conditionalWrites;
    private final RetryPolicy retryPolicy;

    /** The default part size of multipart uploads: 8 MiB (S3's minimum is 5 MiB). */
    public static final long DEFAULT_UPLOAD_PART_SIZE = 8L << 20;

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
        this(
                scheme,
                bucket,
                endpoint,
                region,
                pathStyle,
                accessKey,
                secretKey,
                connectTimeout,
                requestTimeout,
                maxConnections,
                DEFAULT_UPLOAD_PART_SIZE,
                true,
                RetryPolicy.STORE_DEFAULT);
    }

    private ObjectStoreConfig(
            String scheme,
            String bucket,
            String endpoint,
            String region,
            boolean pathStyle,
            String accessKey,
            String secretKey,
            Duration connectTimeout,
            Duration requestTimeout,
            int maxConnections,
            long uploadPartSize,
            boolean conditionalWrites,
            RetryPolicy retryPolicy) {
        this.retryPolicy = Objects.requireNonNull(retryPolicy, "retryPolicy");
        this.uploadPartSize = uploadPartSize;
        this.conditionalWrites = conditionalWrites;
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

    /** The static access key id, or null for the default credentials (not a secret). */
    public String accessKeyId() {
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

    /** The part size of multipart uploads (and the most an upload buffers). */
    public int uploadPartSize() {
        long size = uploadPartSize <= 0 ? DEFAULT_UPLOAD_PART_SIZE : uploadPartSize;
        return (int) Math.min(Integer.MAX_VALUE - 64, size);
    }

    /** Whether the store enforces {@code If-None-Match} / {@code If-Match} on PUT. */
    public boolean conditionalWrites() {
        return conditionalWrites;
    }

    /** This configuration with uploads in parts of {@code bytes} (at least 5 MiB). */
    public ObjectStoreConfig withUploadPartSize(long bytes) {
        if (bytes < (5L << 20)) {
            throw new IllegalArgumentException(
                    "the upload part size must be at least 5 MiB (S3's minimum), got " + bytes);
        }
        return new ObjectStoreConfig(
                scheme,
                bucket,
                endpoint,
                region,
                pathStyle,
                accessKey,
                secretKey,
                connectTimeout,
                requestTimeout,
                maxConnections,
                bytes,
                conditionalWrites,
                retryPolicy);
    }

    /**
     * This configuration for a store that does ({@code true}, the default) or does not enforce
     * conditional writes.
     */
    public ObjectStoreConfig withConditionalWrites(boolean enforced) {
        return new ObjectStoreConfig(
                scheme,
                bucket,
                endpoint,
                region,
                pathStyle,
                accessKey,
                secretKey,
                connectTimeout,
                requestTimeout,
                maxConnections,
                uploadPartSize,
                enforced,
                retryPolicy);
    }

    /**
     * How requests to the store that a caller can repeat — a table's list, get, put, conditional
     * put, copy, delete, and each request of an upload — are retried on 503, 5xx and connection
     * errors ({@link RetryPolicy#STORE_DEFAULT} unless set: the source's {@code s3_retry_*}
     * settings configure it).
     */
    public RetryPolicy retryPolicy() {
        return retryPolicy;
    }

    /** This configuration with requests retried under {@code policy}. */
    public ObjectStoreConfig withRetryPolicy(RetryPolicy policy) {
        return new ObjectStoreConfig(
                scheme,
                bucket,
                endpoint,
                region,
                pathStyle,
                accessKey,
                secretKey,
                connectTimeout,
                requestTimeout,
                maxConnections,
                uploadPartSize,
                conditionalWrites,
                policy);
    }

    /**
     * This configuration for a check that must answer in seconds (building a job, planning a SQL
     * statement), whatever the job's own timeouts: connect within 5 s, requests within 15 s, 2
     * connections, 3 attempts 100 ms apart at most.
     */
    public ObjectStoreConfig forQuickCheck() {
        if (isLocal()) {
            return this;
        }
        return new ObjectStoreConfig(
                scheme,
                bucket,
                endpoint,
                region,
                pathStyle,
                accessKey,
                secretKey,
                min(connectTimeout, Duration.ofSeconds(5)),
                min(requestTimeout, Duration.ofSeconds(15)),
                2,
                uploadPartSize,
                conditionalWrites,
                new RetryPolicy(3, 100, 200));
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /** A new client; the caller closes it. */
    public ObjectStoreClient createClient() {
        return isLocal() ? LocalFileObjectStoreClient.of(bucket) : new AwsS3ObjectStoreClient(this);
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
