package io.github.s3mergetree.connector.options;

import io.github.s3mergetree.connector.settings.NamedSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The S3 connection {@link S3ConnectionOptions} describe, read and checked once for the source and
 * the sink alike: the endpoint is an {@code http(s)://host[:port]} URL, the keys come in pairs, and
 * path-style access takes what ClickHouse's bool settings take ({@code 0}, {@code 1}, {@code true},
 * {@code false}). Messages name the option key (a SQL table's {@code WITH} key), never a secret.
 *
 * @param endpoint the endpoint, or null for AWS
 * @param region the region, or null for the default
 * @param pathStyle path-style requests
 * @param accessKey the access key, or null for the AWS default credentials chain
 * @param secretKey its secret, or null
 */
@Internal
public record S3Connection(
        @Nullable URI endpoint,
        @Nullable String region,
        boolean pathStyle,
        @Nullable String accessKey,
        @Nullable String secretKey) {

    /**
     * The connection {@code options} give (new or deprecated keys).
     *
     * @throws IllegalArgumentException naming the option whose value is wrong
     */
    public static S3Connection from(ReadableConfig options) {
        Optional<String> endpointText = string(options, S3ConnectionOptions.ENDPOINT);
        URI endpoint = endpointText.map(S3Connection::endpoint).orElse(null);
        Optional<String> pathStyleText = string(options, S3ConnectionOptions.PATH_STYLE_ACCESS);
        boolean pathStyle =
                pathStyleText
                        .map(
                                v ->
                                        NamedSettings.parseBool(
                                                S3ConnectionOptions.PATH_STYLE_ACCESS.key(),
                                                v.trim()))
                        .orElse(endpoint != null);
        String accessKey = string(options, S3ConnectionOptions.ACCESS_KEY).orElse(null);
        String secretKey = string(options, S3ConnectionOptions.SECRET_KEY).orElse(null);
        if ((accessKey == null) != (secretKey == null)) {
            throw new IllegalArgumentException(
                    "give both '"
                            + S3ConnectionOptions.ACCESS_KEY.key()
                            + "' and '"
                            + S3ConnectionOptions.SECRET_KEY.key()
                            + "', or neither (the AWS default credentials chain); only '"
                            + (accessKey != null
                                    ? S3ConnectionOptions.ACCESS_KEY.key()
                                    : S3ConnectionOptions.SECRET_KEY.key())
                            + "' is set");
        }
        return new S3Connection(
                endpoint,
                string(options, S3ConnectionOptions.REGION).orElse(null),
                pathStyle,
                accessKey,
                secretKey);
    }

    /** Whether {@code options} set any connection option (new or deprecated key). */
    public static boolean isSet(ReadableConfig options) {
        for (ConfigOption<?> o : S3ConnectionOptions.all()) {
            if (string(options, o).isPresent()) {
                return true;
            }
        }
        return false;
    }

    private static URI endpoint(String text) {
        // the former keys too: a job may still give the endpoint under one of them
        String key =
                S3ConnectionOptions.ENDPOINT.key() + "' (formerly 'endpoint', 'table.s3.endpoint')";
        URI uri;
        try {
            uri = new URI(text.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(
                    "option '" + key + " is not a URL: '" + text + "'", e);
        }
        if (uri.getScheme() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))
                || uri.getHost() == null) {
            throw new IllegalArgumentException(
                    "option '" + key + " must be http(s)://host[:port], not '" + text + "'");
        }
        return uri;
    }

    /**
     * The option's value as written, under its key or a deprecated one (a boolean is parsed by the
     * caller as ClickHouse parses it).
     */
    private static Optional<String> string(ReadableConfig options, ConfigOption<?> option) {
        return options.getOptional(NamedSettings.asString(option));
    }

    @Override
    public String toString() {
        return "S3Connection[endpoint="
                + endpoint
                + ", region="
                + region
                + ", pathStyle="
                + pathStyle
                + ", accessKey="
                + (accessKey == null ? "none" : "set")
                + "]";
    }
}
