package io.github.s3mergetree.source.s3.options;

import java.time.Duration;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;

/**
 * The tuning knobs of the {@link io.github.s3mergetree.source.s3.S3Source}, as Flink {@link
 * ConfigOption}s.
 *
 * <p>Why one class: users who know ClickHouse's {@code s3()} table function and {@code S3Queue}
 * engine find the same settings under the same names ({@code max_download_threads}, {@code
 * s3_max_get_rps}, {@code s3queue_tracked_files_limit}, ...) with the same meaning and defaults.
 * ClickHouse's settings are keyed under one prefix, {@code settings.} (as a ClickHouse query's
 * {@code SETTINGS} clause holds them; {@code settings.max_download_threads}), which sets them apart
 * from the connector's own options; the bare names keep working as deprecated keys, and {@code
 * setSetting("max_download_threads", ...)} takes them. Options without a ClickHouse counterpart use
 * dotted Flink-style keys ({@code source.monitor-interval}, {@code s3.split.size}).
 */
@PublicEvolving
public final class S3SourceOptions {
    private S3SourceOptions() {}

    /** Parallel ranged GETs used to read one large object range (ClickHouse's setting). */
    public static final ConfigOption<Integer> MAX_DOWNLOAD_THREADS =
            ConfigOptions.key("settings.max_download_threads")
                    .intType()
                    .defaultValue(4)
                    .withDeprecatedKeys("max_download_threads")
                    .withDescription(
                            "Number of parallel ranged GET requests that read one object range."
                                    + " A range is downloaded in parallel when it is larger than"
                                    + " 2 x max_download_buffer_size.");

    /** Size of one ranged GET when an object is downloaded in parallel (ClickHouse's setting). */
    public static final ConfigOption<Long> MAX_DOWNLOAD_BUFFER_SIZE =
            ConfigOptions.key("settings.max_download_buffer_size")
                    .longType()
                    .defaultValue(10L * 1024 * 1024)
                    .withDeprecatedKeys("max_download_buffer_size")
                    .withDescription(
                            "Bytes fetched by one ranged GET in parallel downloads; at most"
                                    + " max_download_threads buffers of this size are downloaded"
                                    + " at once per reader. Objects of up to 2 x this size are"
                                    + " downloaded whole ahead of the current one"
                                    + " (remote_filesystem_read_prefetch). A split reader keeps"
                                    + " the arrays it downloaded into for reuse, up to"
                                    + " (max_download_threads + 2) x 2 x this size (120 MiB at"
                                    + " the defaults).");

    /** GET requests per second per reader; 0 means unlimited (ClickHouse's setting). */
    public static final ConfigOption<Long> S3_MAX_GET_RPS =
            ConfigOptions.key("settings.s3_max_get_rps")
                    .longType()
                    .defaultValue(0L)
                    .withDeprecatedKeys("s3_max_get_rps")
                    .withDescription(
                            "Limit on GET requests per second issued by one source reader"
                                    + " (0 = unlimited).");

    /** Keys requested per ListObjectsV2 call (ClickHouse's setting). */
    public static final ConfigOption<Integer> S3_LIST_OBJECT_KEYS_SIZE =
            ConfigOptions.key("settings.s3_list_object_keys_size")
                    .intType()
                    .defaultValue(1000)
                    .withDeprecatedKeys("s3_list_object_keys_size")
                    .withDescription("Maximum number of keys returned by one ListObjectsV2 call.");

    /** Independent prefixes listed at the same time. */
    public static final ConfigOption<Integer> LIST_THREADS =
            ConfigOptions.key("s3.list.threads")
                    .intType()
                    .defaultValue(8)
                    .withDescription(
                            "Independent sub-prefixes (from {a,b} and {N..M} expansions of the"
                                    + " pattern) listed in parallel.");

    /** Attempts per S3 request before the read fails (ClickHouse's setting). */
    public static final ConfigOption<Integer> S3_RETRY_ATTEMPTS =
            ConfigOptions.key("settings.s3_retry_attempts")
                    .intType()
                    .defaultValue(10)
                    .withDeprecatedKeys("s3_retry_attempts")
                    .withDescription(
                            "Attempts per S3 request (list, head, ranged GET) on 503 SlowDown,"
                                    + " 5xx, connection resets and truncated bodies. Reads"
                                    + " resume from the last byte received.");

