package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.connector.options.S3Connection;
import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ProjectableBlockFormat;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.compression.Compression;
import io.github.s3mergetree.source.s3.format.hive.HivePartitionedBlockFormat;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.objects.GlobPattern;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import io.github.s3mergetree.source.s3.reader.RecordExpander;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.net.URI;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Builds an {@link S3Source}. Settings are checked in {@link #build()}, whose messages name the
 * offending value.
 */
@PublicEvolving
public final class S3SourceBuilder<T> {
    private String location;
    private S3ObjectFormat<?> format;
    private String formatName;
    private TargetSchema schema;
    private TargetSchema tableColumns;
    private BiFunction<TargetSchema, ZoneId, RecordExpander<Block, T>> expanderFactory;
    private final Configuration options = new Configuration();
    private List<S3ObjectSplit> splits;

    S3SourceBuilder() {}

    /** Emit the decoded blocks through the expander {@code factory} makes (RowData). */
    S3SourceBuilder<T> expandBlocks(
            BiFunction<TargetSchema, ZoneId, RecordExpander<Block, T>> factory) {
        this.expanderFactory = factory;
        return this;
    }

    /**
     * Read the columns an {@code INSERT} into this table may write (all but MATERIALIZED and ALIAS
     * ones), with the table's types: {@code ddl} is its {@code CREATE TABLE} statement.
     *
     * @throws IllegalArgumentException when the DDL does not parse
     */
    public S3SourceBuilder<T> forTable(String ddl) {
        this.schema = TargetSchema.forTable(ddl);
        return this;
    }

    /**
     * {@link #forTable(String)} of a table parsed already ({@link TableDefinition#parse}, e.g. the
     * one the sink is given too): nothing is parsed again.
     */
    public S3SourceBuilder<T> forTable(TableDefinition table) {
        this.schema = TargetSchema.insertableColumns(table.schema());
        return this;
    }

    /** The ClickHouse columns to read (names and types), e.g. {@code TargetSchema.parse(...)}. */
    public S3SourceBuilder<T> setSchema(TargetSchema schema) {
        this.schema = schema;
        return this;
    }

    /**
     * All columns of the table whose columns {@link #setSchema} projects (a SQL table's, when a
     * query reads only some): with {@code use_hive_partitioning}, an object whose path gives every
     * projected column is still read for its row count through a column of the table its path does
     * not give, and refused only when its path gives every column of the table, as ClickHouse does.
     * Unset: the schema's columns.
     */
    @org.apache.flink.annotation.Internal
    public S3SourceBuilder<T> setTableColumns(TargetSchema tableColumns) {
        this.tableColumns = tableColumns;
        return this;
    }

    /**
     * The objects' format by its ClickHouse name ({@code Parquet}, {@code CSVWithNames}, {@code
     * JSONEachRow}, ...; {@link S3ObjectFormats#NAMES}), decoding the columns of {@link #forTable}
     * or {@link #setSchema}.
     */
    public S3SourceBuilder<T> setFormat(String clickHouseFormatName) {
        this.formatName = clickHouseFormatName;
        this.format = null;
        return this;
    }

    /**
     * A format object that decodes into blocks, for a {@link S3Source#forRowData()} source (whose
     * rows then come from these blocks).
     */
    public S3SourceBuilder<T> setBlockFormat(S3ObjectFormat<Block> blockFormat) {
        this.format = blockFormat;
        this.formatName = null;
        return this;
    }

    /**
     * {@code s3://bucket/glob} or {@code file:///directory/glob}, with ClickHouse's glob syntax:
     * {@code *}, {@code **}, {@code ?}, {@code {a,b}}, {@code {N..M}}.
     */
    public S3SourceBuilder<T> setLocation(String location) {
        this.location = location;
        return this;
    }

    /**
     * An S3-compatible endpoint instead of AWS's (e.g. {@code http://127.0.0.1:9000}; {@link
     * S3ConnectionOptions#ENDPOINT}). With an endpoint, requests are path-style unless {@link
     * #setPathStyleAccess} says otherwise.
     */
    public S3SourceBuilder<T> setEndpoint(URI endpoint) {
        setOrRemove(S3ConnectionOptions.ENDPOINT, endpoint == null ? null : endpoint.toString());
        return this;
    }

    /** The AWS region (default {@code us-east-1}; {@link S3ConnectionOptions#REGION}). */
    public S3SourceBuilder<T> setRegion(String region) {
        setOrRemove(S3ConnectionOptions.REGION, region);
        return this;
    }

    /**
     * Path-style URLs ({@code endpoint/bucket/key}), as most S3-compatible servers need ({@link
     * S3ConnectionOptions#PATH_STYLE_ACCESS}; default: true with an endpoint, false for AWS).
     */
    public S3SourceBuilder<T> setPathStyleAccess(boolean pathStyle) {
        options.removeConfig(S3ConnectionOptions.PATH_STYLE_ACCESS);
        options.set(S3ConnectionOptions.PATH_STYLE_ACCESS, pathStyle);
        return this;
    }

    /**
     * Static credentials ({@link S3ConnectionOptions#ACCESS_KEY}, {@link
     * S3ConnectionOptions#SECRET_KEY}); without them the AWS default credentials chain is used.
     */
    public S3SourceBuilder<T> setCredentials(String accessKey, String secretKey) {
        setOrRemove(S3ConnectionOptions.ACCESS_KEY, accessKey);
        setOrRemove(S3ConnectionOptions.SECRET_KEY, secretKey);
        return this;
    }

    /** Use the AWS default credentials chain (the default). */
    public S3SourceBuilder<T> useDefaultCredentials() {
        options.removeConfig(S3ConnectionOptions.ACCESS_KEY);
        options.removeConfig(S3ConnectionOptions.SECRET_KEY);
        return this;
    }

    private void setOrRemove(ConfigOption<String> option, String value) {
        options.removeConfig(option); // and its deprecated keys
        if (value != null) {
            options.set(option, value);
        }
    }

    /** The format that decodes objects into records. */
    public S3SourceBuilder<T> setFormat(S3ObjectFormat<T> format) {
        this.format = format;
        this.formatName = null;
        return this;
    }

    /** Connect timeout ({@code s3_connect_timeout_ms}). */
    public S3SourceBuilder<T> setConnectTimeout(Duration timeout) {
        options.set(S3SourceOptions.S3_CONNECT_TIMEOUT_MS, timeout.toMillis());
        return this;
    }

    /** Idle socket timeout ({@code s3_request_timeout_ms}). */
    public S3SourceBuilder<T> setRequestTimeout(Duration timeout) {
        options.set(S3SourceOptions.S3_REQUEST_TIMEOUT_MS, timeout.toMillis());
        return this;
    }

    /** Read what matches now and finish (the default). */
    public S3SourceBuilder<T> setBounded() {
        options.removeConfig(S3SourceOptions.DISCOVERY_INTERVAL);
        return this;
    }

    /** Never finish: list again every {@code discoveryInterval} and read new objects. */
    public S3SourceBuilder<T> setContinuous(Duration discoveryInterval, DiscoveryMode mode) {
        options.set(S3SourceOptions.DISCOVERY_INTERVAL, discoveryInterval);
        options.set(S3SourceOptions.S3QUEUE_MODE, mode);
        return this;
    }

    /**
     * Read exactly these splits, at their positions, instead of listing the location (bounded only;
     * the location still names the bucket): how an ingest resumes the objects an earlier run parked
     * ({@link io.github.s3mergetree.source.s3.enumerator.FailedObjectsReport}). Splits must not be
     * failed ({@link S3ObjectSplit#withoutFailure()}) and must have distinct ids.
     */
    public S3SourceBuilder<T> setSplits(List<S3ObjectSplit> splits) {
        this.splits = List.copyOf(splits);
        return this;
    }

    /** Sets one of {@link S3SourceOptions}. */
    public <V> S3SourceBuilder<T> setOption(ConfigOption<V> option, V value) {
        options.set(option, value);
        return this;
    }

    /**
     * Sets one of {@link S3SourceOptions} by its name (ClickHouse's setting name where one exists),
     * as a string ({@code "8"}, {@code "1"} or {@code "true"} for a boolean, ...).
     *
     * @throws IllegalArgumentException for a name no option has (naming the nearest one: a typo is
     *     not ignored) or a boolean ClickHouse would not take (0, 1, true, false)
     */
    public S3SourceBuilder<T> setSetting(String name, String value) {
        options.setString(SETTINGS.keyOf(name), SETTINGS.check(name, value));
        return this;
    }

    /** {@link #setSetting} for each entry. */
    public S3SourceBuilder<T> setSettings(java.util.Map<String, String> settings) {
        SETTINGS.checkAll(settings).forEach(options::setString);
        return this;
    }

    /**
     * Sets every option present in {@code config}; each must be one of {@link S3SourceOptions}
     * ({@link #setSetting}'s checks).
     */
    public S3SourceBuilder<T> setOptions(ReadableConfig config) {
        if (config instanceof Configuration c) {
            return setSettings(c.toMap());
        }
        throw new IllegalArgumentException(
                "options must be a Configuration, got " + config.getClass().getName());
    }

    /**
     * The settings {@link #setSetting} knows: {@link S3SourceOptions} and {@link
     * S3ConnectionOptions}, under their keys and deprecated keys.
     */
    private static final NamedSettings SETTINGS =
            NamedSettings.of(
                    java.util.stream.Stream.concat(
                                    S3SourceOptions.all().stream(),
                                    S3ConnectionOptions.all().stream())
                            .toList());

    /**
     * Validates the settings and builds the source. Unless {@code validate-on-build = false}
     * ({@link S3SourceOptions#VALIDATE_ON_BUILD}), it also lists the location once: wrong
     * credentials, a missing bucket or an unreachable endpoint fail here, and a location that
     * matches no object is logged as a warning.
     */
    public S3Source<T> build() {
        if (format == null && formatName == null) {
            throw new IllegalArgumentException(
                    "a format is required: setFormat(\"Parquet\") (or another of "
                            + S3ObjectFormats.NAMES
                            + ") or setFormat(S3ObjectFormat)");
        }
        if (location == null || location.isEmpty()) {
            throw new IllegalArgumentException(
                    "a location is required: setLocation(\"s3://bucket/glob\") (SQL: option 'path')");
        }
        checkPositive(S3SourceOptions.MAX_DOWNLOAD_THREADS);
        checkPositive(S3SourceOptions.MAX_BLOCK_SIZE);
        checkPositive(S3SourceOptions.S3_RETRY_ATTEMPTS);
        checkPositive(S3SourceOptions.LIST_THREADS);
        checkPositive(S3SourceOptions.S3QUEUE_TRACKED_FILES_LIMIT);
        long buffer = options.get(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE);
        if (buffer < 1 || buffer > Integer.MAX_VALUE - 16) {
            throw new IllegalArgumentException(
                    "max_download_buffer_size must be in [1, 2 GiB), got " + buffer);
        }
        int page = options.get(S3SourceOptions.S3_LIST_OBJECT_KEYS_SIZE);
        if (page < 1 || page > 1000) {
            throw new IllegalArgumentException(
                    "s3_list_object_keys_size must be in [1, 1000], got " + page);
        }
        for (ConfigOption<Long> o :
                java.util.List.of(
                        S3SourceOptions.S3_MAX_GET_RPS,
                        S3SourceOptions.SPLIT_SIZE,
                        S3SourceOptions.S3QUEUE_TRACKED_FILE_TTL_SEC,
                        S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS)) {
            if (options.get(o) < 0) {
                throw new IllegalArgumentException(
                        o.key() + " must be >= 0, got " + options.get(o));
            }
        }
        if (options.get(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS)
                < options.get(S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS)) {
            throw new IllegalArgumentException(
                    "s3_retry_max_backoff_ms ("
                            + options.get(S3SourceOptions.S3_RETRY_MAX_BACKOFF_MS)
                            + ") must be >= s3_retry_initial_backoff_ms ("
                            + options.get(S3SourceOptions.S3_RETRY_INITIAL_BACKOFF_MS)
                            + ")");
        }
        if (options.get(S3SourceOptions.S3QUEUE_LOADING_RETRIES) < 0) {
            throw new IllegalArgumentException(
                    "s3queue_loading_retries must be >= 0, got "
                            + options.get(S3SourceOptions.S3QUEUE_LOADING_RETRIES));
        }
        options.getOptional(S3SourceOptions.DISCOVERY_INTERVAL)
                .ifPresent(
                        d -> {
                            if (d.isNegative() || d.isZero()) {
                                throw new IllegalArgumentException(
                                        S3SourceOptions.DISCOVERY_INTERVAL.key()
                                                + " must be positive, got "
                                                + d);
                            }
                        });
        try {
            java.time.ZoneId.of(options.get(S3SourceOptions.SESSION_TIMEZONE));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "session_timezone '"
                            + options.get(S3SourceOptions.SESSION_TIMEZONE)
                            + "' is not a time zone",
                    e);
        }
        Compression.of(options.get(S3SourceOptions.COMPRESSION), "x");
        S3ObjectFormat<?> decoder = format;
        if (decoder == null) {
            if (schema == null) {
                throw new IllegalArgumentException(
                        "format '"
                                + formatName
                                + "' needs the columns to read: forTable(ddl) or setSchema(...)");
            }
            decoder =
                    S3ObjectFormats.forName(
                            formatName, schema, options.get(S3SourceOptions.COMPRESSION));
        }
        if (options.get(S3SourceOptions.USE_HIVE_PARTITIONING)
                && decoder instanceof ProjectableBlockFormat projectable) {
            decoder =
                    new HivePartitionedBlockFormat(
                            projectable,
                            tableColumns != null ? tableColumns : projectable.schema());
        }
        RecordExpander<Block, T> expander = null;
        if (expanderFactory != null) {
            TargetSchema columns = schema;
            if (decoder.getProducedType() instanceof BlockTypeInfo b && b.schema() != null) {
                columns = b.schema();
            } else if (decoder.getProducedType().getTypeClass() != Block.class) {
                throw new IllegalArgumentException(
                        "a RowData source needs a format that decodes blocks, got "
                                + decoder.getProducedType());
            }
            if (columns == null) {
                throw new IllegalArgumentException(
                        "a RowData source needs the columns: forTable(ddl) or setSchema(...)");
            }
            expander =
                    expanderFactory.apply(
                            columns, ZoneId.of(options.get(S3SourceOptions.SESSION_TIMEZONE)));
        }

        S3Connection connection = S3Connection.from(options);
        URI endpoint = connection.endpoint();
        String region = connection.region();
        boolean pathStyle = connection.pathStyle();
        String accessKey = connection.accessKey();
        String secretKey = connection.secretKey();
        ObjectStoreConfig store;
        ObjectStoreConfig checkStore;
        String glob;
        if (location.startsWith("s3://")) {
            String rest = location.substring("s3://".length());
            int slash = rest.indexOf('/');
            String bucket = slash < 0 ? rest : rest.substring(0, slash);
            glob = slash < 0 ? "**" : rest.substring(slash + 1);
            if (bucket.isEmpty() || bucket.contains("*") || bucket.contains("{")) {
                throw new IllegalArgumentException(
                        "path '" + location + "' must name one bucket without globs");
            }
            if (glob.isEmpty()) {
                glob = "**";
            }
            Duration connect =
                    Duration.ofMillis(options.get(S3SourceOptions.S3_CONNECT_TIMEOUT_MS));
            Duration request =
                    Duration.ofMillis(options.get(S3SourceOptions.S3_REQUEST_TIMEOUT_MS));
            store =
                    ObjectStoreConfig.s3(
                            bucket,
                            endpoint,
                            region,
                            pathStyle,
                            accessKey,
                            secretKey,
                            connect,
                            request,
                            options.get(S3SourceOptions.MAX_DOWNLOAD_THREADS) * 2 + 8);
            // the build-time check answers in seconds, whatever the job's timeouts
            checkStore =
                    ObjectStoreConfig.s3(
                            bucket,
                            endpoint,
                            region,
                            pathStyle,
                            accessKey,
                            secretKey,
                            min(connect, Duration.ofSeconds(5)),
                            min(request, Duration.ofSeconds(15)),
                            2);
        } else if (location.startsWith("file://")) {
            if (endpoint != null || accessKey != null) {
                throw new IllegalArgumentException(
                        "path '"
                                + location
                                + "' is local: "
                                + S3ConnectionOptions.ENDPOINT.key()
                                + " and credentials do not apply");
            }
            String path = location.substring("file://".length());
            if (!path.startsWith("/")) {
                throw new IllegalArgumentException(
                        "path '" + location + "' must be an absolute file:///path");
            }
            store = ObjectStoreConfig.localDirectory("/");
            checkStore = store;
            glob = path.substring(1);
        } else {
            throw new IllegalArgumentException(
                    "path '" + location + "' must start with s3:// or file://");
        }
        GlobPattern pattern = GlobPattern.compile(glob);
        if (splits != null) {
            if (options.contains(S3SourceOptions.DISCOVERY_INTERVAL)) {
                throw new IllegalArgumentException(
                        "setSplits(...) makes a bounded source; it cannot be continuous");
            }
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (S3ObjectSplit s : splits) {
                if (s.isFailed()) {
                    throw new IllegalArgumentException(
                            "split " + s + " is failed: pass s.withoutFailure() to read it again");
                }
                if (!ids.add(s.splitId())) {
                    throw new IllegalArgumentException("split " + s.splitId() + " is given twice");
                }
            }
        }
        if (options.get(S3SourceOptions.VALIDATE_ON_BUILD) && splits == null) {
            // (a source of given splits lists nothing)
            BuildTimeCheck.check(
                    checkStore,
                    pattern,
                    location,
                    options.getOptional(S3SourceOptions.DISCOVERY_INTERVAL).isPresent());
        }
        // the connection is in the store's configuration; the secret stays out of the options
        Configuration sourceOptions = new Configuration(options);
        S3ConnectionOptions.all().forEach(sourceOptions::removeConfig);
        return new S3Source<>(store, pattern, decoder, expander, sourceOptions, splits);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private void checkPositive(ConfigOption<Integer> option) {
        int v = options.get(option);
        if (v < 1) {
            throw new IllegalArgumentException(option.key() + " must be >= 1, got " + v);
        }
    }
}
