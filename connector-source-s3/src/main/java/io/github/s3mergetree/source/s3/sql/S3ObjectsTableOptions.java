package io.github.s3mergetree.source.s3.sql;

import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The table options of the SQL source {@code 'connector' = 's3-objects'} besides the tuning options
 * of {@link io.github.s3mergetree.source.s3.options.S3SourceOptions} (which it accepts under their
 * ClickHouse names: {@code max_download_threads}, {@code max_download_buffer_size}, {@code
 * discovery-interval}, ...).
 */
@PublicEvolving
public final class S3ObjectsTableOptions {
    private S3ObjectsTableOptions() {}

    /** Where the objects are: {@code s3://bucket/glob} or {@code file:///dir/glob}. */
    public static final ConfigOption<String> PATH =
            ConfigOptions.key("path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "s3://bucket/glob or file:///directory/glob, with ClickHouse's glob"
                                    + " syntax: *, **, ?, {a,b}, {N..M}.");

    /** The objects' format by its ClickHouse name. */
    public static final ConfigOption<String> FORMAT =
            ConfigOptions.key("format")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "ClickHouse format name: Parquet, CSV, CSVWithNames, TabSeparated,"
                                    + " TabSeparatedWithNames, JSONEachRow, Native, Arrow,"
                                    + " ArrowStream.");

    /** An S3-compatible endpoint instead of AWS's. */
    public static final ConfigOption<String> ENDPOINT =
            ConfigOptions.key("endpoint")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "An S3-compatible endpoint such as http://127.0.0.1:9000 (path-style"
                                    + " requests unless path-style-access = false).");

    /** The AWS region. */
    public static final ConfigOption<String> REGION =
            ConfigOptions.key("region")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("The AWS region (default us-east-1).");

    /** Path-style requests ({@code endpoint/bucket/key}). */
    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS =
            ConfigOptions.key("path-style-access")
                    .booleanType()
                    .noDefaultValue()
                    .withDescription(
                            "Path-style URLs (endpoint/bucket/key); default: true with an"
                                    + " endpoint, false for AWS.");

    /** Static credentials (with {@link #SECRET_KEY}); else the AWS default chain. */
    public static final ConfigOption<String> ACCESS_KEY =
            ConfigOptions.key("access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Access key id; without it the AWS default credentials chain is used"
                                    + " (environment, profiles, instance roles).");

    /** The secret of {@link #ACCESS_KEY}; never logged. */
    public static final ConfigOption<String> SECRET_KEY =
            ConfigOptions.key("secret-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("Secret access key (with access-key).");

    /**
     * ClickHouse types of columns, where the one derived from the Flink type is not what the
     * objects hold (e.g. {@code 'status Enum8(''a'' = 1), id UInt64'}).
     */
    public static final ConfigOption<String> COLUMNS =
            ConfigOptions.key("columns")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "ClickHouse types of some columns, as in CREATE TABLE ('id UInt64,"
                                    + " tags Array(LowCardinality(String))'); the others take the"
                                    + " type their Flink type maps to (BIGINT: Int64, STRING:"
                                    + " String, TIMESTAMP(3): DateTime64(3), ...).");
}
