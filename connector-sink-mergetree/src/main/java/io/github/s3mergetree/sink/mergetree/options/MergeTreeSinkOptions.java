package io.github.s3mergetree.sink.mergetree.options;

import io.github.s3mergetree.connector.options.S3Connection;
import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkBuilder;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;

/**
 * Every option of the MergeTree sink, for the DataStream builder ({@link
 * MergeTreeSinkBuilder#setOption}) and the SQL connector ({@code 'connector' = 'mergetree'}).
 *
 * <p>Where an option means what a ClickHouse setting means, it has the ClickHouse setting's name
 * and default, keyed under one prefix, {@code settings.} (as a ClickHouse {@code INSERT}'s {@code
 * SETTINGS} clause holds them: {@code settings.max_insert_threads}; the bare names keep working as
 * deprecated keys, and {@code setSetting} takes them): {@code min_insert_block_size_rows}, {@code
 * min_insert_block_size_bytes}, {@code max_insert_threads}, {@code max_memory_usage}, {@code
 * insert_deduplicate}, {@code optimize_on_insert}, {@code background_pool_size}, {@code
 * parts_to_delay_insert}, {@code parts_to_throw_insert}, {@code max_partitions_per_insert_block},
 * {@code throw_on_max_partitions_per_insert_block}, {@code input_format_skip_unknown_fields},
 * {@code merge_selecting_sleep_ms}, {@code s3_retry_attempts}, ... Options of this sink alone use
 * dashes ({@code path}, {@code ddl}, {@code sink-id}, ...); Flink's own keep Flink's names ({@code
 * sink.parallelism}, {@code sink.delivery-guarantee}); the S3 connection is {@link
 * io.github.s3mergetree.connector.options.S3ConnectionOptions}, shared with the source.
 */
@PublicEvolving
public final class MergeTreeSinkOptions {
    private MergeTreeSinkOptions() {}

    // ------------------------------------------------------------------ table

