package io.github.s3mergetree.connector.options;

import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * How the source and the sink reach an S3 (or S3-compatible) store: one set of keys for both, in
 * the DataStream builders ({@code setSetting}), the SQL connectors' {@code WITH} options and {@code
 * s3-mergetree ingest --setting}.
 *
 * <p>Why these names: {@code s3.endpoint}, {@code s3.access-key} and {@code s3.secret-key} are the
 * keys of Flink's own S3 file systems ({@code flink-s3-fs-hadoop}, {@code flink-s3-fs-presto}) and
 * of Apache Paimon's S3 catalog options, so a Flink user has written them before; {@code s3.region}
 * and {@code s3.path-style-access} follow Flink's dashed style (Apache Iceberg's S3 FileIO calls
 * the latter {@code s3.path-style-access} too; Flink's Hadoop/Presto plugins' {@code
 * s3.path.style.access} is accepted as well). The keys the two connectors used before — the
 * source's {@code endpoint}, {@code region}, {@code path-style-access}, {@code access-key}, {@code
 * secret-key} and the sink's {@code table.s3.*} — keep working as deprecated keys.
 *
 * <p>{@link S3Connection#from} reads and checks them.
 */
@PublicEvolving
public final class S3ConnectionOptions {
    private S3ConnectionOptions() {}

    /** An S3-compatible endpoint instead of AWS's. */
    public static final ConfigOption<String> ENDPOINT =
            ConfigOptions.key("s3.endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDeprecatedKeys("endpoint", "table.s3.endpoint")
                    .withDescription(
                            "An S3-compatible endpoint, http(s)://host[:port] such as"
                                    + " http://127.0.0.1:9000 (default: AWS). With an endpoint,"
                                    + " requests are path-style unless s3.path-style-access ="
                                    + " false.");

    /** The AWS region. */
    public static final ConfigOption<String> REGION =
            ConfigOptions.key("s3.region")
                    .stringType()
                    .noDefaultValue()
                    .withDeprecatedKeys("region", "table.s3.region")
                    .withDescription("The AWS region (default us-east-1).");

    /** Path-style requests ({@code endpoint/bucket/key}). */
    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS =
            ConfigOptions.key("s3.path-style-access")
                    .booleanType()
                    .noDefaultValue()
                    .withDeprecatedKeys(
                            "path-style-access",
                            "table.s3.path-style-access",
                            "s3.path.style.access")
                    .withDescription(
                            "Path-style URLs (endpoint/bucket/key), as most S3-compatible servers"
                                    + " need; false: virtual-hosted (bucket.endpoint/key). Default:"
                                    + " true with s3.endpoint, false for AWS.");

    /** Static credentials (with {@link #SECRET_KEY}); else the AWS default chain. */
    public static final ConfigOption<String> ACCESS_KEY =
            ConfigOptions.key("s3.access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDeprecatedKeys("access-key", "table.s3.access-key")
                    .withDescription(
                            "Access key id, with s3.secret-key; without both, the AWS default"
                                    + " credentials chain is used (environment, profiles,"
                                    + " instance roles).");

    /** The secret of {@link #ACCESS_KEY}; never logged. */
    public static final ConfigOption<String> SECRET_KEY =
            ConfigOptions.key("s3.secret-key")
                    .stringType()
                    .noDefaultValue()
                    .withDeprecatedKeys("secret-key", "table.s3.secret-key")
                    .withDescription("Secret access key, with s3.access-key (never logged).");

    /** Every connection option. */
    public static List<ConfigOption<?>> all() {
        return List.of(ENDPOINT, REGION, PATH_STYLE_ACCESS, ACCESS_KEY, SECRET_KEY);
    }
}
