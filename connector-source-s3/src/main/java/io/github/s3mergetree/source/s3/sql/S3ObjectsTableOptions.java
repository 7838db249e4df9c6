package io.github.s3mergetree.source.s3.sql;

import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The table options of the SQL source {@code 'connector' = 's3-objects'} besides the S3 connection
 * ({@link S3ConnectionOptions}: {@code s3.endpoint}, {@code s3.access-key}, ..., the keys the sink
 * takes too) and the tuning options of {@link
 * io.github.s3mergetree.source.s3.options.S3SourceOptions} (ClickHouse's settings by their
 * ClickHouse names, {@code max_download_threads}, ...; {@code source.monitor-interval}, ...).
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

    /** Deprecated alias of {@link S3ConnectionOptions#ENDPOINT} (key {@code s3.endpoint}). */
    @Deprecated public static final ConfigOption<String> ENDPOINT = S3ConnectionOptions.ENDPOINT;

    /** Deprecated alias of {@link S3ConnectionOptions#REGION} (key {@code s3.region}). */
    @Deprecated public static final ConfigOption<String> REGION = S3ConnectionOptions.REGION;

    /**
     * Deprecated alias of {@link S3ConnectionOptions#PATH_STYLE_ACCESS} (key {@code
     * s3.path-style-access}).
     */
    @Deprecated
    public static final ConfigOption<Boolean> PATH_STYLE_ACCESS =
            S3ConnectionOptions.PATH_STYLE_ACCESS;

    /** Deprecated alias of {@link S3ConnectionOptions#ACCESS_KEY} (key {@code s3.access-key}). */
    @Deprecated
    public static final ConfigOption<String> ACCESS_KEY = S3ConnectionOptions.ACCESS_KEY;

    /** Deprecated alias of {@link S3ConnectionOptions#SECRET_KEY} (key {@code s3.secret-key}). */
    @Deprecated
    public static final ConfigOption<String> SECRET_KEY = S3ConnectionOptions.SECRET_KEY;

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