    /** The table directory (local or shared filesystem). */
    public static final ConfigOption<String> PATH =
            ConfigOptions.key("path")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Where the MergeTree table lives: s3://bucket/prefix (ClickHouse's"
                                    + " plain layout, read in place by an s3_plain disk; reached"
                                    + " with s3.endpoint, s3.access-key, ...), or file:///abs/dir or /abs/dir (a directory"
                                    + " every TaskManager shares). Created with the table's DDL if"
                                    + " missing.");

    /** The table's {@code CREATE TABLE} statement. */
    public static final ConfigOption<String> DDL =
            ConfigOptions.key("ddl")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The table's ClickHouse CREATE TABLE statement. If neither ddl nor"
                                    + " ddl-file nor engine is given, the DDL stored in the table"
                                    + " directory (s3mergetree_metadata/table.sql) is used.");

    /** A file holding the table's {@code CREATE TABLE} statement. */
    public static final ConfigOption<String> DDL_FILE =
            ConfigOptions.key("ddl-file")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("A file holding the table's CREATE TABLE statement.");

    /** SQL connector: the engine clause used to derive the DDL from the Flink schema. */
    public static final ConfigOption<String> ENGINE =
            ConfigOptions.key("engine")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "SQL connector only: the ENGINE of a table whose DDL is derived from"
                                    + " the Flink schema, e.g. 'MergeTree' or"
                                    + " 'ReplacingMergeTree(ver)'.");

    /** SQL connector: ORDER BY of a derived DDL. */
    public static final ConfigOption<String> ORDER_BY =
            ConfigOptions.key("order-by")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "SQL connector only: ORDER BY of a derived DDL (default: the Flink"
                                    + " PRIMARY KEY, else tuple()).");

    /** SQL connector: PARTITION BY of a derived DDL. */
    public static final ConfigOption<String> PARTITION_BY =
            ConfigOptions.key("partition-by")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("SQL connector only: PARTITION BY of a derived DDL.");

    /** SQL connector: PRIMARY KEY of a derived DDL. */
    public static final ConfigOption<String> PRIMARY_KEY =
            ConfigOptions.key("primary-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "SQL connector only: PRIMARY KEY of a derived DDL (a prefix of ORDER"
                                    + " BY).");

    /** SQL connector: the SETTINGS clause of a derived DDL. */
    public static final ConfigOption<String> TABLE_SETTINGS =
            ConfigOptions.key("settings")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "SQL connector only: the SETTINGS clause of a derived DDL (the"
                                    + " table's MergeTree settings), e.g. 'index_granularity ="
                                    + " 8192, old_parts_lifetime = 60'. Insert settings are"
                                    + " options of their own, settings.<name>.");

    /** SQL connector: the ClickHouse table name of a derived DDL. */
    public static final ConfigOption<String> TABLE_NAME =
            ConfigOptions.key("table-name")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "SQL connector only: the ClickHouse table name of a derived DDL"
                                    + " (default: the Flink table name).");

    /** Identifies this sink's temporary parts and commits in a table shared by several jobs. */
    public static final ConfigOption<String> SINK_ID =
            ConfigOptions.key("sink-id")
                    .stringType()
                    .defaultValue("default")
                    .withDescription(
                            "Names this sink's temporary part directories (tmp_s3mt-<sink-id>-...)"
                                    + " so that a restarted sink removes the leftovers of its"
                                    + " aborted attempts and nothing else. Two sinks writing the"
                                    + " same table at the same time must use different ids (like"
                                    + " Kafka's transactional id prefix).");

    /** The server time zone of DateTime columns declared without one. */
    public static final ConfigOption<String> TIMEZONE =
            ConfigOptions.key("timezone")
                    .stringType()
                    .defaultValue("UTC")
                    .withDescription(
                            "ClickHouse's server 'timezone': the zone of DateTime/DateTime64"
                                    + " columns declared without one (used to convert Flink"
                                    + " TIMESTAMP values and to evaluate key expressions).");

    // ------------------------------------------------------------------ insert blocks

    /** Rows per insert block. */
    public static final ConfigOption<Long> MIN_INSERT_BLOCK_SIZE_ROWS =
            ConfigOptions.key("settings.min_insert_block_size_rows")
                    .longType()
                    .defaultValue(1048449L)
                    .withDeprecatedKeys("min_insert_block_size_rows")
                    .withDescription(
                            "ClickHouse's min_insert_block_size_rows: a writer turns its rows into"
                                    + " parts (one per partition) when this many have accumulated,"
                                    + " or min_insert_block_size_bytes is reached, whichever comes"
                                    + " first; 0 disables this limit. A checkpoint always flushes.");

    /** Uncompressed bytes per insert block, or {@code auto}. */
    public static final ConfigOption<String> MIN_INSERT_BLOCK_SIZE_BYTES =
            ConfigOptions.key("settings.min_insert_block_size_bytes")
                    .stringType()
                    .defaultValue("268435456")
                    .withDeprecatedKeys("min_insert_block_size_bytes")
                    .withDescription(
                            "ClickHouse's min_insert_block_size_bytes (uncompressed in-memory"
                                    + " bytes, as Block::bytes() counts them); 0 disables this"
                                    + " limit. A writer holds about max_insert_threads + 3 blocks"
                                    + " at its peak, within its memory budget (max_memory_usage,"
                                    + " else its share of half the JVM heap): 'auto' is the largest"
                                    + " block that fits, budget / (max_insert_threads + 3), at"
                                    + " least 8 MiB. When not set, the default (ClickHouse's 256"
                                    + " MiB) is lowered to that size where it does not fit; a"
                                    + " number set explicitly is kept.");

    /** Insert blocks being written at once per writer. */
    public static final ConfigOption<Integer> MAX_INSERT_THREADS =
            ConfigOptions.key("settings.max_insert_threads")
                    .intType()
                    .defaultValue(1)
                    .withDeprecatedKeys("max_insert_threads")
                    .withDescription(
                            "ClickHouse's max_insert_threads: how many insert blocks a writer"
                                    + " sorts, compresses and writes at once in background threads"
                                    + " while it keeps accumulating the next block. Memory grows"
                                    + " with it (about 3 blocks per thread).");

    /** The writer's memory budget in bytes. */
    public static final ConfigOption<Long> MAX_MEMORY_USAGE =
            ConfigOptions.key("settings.max_memory_usage")
                    .longType()
                    .defaultValue(0L)
                    .withDeprecatedKeys("max_memory_usage")
                    .withDescription(
                            "ClickHouse's max_memory_usage, per writer, in bytes: the budget"
                                    + " insert blocks are sized for (see"
                                    + " min_insert_block_size_bytes; 0 = half the JVM heap shared"
                                    + " by the writers in the JVM). The writer reports its peak"
                                    + " against it (metrics peakMemoryBytes, memoryBudgetBytes).");

    /** Commit with dedup tokens (exactly once) or without (at least once). */
    public static final ConfigOption<Boolean> INSERT_DEDUPLICATE =
            ConfigOptions.key("settings.insert_deduplicate")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("insert_deduplicate")
                    .withDescription(
                            "ClickHouse's insert_deduplicate: every commit carries a token (sink"
                                    + " id, job, subtask, checkpoint, sequence) recorded in the"
                                    + " table directory, so a commit replayed after a failure is a"
                                    + " no-op. false gives at-least-once.");

    /** Apply the engine's merge semantics within each insert block. */
    public static final ConfigOption<Boolean> OPTIMIZE_ON_INSERT =
            ConfigOptions.key("settings.optimize_on_insert")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("optimize_on_insert")
                    .withDescription(
                            "ClickHouse's optimize_on_insert: Replacing/Summing/Collapsing engines"
                                    + " reduce rows with equal sorting keys inside each insert"
                                    + " block.");

    /** Unknown input fields are skipped instead of refused. */
    public static final ConfigOption<Boolean> INPUT_FORMAT_SKIP_UNKNOWN_FIELDS =
            ConfigOptions.key("settings.input_format_skip_unknown_fields")
                    .booleanType()
                    .defaultValue(false)
                    .withDeprecatedKeys("input_format_skip_unknown_fields")
                    .withDescription(
                            "ClickHouse's input_format_skip_unknown_fields: input fields that name"
                                    + " no table column are skipped instead of failing the job.");

    /** ClickHouse's {@code max_partitions_per_insert_block}. */
    public static final ConfigOption<Integer> MAX_PARTITIONS_PER_INSERT_BLOCK =
            ConfigOptions.key("settings.max_partitions_per_insert_block")
                    .intType()
                    .defaultValue(100)
                    .withDeprecatedKeys("max_partitions_per_insert_block")
                    .withDescription(
                            "ClickHouse's max_partitions_per_insert_block: an insert block whose"
                                    + " rows fall into more partitions than this is refused"
                                    + " (TOO_MANY_PARTS, the job fails) before anything is"
                                    + " written; 0 = no limit.");

    /** ClickHouse's {@code throw_on_max_partitions_per_insert_block}. */
    public static final ConfigOption<Boolean> THROW_ON_MAX_PARTITIONS_PER_INSERT_BLOCK =
            ConfigOptions.key("settings.throw_on_max_partitions_per_insert_block")
                    .booleanType()
                    .defaultValue(true)
                    .withDeprecatedKeys("throw_on_max_partitions_per_insert_block")
                    .withDescription(
                            "ClickHouse's throw_on_max_partitions_per_insert_block: false only"
                                    + " logs a warning for a block beyond"
                                    + " max_partitions_per_insert_block and writes its parts.");

    /** Override of the table's {@code parts_to_delay_insert}. */
    public static final ConfigOption<Integer> PARTS_TO_DELAY_INSERT =
            ConfigOptions.key("settings.parts_to_delay_insert")
                    .intType()
                    .noDefaultValue()
                    .withDeprecatedKeys("parts_to_delay_insert")
                    .withDescription(
                            "ClickHouse's parts_to_delay_insert (default: the table's, 1000): a"
                                    + " writer whose partition has this many active parts sleeps"
                                    + " before each insert block (Flink backpressure), longer as"
                                    + " the count nears parts_to_throw_insert.");

    /** Override of the table's {@code parts_to_throw_insert}. */
    public static final ConfigOption<Integer> PARTS_TO_THROW_INSERT =
            ConfigOptions.key("settings.parts_to_throw_insert")
                    .intType()
                    .noDefaultValue()
                    .withDeprecatedKeys("parts_to_throw_insert")
                    .withDescription(
                            "ClickHouse's parts_to_throw_insert (default: the table's, 3000). At"
                                    + " this count ClickHouse refuses inserts; this sink waits"
                                    + " for merges instead (backpressure, not failure).");

    // ------------------------------------------------------------------ merges

    /** Run merges in the job. */
    public static final ConfigOption<Boolean> MERGES_ENABLED =
            ConfigOptions.key("merges")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Run the table's background merges inside the job, in one"
                                    + " parallelism-1 coordinator per sink after the committer.");

    /** Merges at once. */
    public static final ConfigOption<Integer> BACKGROUND_POOL_SIZE =
            ConfigOptions.key("settings.background_pool_size")
                    .intType()
                    .defaultValue(2)
                    .withDeprecatedKeys("background_pool_size")
                    .withDescription(
                            "ClickHouse's background_pool_size: merges running at once in the"
                                    + " merge coordinator (ClickHouse's default is 16; 2 suits a"
                                    + " small TaskManager).");

    /** How often the coordinator looks for merges and outdated parts. */
    public static final ConfigOption<Long> MERGE_SELECTING_SLEEP_MS =
            ConfigOptions.key("settings.merge_selecting_sleep_ms")
                    .longType()
                    .defaultValue(5000L)
                    .withDeprecatedKeys("merge_selecting_sleep_ms")
                    .withDescription(
                            "ClickHouse's merge_selecting_sleep_ms: besides reacting to every"
                                    + " commit, the coordinator looks for merges (and removes"
                                    + " outdated parts) this often.");

    /** What the merge coordinator does with the merges when a bounded input ends. */
    public enum MergesAtEndOfInput {
        /**
         * Let the merges run until the selector picks nothing more (the job ends with the table as
         * merged as ClickHouse's background merges would leave it).
         */
        SETTLE,
        /**
         * Start no merge after the end of input and cancel the running ones when the job ends, as a
         * ClickHouse server cancels its merges at shutdown: the committed parts stay as they are,
         * and the next run, or the ClickHouse server the parts are delivered to, merges them.
         */
        LEAVE
    }

    /** settle or leave the merges at the end of a bounded input. */
    public static final ConfigOption<MergesAtEndOfInput> MERGES_AT_END_OF_INPUT =
            ConfigOptions.key("merges_at_end_of_input")
                    .enumType(MergesAtEndOfInput.class)
                    .defaultValue(MergesAtEndOfInput.SETTLE)
                    .withDescription(
                            "At the end of a bounded input: 'settle' lets the merges run until the"
                                    + " selector picks nothing more before the job ends; 'leave'"
                                    + " starts no more merges and cancels the running ones at the"
                                    + " end (the next run or the ClickHouse server merges the"
                                    + " parts; for a table delivered into a server that merges it"
                                    + " anyway). Every committed row is in the table either way.");

    /** OPTIMIZE TABLE ... FINAL at the end of a bounded input. */
    public static final ConfigOption<Boolean> OPTIMIZE_FINAL =
            ConfigOptions.key("optimize_final")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "At the end of a bounded input, after the last commit, merge every"
                                    + " partition into one part (OPTIMIZE TABLE ... FINAL).");

    /** SQL connector: the sink parallelism. */
    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOptions.key("sink.parallelism")
                    .intType()
                    .noDefaultValue()
                    .withDescription("SQL connector only: the parallelism of the sink writers.");

    /**
     * How the committed rows reach the table when the job fails and restarts, named as Flink's
     * Kafka sink names it ({@code sink.delivery-guarantee}). {@code exactly-once} is what this sink
     * does by default: every commit carries a dedup token ({@link #INSERT_DEDUPLICATE}). {@code
     * at-least-once} is {@code insert_deduplicate = 0}: a commit replayed after a failure may be
     * applied twice. {@code none} is refused: the sink has no mode that commits without the
     * checkpoint.
     */
    public static final ConfigOption<DeliveryGuarantee> DELIVERY_GUARANTEE =
            ConfigOptions.key("sink.delivery-guarantee")
                    .enumType(DeliveryGuarantee.class)
                    .noDefaultValue()
                    .withDescription(
                            "exactly-once (the default): every commit carries a dedup token"
                                    + " recorded in the table, so a commit replayed after a"
                                    + " failure is a no-op (insert_deduplicate = 1). at-least-once:"
                                    + " commits carry no token, a replayed commit may add its rows"
                                    + " twice (insert_deduplicate = 0). none is refused: parts are"
                                    + " always committed at checkpoints. Contradicting an explicit"
                                    + " insert_deduplicate is an error.");

    /** Deprecated alias of {@link S3ConnectionOptions#ENDPOINT} (key {@code s3.endpoint}). */
    @Deprecated
    public static final ConfigOption<String> TABLE_S3_ENDPOINT = S3ConnectionOptions.ENDPOINT;

    /** Deprecated alias of {@link S3ConnectionOptions#REGION} (key {@code s3.region}). */
    @Deprecated
    public static final ConfigOption<String> TABLE_S3_REGION = S3ConnectionOptions.REGION;

    /**
     * Deprecated alias of {@link S3ConnectionOptions#PATH_STYLE_ACCESS} (key {@code
     * s3.path-style-access}).
     */
    @Deprecated
    public static final ConfigOption<Boolean> TABLE_S3_PATH_STYLE =
            S3ConnectionOptions.PATH_STYLE_ACCESS;

    /** Deprecated alias of {@link S3ConnectionOptions#ACCESS_KEY} (key {@code s3.access-key}). */
    @Deprecated
    public static final ConfigOption<String> TABLE_S3_ACCESS_KEY = S3ConnectionOptions.ACCESS_KEY;

    /** Deprecated alias of {@link S3ConnectionOptions#SECRET_KEY} (key {@code s3.secret-key}). */
    @Deprecated
    public static final ConfigOption<String> TABLE_S3_SECRET_KEY = S3ConnectionOptions.SECRET_KEY;

    /**
     * Attempts per request to an {@code s3://} table's store (the source's name and policy; a
     * larger default: a failed metadata request fails the job).
     */
    public static final ConfigOption<Integer> S3_RETRY_ATTEMPTS =
            ConfigOptions.key("settings.s3_retry_attempts")
                    .intType()
                    .defaultValue(20)
                    .withDeprecatedKeys("s3_retry_attempts")
                    .withDescription(
                            "Attempts per request to an s3:// table (list, get, put, conditional"
                                    + " put, copy, delete, each upload request) on 503, 5xx and"
                                    + " connection errors: the default outlasts an outage of about"
                                    + " half a minute. A retried conditional put that meets 412 on"
                                    + " its own bytes counts as made.");

    /** First retry backoff of the table's requests. */
    public static final ConfigOption<Long> S3_RETRY_INITIAL_BACKOFF_MS =
            ConfigOptions.key("settings.s3_retry_initial_backoff_ms")
                    .longType()
                    .defaultValue(50L)
                    .withDeprecatedKeys("s3_retry_initial_backoff_ms")
                    .withDescription(
                            "Backoff before the first retry of a table request; doubles per"
                                    + " attempt, with full jitter.");

    /** Largest retry backoff of the table's requests. */
    public static final ConfigOption<Long> S3_RETRY_MAX_BACKOFF_MS =
            ConfigOptions.key("settings.s3_retry_max_backoff_ms")
                    .longType()
                    .defaultValue(5000L)
                    .withDeprecatedKeys("s3_retry_max_backoff_ms")
                    .withDescription("Upper bound of the backoff of a table request.");

    /** Whether building the sink (and planning SQL) checks an {@code s3://} table's store. */
    public static final ConfigOption<Boolean> VALIDATE_ON_BUILD =
            ConfigOptions.key("validate-on-build")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Building the sink (and planning an INSERT into a 'mergetree' table)"
                                    + " lists an s3:// table's prefix once, so that wrong"
                                    + " credentials, a missing bucket or an unreachable endpoint"
                                    + " fail before the job is submitted. Turn off where only the"
                                    + " TaskManagers can reach the store.");

    /**
     * The key (relative to the table) of the writer lease the committer must hold to commit; set
     * with {@link MergeTreeSinkBuilder#setWriterFence} by a process that took the lease (the {@code
     * ingest} command), with {@link #WRITER_LEASE_OWNER} and {@link #WRITER_LEASE_EPOCH}.
     */
    public static final ConfigOption<String> WRITER_LEASE_KEY =
            ConfigOptions.key("writer-lease.key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The writer lease object (relative to the table) that must still name"
                                    + " writer-lease.owner at writer-lease.epoch when a commit is"
                                    + " made: a writer that lost its lease commits nothing.");

    /** The owner id the writer lease must name (see {@link #WRITER_LEASE_KEY}). */
    public static final ConfigOption<String> WRITER_LEASE_OWNER =
            ConfigOptions.key("writer-lease.owner")
                    .stringType()
                    .noDefaultValue()
                    .withDescription("The owner id writer-lease.key must name.");

    /** The epoch the writer lease must have (see {@link #WRITER_LEASE_KEY}). */
    public static final ConfigOption<Long> WRITER_LEASE_EPOCH =
            ConfigOptions.key("writer-lease.epoch")
                    .longType()
                    .noDefaultValue()
                    .withDescription("The epoch (fencing token) writer-lease.key must have.");

    /**
     * The table's S3 settings from {@code options} ({@link S3ConnectionOptions}, the keys the
     * source takes too, or their deprecated {@code table.s3.*} keys), validated.
     */
    public static io.github.s3mergetree.sink.mergetree.storage.TableLocation.S3Settings tableS3(
            org.apache.flink.configuration.ReadableConfig options) {
        S3Connection c = S3Connection.from(options);
        io.github.s3mergetree.sink.mergetree.storage.TableLocation.S3Settings d =
                io.github.s3mergetree.sink.mergetree.storage.TableLocation.S3Settings.defaults();
        return new io.github.s3mergetree.sink.mergetree.storage.TableLocation.S3Settings(
                c.endpoint(),
                c.region(),
                c.pathStyle(),
                c.accessKey(),
                c.secretKey(),
                d.connectTimeout(),
                d.requestTimeout());
    }

    // ------------------------------------------------------------------ delivery

    /** The live server the committed parts are delivered into. */
    public static final ConfigOption<String> CLICKHOUSE_URL =
            ConfigOptions.key("clickhouse.url")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The HTTP interface of a running ClickHouse server (http://host:8123): every"
                                    + " commit is delivered into clickhouse.table there, exactly once,"
                                    + " by a parallelism-1 delivery operator after the committers.");

    /** The target table on that server. */
    public static final ConfigOption<String> CLICKHOUSE_TABLE =
            ConfigOptions.key("clickhouse.table")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "The target table, database.table; it must exist with the sink's columns,"
                                    + " engine, partition and sorting keys (checked when the sink is built).");

    /** The server's user. */
    public static final ConfigOption<String> CLICKHOUSE_USER =
            ConfigOptions.key("clickhouse.user")
                    .stringType()
                    .defaultValue("default")
                    .withDescription("The ClickHouse user deliveries sign in as.");

    /** The server's password. */
    public static final ConfigOption<String> CLICKHOUSE_PASSWORD =
            ConfigOptions.key("clickhouse.password")
                    .stringType()
                    .defaultValue("")
                    .withDescription("The ClickHouse user's password (never logged).");

    /** How parts are delivered. */
    public static final ConfigOption<String> DELIVER =
            ConfigOptions.key("deliver")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "restore (the default for s3:// tables): the server restores each"
                                    + " commit's parts from the bucket (RESTORE ... FROM S3, one small"
                                    + " manifest per delivery, the part files are not copied). attach"
                                    + " (the default for a directory): parts are copied into the"
                                    + " server's detached/ and attached (the server's table directory"
                                    + " must be visible here).");

    /** The table's root URL as the server reaches it (restore). */
    public static final ConfigOption<String> CLICKHOUSE_S3_URL =
            ConfigOptions.key("clickhouse.s3.url")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "restore: the S3 URL of the table's root as the ClickHouse server reaches"
                                    + " it (default: from s3.endpoint, path-style or"
                                    + " virtual-hosted, or AWS's https://bucket.s3.region.amazonaws.com).");

    /** The keys the server reads the bucket with (restore). */
    public static final ConfigOption<String> CLICKHOUSE_S3_ACCESS_KEY =
            ConfigOptions.key("clickhouse.s3.access-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "restore: the access key the server reads the table's bucket with"
                                    + " (default: s3.access-key).");

    /** The secret of {@link #CLICKHOUSE_S3_ACCESS_KEY}. */
    public static final ConfigOption<String> CLICKHOUSE_S3_SECRET_KEY =
            ConfigOptions.key("clickhouse.s3.secret-key")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "restore: the secret of clickhouse.s3.access-key (default:"
                                    + " s3.secret-key; never logged).");

    /** The server's table directory as seen by the TaskManager, if not the path it reports. */
    public static final ConfigOption<String> CLICKHOUSE_TABLE_DIR =
            ConfigOptions.key("clickhouse.table-dir")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "attach: the server's table data directory as this host sees it (default:"
                                    + " the path the server reports in system.tables).");
}