    /** First retry backoff (ClickHouse's setting). */
    public static final ConfigOption<Long> S3_RETRY_INITIAL_BACKOFF_MS =
            ConfigOptions.key("settings.s3_retry_initial_backoff_ms")
                    .longType()
                    .defaultValue(50L)
                    .withDeprecatedKeys("s3_retry_initial_backoff_ms")
                    .withDescription(
                            "Backoff before the first retry; doubles per attempt, with full"
                                    + " jitter.");

    /** Largest retry backoff (ClickHouse's setting). */
    public static final ConfigOption<Long> S3_RETRY_MAX_BACKOFF_MS =
            ConfigOptions.key("settings.s3_retry_max_backoff_ms")
                    .longType()
                    .defaultValue(5000L)
                    .withDeprecatedKeys("s3_retry_max_backoff_ms")
                    .withDescription("Upper bound of the retry backoff.");

    /** TCP connect timeout (ClickHouse's setting). */
    public static final ConfigOption<Long> S3_CONNECT_TIMEOUT_MS =
            ConfigOptions.key("settings.s3_connect_timeout_ms")
                    .longType()
                    .defaultValue(10_000L)
                    .withDeprecatedKeys("s3_connect_timeout_ms")
                    .withDescription("Connect timeout of S3 requests.");

    /** Socket read timeout (ClickHouse's setting). */
    public static final ConfigOption<Long> S3_REQUEST_TIMEOUT_MS =
            ConfigOptions.key("settings.s3_request_timeout_ms")
                    .longType()
                    .defaultValue(30_000L)
                    .withDeprecatedKeys("s3_request_timeout_ms")
                    .withDescription("Idle socket timeout of S3 requests.");

    /** Rows per emitted block (ClickHouse's setting). */
    public static final ConfigOption<Integer> MAX_BLOCK_SIZE =
            ConfigOptions.key("settings.max_block_size")
                    .intType()
                    .defaultValue(65536)
                    .withDeprecatedKeys("max_block_size")
                    .withDescription("Maximum rows per emitted columnar block.");

    /** Objects larger than this are split so several readers share them. */
    public static final ConfigOption<Long> SPLIT_SIZE =
            ConfigOptions.key("s3.split.size")
                    .longType()
                    .defaultValue(128L * 1024 * 1024)
                    .withDescription(
                            "Objects larger than this are cut into byte ranges of about this size:"
                                    + " Parquet by row groups (a row group belongs to the range"
                                    + " holding its midpoint), uncompressed line formats at line"
                                    + " ends. 0 disables splitting.");

    /**
     * How often a continuous source lists again; unset means bounded. Named as Flink's {@code
     * FileSource} names its continuous discovery ({@code source.monitor-interval}).
     */
    public static final ConfigOption<Duration> DISCOVERY_INTERVAL =
            ConfigOptions.key("source.monitor-interval")
                    .durationType()
                    .noDefaultValue()
                    .withDeprecatedKeys("discovery-interval")
                    .withDescription(
                            "In continuous mode, how often the pattern is listed again for new"
                                    + " objects. Unset: the source is bounded.");

    /** Discovery mode of a continuous source (ClickHouse's S3Queue setting). */
    public static final ConfigOption<DiscoveryMode> S3QUEUE_MODE =
            ConfigOptions.key("settings.s3queue_mode")
                    .enumType(DiscoveryMode.class)
                    .defaultValue(DiscoveryMode.UNORDERED)
                    .withDeprecatedKeys("s3queue_mode")
                    .withDescription(
                            "ORDERED: keys arrive in lexicographic order, only the last key is"
                                    + " kept. UNORDERED: processed keys are kept with a TTL and a"
                                    + " maximum count.");

    /** Maximum tracked keys in unordered mode (ClickHouse's S3Queue setting). */
    public static final ConfigOption<Integer> S3QUEUE_TRACKED_FILES_LIMIT =
            ConfigOptions.key("settings.s3queue_tracked_files_limit")
                    .intType()
                    .defaultValue(1000)
                    .withDeprecatedKeys("s3queue_tracked_files_limit")
                    .withDescription(
                            "UNORDERED mode: the most object keys remembered as processed; the"
                                    + " oldest are forgotten first.");

