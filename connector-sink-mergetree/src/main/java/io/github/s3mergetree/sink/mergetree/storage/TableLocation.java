package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import java.net.URI;
import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Parses a table path — the builder's {@code setTablePath}, SQL {@code 'path'}, the CLI's {@code
 * --table-path}: {@code s3://bucket/prefix} (an S3 table, reached with the {@link S3Settings}),
 * {@code file:///abs/dir} or {@code /abs/dir} (a directory). Anything else — another scheme, a
 * relative path (each TaskManager would resolve it in its own working directory) — is refused with
 * a message naming the value.
 */
@PublicEvolving
public final class TableLocation {
    private TableLocation() {}

    /**
     * How to reach S3 for the table: endpoint (null: AWS), region (null: us-east-1), path-style
     * access, static credentials (null: the AWS default chain), timeouts.
     */
    public record S3Settings(
            URI endpoint,
            String region,
            boolean pathStyle,
            String accessKey,
            String secretKey,
            Duration connectTimeout,
            Duration requestTimeout) {
        /** AWS defaults: no endpoint override, default credentials. */
        public static S3Settings defaults() {
            return new S3Settings(
                    null, null, false, null, null, Duration.ofSeconds(10), Duration.ofSeconds(120));
        }

        /** Never prints the secret key. */
        @Override
        public String toString() {
            return "S3Settings[endpoint="
                    + endpoint
                    + ", region="
                    + region
                    + ", pathStyle="
                    + pathStyle
                    + ", credentials="
                    + (accessKey == null ? "default" : "static")
                    + "]";
        }
    }

    /** Whether {@code path} names an S3 table ({@code s3://} or {@code s3a://}). */
    public static boolean isS3(String path) {
        String p = path == null ? "" : path.strip();
        return p.startsWith("s3://") || p.startsWith("s3a://");
    }

    /** The storage of {@code path}. */
    public static TableStorage parse(String path, S3Settings s3) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("the table path is empty");
        }
        String p = path.strip();
        if (isS3(p)) {
            String rest = p.substring(p.indexOf("://") + 3);
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            String prefix = slash < 0 ? "" : rest.substring(slash + 1);
            while (prefix.endsWith("/")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            if (!bucket.matches("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]")) {
                throw new IllegalArgumentException(
                        "invalid bucket '"
                                + bucket
                                + "' in table path '"
                                + path
                                + "' (3-63 lower-case letters, digits, dots, hyphens)");
            }
            if (prefix.contains("//") || prefix.contains("..")) {
                throw new IllegalArgumentException(
                        "invalid key prefix in table path '" + path + "'");
            }
            S3Settings s = s3 == null ? S3Settings.defaults() : s3;
            return new S3TableStorage(
                    ObjectStoreConfig.s3(
                            bucket,
                            s.endpoint(),
                            s.region(),
                            s.pathStyle(),
                            s.accessKey(),
                            s.secretKey(),
                            s.connectTimeout(),
                            s.requestTimeout(),
                            64),
                    prefix);
        }
        if (p.startsWith("file:")) {
            URI uri;
            try {
                uri = URI.create(p);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("invalid table path '" + path + "'", e);
            }
            if (uri.getAuthority() != null
                    || uri.getPath() == null
                    || !uri.getPath().startsWith("/")) {
                throw new IllegalArgumentException(
                        "a file: table path must be file:///absolute/dir, got '" + path + "'");
            }
            return new LocalTableStorage(normalize(uri.getPath()));
        }
        if (p.matches("[A-Za-z][A-Za-z0-9+.-]*://.*")) {
            throw new IllegalArgumentException(
                    "unsupported table path '"
                            + path
                            + "': use s3://bucket/prefix, file:///abs/dir or /abs/dir");
        }
        if (!p.startsWith("/")) {
            throw new IllegalArgumentException(
                    "relative table path '"
                            + path
                            + "': every TaskManager would resolve it in its own working directory;"
                            + " use s3://bucket/prefix, file:///abs/dir or /abs/dir");
        }
        return new LocalTableStorage(normalize(p));
    }

    private static String normalize(String dir) {
        String d = dir;
        while (d.length() > 1 && d.endsWith("/")) {
            d = d.substring(0, d.length() - 1);
        }
        return d;
    }
}