    /** TTL of tracked keys in unordered mode (ClickHouse's S3Queue setting). */
    public static final ConfigOption<Long> S3QUEUE_TRACKED_FILE_TTL_SEC =
            ConfigOptions.key("settings.s3queue_tracked_file_ttl_sec")
                    .longType()
                    .defaultValue(0L)
                    .withDeprecatedKeys("s3queue_tracked_file_ttl_sec")
                    .withDescription(
                            "UNORDERED mode: seconds a processed key is remembered (0 = until"
                                    + " evicted by s3queue_tracked_files_limit).");

    /** Attempts before a failing object is parked (ClickHouse's S3Queue setting). */
    public static final ConfigOption<Integer> S3QUEUE_LOADING_RETRIES =
            ConfigOptions.key("settings.s3queue_loading_retries")
                    .intType()
                    .defaultValue(3)
                    .withDeprecatedKeys("s3queue_loading_retries")
                    .withDescription(
                            "When failed objects are parked (s3.failed-objects): how often an object"
                                    + " whose read fails is retried, by the same reader from its last"
                                    + " emitted row and with backoff, before it is parked and"
                                    + " reported. Parse errors and changed objects are parked at"
                                    + " once (a retry would fail the same way).");

    /** What a failed object does to the job. */
    public static final ConfigOption<FailedObjects> FAILED_OBJECTS =
            ConfigOptions.key("s3.failed-objects")
                    .enumType(FailedObjects.class)
                    .noDefaultValue()
                    .withDescription(
                            "FAIL: an object that cannot be read (parse error, corruption, changed"
                                    + " while read, S3 retries exhausted) fails the job, and Flink"
                                    + " restarts it from the last checkpoint. PARK: after"
                                    + " s3queue_loading_retries it is parked with its error and the"
                                    + " rows it delivered, and the job goes on with the other objects"
                                    + " (as ClickHouse's S3Queue keeps failed files); a bounded job"
                                    + " then finishes without it and lists it in"
                                    + " s3.failed-objects.report. Default: FAIL when bounded, PARK in"
                                    + " continuous mode.");

    /** Where the parked objects are listed. */
    public static final ConfigOption<String> FAILED_OBJECTS_REPORT =
            ConfigOptions.key("s3.failed-objects.report")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "A file (any Flink file system URI, or a local path) the enumerator"
                                    + " rewrites whenever an object is parked and when it closes: a"
                                    + " JSON list of the parked objects with their error, position"
                                    + " and rows delivered (FailedObjectsReport). Unset: parked objects"
                                    + " are only logged and counted (metric parkedObjects).");

    /** Time zone for DateTime values without an explicit zone (ClickHouse's setting). */
    public static final ConfigOption<String> SESSION_TIMEZONE =
            ConfigOptions.key("settings.session_timezone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDeprecatedKeys("session_timezone")
                    .withDescription(
                            "Time zone used to interpret date-times of columns whose type has no"
                                    + " explicit time zone.");

    /** Delimiter of CSV (ClickHouse's setting). */
    public static final ConfigOption<String> FORMAT_CSV_DELIMITER =
            ConfigOptions.key("settings.format_csv_delimiter")
                    .stringType()
                    .defaultValue(",")
                    .withDeprecatedKeys("format_csv_delimiter")
                    .withDescription("Field delimiter of CSV input.");

    /** Unknown input columns are skipped (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_SKIP_UNKNOWN_FIELDS =
            ConfigOptions.key("settings.input_format_skip_unknown_fields")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_skip_unknown_fields")
                    .withDescription(
                            "Input columns that the target schema does not name are ignored"
                                    + " (otherwise they are an error).");

    /**
     * How many malformed rows of a text object may be skipped (ClickHouse's setting; 0: the first
     * one fails the read).
     */
    public static final ConfigOption<Long> INPUT_FORMAT_ALLOW_ERRORS_NUM =
            ConfigOptions.key("settings.input_format_allow_errors_num")
                    .longType()
                    .defaultValue(0L)
                    .withDeprecatedKeys("input_format_allow_errors_num")
                    .withDescription(
                            "Malformed rows of CSV/TSV/JSONEachRow input that may be skipped (and"
                                    + " counted) before the read fails; a read fails only when"
                                    + " both this number and input_format_allow_errors_ratio are"
                                    + " exceeded. Counted per split.");

    /** Which share of the rows of a text object may be malformed (ClickHouse's setting). */
    public static final ConfigOption<Double> INPUT_FORMAT_ALLOW_ERRORS_RATIO =
            ConfigOptions.key("settings.input_format_allow_errors_ratio")
                    .doubleType()
                    .defaultValue(0.0)
                    .withDeprecatedKeys("input_format_allow_errors_ratio")
                    .withDescription(
                            "Share (0..1) of malformed rows of CSV/TSV/JSONEachRow input that may"
                                    + " be skipped (and counted) before the read fails.");

    /** How text date-times are parsed (ClickHouse's setting; ClickHouse 26's default). */
    public static final ConfigOption<String> DATE_TIME_INPUT_FORMAT =
            ConfigOptions.key("settings.date_time_input_format")
                    .stringType()
                    .defaultValue("best_effort")
                    .withDeprecatedKeys("date_time_input_format")
                    .withDescription(
                            "best_effort (ISO 8601 with T, Z and offsets, unix timestamps, month"
                                    + " names, ...), best_effort_us (MM/DD first) or basic"
                                    + " (YYYY-MM-DD hh:mm:ss or a unix timestamp).");

    /** NULL into a non-Nullable column stores the default (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_NULL_AS_DEFAULT =
            ConfigOptions.key("settings.input_format_null_as_default")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_null_as_default")
                    .withDescription(
                            "A NULL (\\N, null) for a column that is not Nullable stores the"
                                    + " column type's default.");

    /** An empty unquoted CSV field is the default (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_CSV_EMPTY_AS_DEFAULT =
            ConfigOptions.key("settings.input_format_csv_empty_as_default")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_csv_empty_as_default")
                    .withDescription("An empty unquoted CSV field stores the column's default.");

    /** An empty TSV field is the default (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_TSV_EMPTY_AS_DEFAULT =
            ConfigOptions.key("settings.input_format_tsv_empty_as_default")
                    .booleanType()
                    .defaultValue(false)
                    .withDeprecatedKeys("input_format_tsv_empty_as_default")
                    .withDescription("An empty TSV field stores the column's default.");

    /** A first CSV row of column names is a header (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_CSV_DETECT_HEADER =
            ConfigOptions.key("settings.input_format_csv_detect_header")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_csv_detect_header")
                    .withDescription(
                            "In CSV, a first row whose values are the column names (or a subset or"
                                    + " superset of them) is read as a header, and a second row"
                                    + " of type names after it is skipped.");

    /** A first TSV row of column names is a header (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_TSV_DETECT_HEADER =
            ConfigOptions.key("settings.input_format_tsv_detect_header")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_tsv_detect_header")
                    .withDescription(
                            "In TabSeparated, a first row whose values are the column names is"
                                    + " read as a header.");

    /** Single-quoted CSV fields (ClickHouse's setting). */
    public static final ConfigOption<Boolean> FORMAT_CSV_ALLOW_SINGLE_QUOTES =
            ConfigOptions.key("settings.format_csv_allow_single_quotes")
                    .booleanType()
                    .defaultValue(false)
                    .withDeprecatedKeys("format_csv_allow_single_quotes")
                    .withDescription("CSV strings may be quoted with ' as well.");

    /** Double-quoted CSV fields (ClickHouse's setting). */
    public static final ConfigOption<Boolean> FORMAT_CSV_ALLOW_DOUBLE_QUOTES =
            ConfigOptions.key("settings.format_csv_allow_double_quotes")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("format_csv_allow_double_quotes")
                    .withDescription("CSV strings may be quoted with \".");

    /** A target column missing from a Parquet object gets its default (ClickHouse's setting). */
    public static final ConfigOption<Boolean> INPUT_FORMAT_PARQUET_ALLOW_MISSING_COLUMNS =
            ConfigOptions.key("settings.input_format_parquet_allow_missing_columns")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_parquet_allow_missing_columns")
                    .withDescription(
                            "A column of the target that a Parquet object does not have gets the"
                                    + " type's default in its rows (logged once per column and"
                                    + " reader, counted in the metric rowsWithMissingColumns);"
                                    + " false: such an object is refused, naming the column.");

    /**
     * A target column missing from an Arrow / ArrowStream object gets its default (ClickHouse's
     * setting).
     */
    public static final ConfigOption<Boolean> INPUT_FORMAT_ARROW_ALLOW_MISSING_COLUMNS =
            ConfigOptions.key("settings.input_format_arrow_allow_missing_columns")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("input_format_arrow_allow_missing_columns")
                    .withDescription(
                            "A column of the target that an Arrow or ArrowStream object does not"
                                    + " have gets the type's default in its rows (logged once per"
                                    + " column and reader, counted in the metric"
                                    + " rowsWithMissingColumns); false: such an object is refused,"
                                    + " naming the column.");

    /**
     * Columns named by a {@code key=value} directory of an object's path are filled from the path
     * (ClickHouse's setting and its default in 26.x).
     */
    public static final ConfigOption<Boolean> USE_HIVE_PARTITIONING =
            ConfigOptions.key("settings.use_hive_partitioning")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("use_hive_partitioning")
                    .withDescription(
                            "A column whose name is the key of a key=value directory in an"
                                    + " object's path (s3://b/t/region=north/x.parquet) takes the"
                                    + " value from the path in every row of the object, converted"
                                    + " to the column's type as ClickHouse converts a string"
                                    + " (no URL-decoding; __HIVE_DEFAULT_PARTITION__ is no NULL); the"
                                    + " object's own column of that name is not read. false: every"
                                    + " column is read from the objects.");

    /** Compression of objects (ClickHouse's table-function argument). */
    public static final ConfigOption<String> COMPRESSION =
            ConfigOptions.key("settings.compression_method")
                    .stringType()
                    .defaultValue("auto")
                    .withDeprecatedKeys("compression_method")
                    .withDescription(
                            "auto (by extension: .gz, .zst, .lz4, .xz, .bz2), none, gzip, zstd,"
                                    + " lz4, xz, bz2.");

    /** Whether the next object is opened while the current one is parsed. */
    public static final ConfigOption<Boolean> PREFETCH =
            ConfigOptions.key("settings.remote_filesystem_read_prefetch")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("remote_filesystem_read_prefetch")
                    .withDescription(
                            "Start downloading the next split while the current one is parsed.");

    /** Whether building the source lists the location once to check it. */
    public static final ConfigOption<Boolean> VALIDATE_ON_BUILD =
            ConfigOptions.key("validate-on-build")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Building the source (and planning a SQL statement) lists the first"
                                    + " page of the location, so that wrong credentials, a missing"
                                    + " bucket or an unreachable endpoint fail before the job is"
                                    + " submitted, and a location matching nothing is logged as a"
                                    + " warning. Turn off where only the TaskManagers can reach"
                                    + " the store.");

    /** What a failed object does to the job ({@link #FAILED_OBJECTS}). */
    @PublicEvolving
    public enum FailedObjects {
        /** Fail the job; Flink restarts it from the last checkpoint. */
        FAIL,
        /** Park the object (not read again), report it and go on with the others. */
        PARK
    }

    /** Every option of this class (the SQL source accepts them all as table options). */
    public static java.util.List<ConfigOption<?>> all() {
        java.util.List<ConfigOption<?>> out = new java.util.ArrayList<>();
        for (java.lang.reflect.Field f : S3SourceOptions.class.getFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())
                    && ConfigOption.class.isAssignableFrom(f.getType())) {
                try {
                    out.add((ConfigOption<?>) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return out;
    }

    /** How discovered keys are remembered in continuous mode. */
    @PublicEvolving
    public enum DiscoveryMode {
        /** Keys arrive in lexicographic order; the state is the last key. */
        ORDERED,
        /** Keys arrive in any order; the state is the set of recent keys (TTL + max count). */
        UNORDERED
    }
}
