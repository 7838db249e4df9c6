package io.github.s3mergetree.sink.mergetree;

import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.objectstore.RetryPolicy;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.input.InputContext;
import io.github.s3mergetree.sink.mergetree.input.SinkInput;
import io.github.s3mergetree.sink.mergetree.options.InsertDeduplication;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TableBuildCheck;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import io.github.s3mergetree.sink.mergetree.table.SinkTable;
import io.github.s3mergetree.sink.mergetree.writer.InsertBlockSize;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.annotation.VisibleForTesting;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;

/**
 * Builds a {@link MergeTreeSink}. Everything is checked in {@link #build()}: the table location,
 * the DDL (parsed as ClickHouse would), the options, and the input against the table (every input
 * field must name a column and be convertible to its type), so a mistake fails the job submission,
 * not a running job.
 *
 * @param <IN> the sink's input type
 */
@PublicEvolving
public final class MergeTreeSinkBuilder<IN> {
    private TableStorage storage;
    private String tablePath;
    private String ddl;
    private TableDefinition definition;
    private Path ddlFile;
    private SinkInput<IN> input;
    private final Configuration options = new Configuration();
    private FailureInjector failures = FailureInjector.NONE;
    private boolean rowTypeExpected;

    MergeTreeSinkBuilder() {}

    /** A builder of {@link MergeTreeSink#forRowData()}: build() asks for {@link #setRowType}. */
    MergeTreeSinkBuilder<IN> expectRowType() {
        this.rowTypeExpected = true;
        return this;
    }

    /**
     * The type of the input rows ({@link MergeTreeSink#forRowData()}), mapped onto the table's
     * columns by field name.
     */
    @SuppressWarnings("unchecked")
    public MergeTreeSinkBuilder<IN> setRowType(
            org.apache.flink.table.types.logical.RowType rowType) {
        if (!rowTypeExpected) {
            throw new IllegalStateException(
                    "setRowType is for builders of MergeTreeSink.forRowData(); use setInput");
        }
        this.input =
                (SinkInput<IN>) io.github.s3mergetree.sink.mergetree.input.RowDataInput.of(rowType);
        return this;
    }

    /**
     * Where the table lives: {@code s3://bucket/prefix} (reached with the {@code s3.*} connection
     * options of {@link io.github.s3mergetree.connector.options.S3ConnectionOptions}, the keys the
     * source takes too; see {@link #setTableS3}), {@code file:///abs/dir} or {@code /abs/dir} (a
     * directory every TaskManager shares). Parsed in {@link #build()}; anything else is refused
     * there.
     */
    public MergeTreeSinkBuilder<IN> setTablePath(String path) {
        this.tablePath = path;
        this.storage = null;
        return this;
    }

    /**
     * How to reach an {@code s3://} table: the endpoint (null: AWS), region and path-style access,
     * settable apart from the source's.
     */
    public MergeTreeSinkBuilder<IN> setTableS3(String endpoint, String region, boolean pathStyle) {
        if (endpoint != null) {
            options.removeConfig(S3ConnectionOptions.ENDPOINT);
            options.set(S3ConnectionOptions.ENDPOINT, endpoint);
        }
        if (region != null) {
            options.removeConfig(S3ConnectionOptions.REGION);
            options.set(S3ConnectionOptions.REGION, region);
        }
        options.removeConfig(S3ConnectionOptions.PATH_STYLE_ACCESS);
        options.set(S3ConnectionOptions.PATH_STYLE_ACCESS, pathStyle);
        return this;
    }

    /** Static credentials for an {@code s3://} table (default: the AWS credentials chain). */
    public MergeTreeSinkBuilder<IN> setTableCredentials(String accessKey, String secretKey) {
        options.removeConfig(S3ConnectionOptions.ACCESS_KEY);
        options.removeConfig(S3ConnectionOptions.SECRET_KEY);
        options.set(S3ConnectionOptions.ACCESS_KEY, accessKey);
        options.set(S3ConnectionOptions.SECRET_KEY, secretKey);
        return this;
    }

    /** Where the table lives, as a storage object (instead of {@link #setTablePath}). */
    public MergeTreeSinkBuilder<IN> setTableStorage(TableStorage storage) {
        this.storage = storage;
        this.tablePath = null;
        return this;
    }

    /**
     * The table's {@code CREATE TABLE} statement. Without it (and without {@link #setDdlFile}), the
     * DDL stored in an existing table directory is used.
     */
    public MergeTreeSinkBuilder<IN> setDdl(String ddl) {
        this.ddl = ddl;
        this.definition = null;
        return this;
    }

    /**
     * The table's {@code CREATE TABLE} statement, parsed already where it entered the program
     * ({@link TableDefinition#parse}): {@link #setDdl(String)} without parsing it again.
     */
    public MergeTreeSinkBuilder<IN> setDdl(TableDefinition definition) {
        this.ddl = definition.ddl();
        this.definition = definition;
        return this;
    }

    /** A file holding the table's {@code CREATE TABLE} statement (read in {@link #build()}). */
    public MergeTreeSinkBuilder<IN> setDdlFile(Path file) {
        this.ddlFile = file;
        return this;
    }

    /** The input type and how it maps onto the table's columns. */
    public <T extends IN> MergeTreeSinkBuilder<IN> setInput(SinkInput<IN> input) {
        this.input = input;
        return this;
    }

    /** Sets an option of {@link MergeTreeSinkOptions}. */
    public <T> MergeTreeSinkBuilder<IN> setOption(ConfigOption<T> option, T value) {
        options.set(option, value);
        return this;
    }

    /**
     * Sets an option of {@link MergeTreeSinkOptions} by its name (ClickHouse's setting name where
     * one exists), as a string ({@code "1048449"}, {@code "1"} or {@code "true"} for a boolean).
     *
     * @throws IllegalArgumentException for a name no option has (naming the nearest one: a typo is
     *     not ignored) or a boolean ClickHouse would not take (0, 1, true, false)
     */
    public MergeTreeSinkBuilder<IN> setSetting(String name, String value) {
        options.setString(SETTINGS.keyOf(name), SETTINGS.check(name, value));
        return this;
    }

    /** {@link #setSetting} for each entry. */
    public MergeTreeSinkBuilder<IN> setSettings(Map<String, String> settings) {
        SETTINGS.checkAll(settings).forEach(options::setString);
        return this;
    }

    /**
     * The settings {@link #setSetting} knows: {@link MergeTreeSinkOptions} (with the S3 connection,
     * {@link S3ConnectionOptions}), under their keys and deprecated keys.
     */
    private static final NamedSettings SETTINGS =
            NamedSettings.ofFields(MergeTreeSinkOptions.class);

    /** Names this sink's temporary parts and commits ({@link MergeTreeSinkOptions#SINK_ID}). */
    public MergeTreeSinkBuilder<IN> setSinkId(String sinkId) {
        options.set(MergeTreeSinkOptions.SINK_ID, sinkId);
        return this;
    }

    /**
     * Commits only while the writer lease {@code fence} names is held at its epoch (checked right
     * before each insert's commit log entry is created): a job whose lease another writer took over
     * — e.g. it was paused past the lease's expiry — fails instead of committing rows that the new
     * holder writes too. For a process that holds a {@link
     * io.github.s3mergetree.engine.table.WriterLease} of this table.
     */
    public MergeTreeSinkBuilder<IN> setWriterFence(
            io.github.s3mergetree.engine.table.WriterLease.Fence fence) {
        options.set(MergeTreeSinkOptions.WRITER_LEASE_KEY, fence.key());
        options.set(MergeTreeSinkOptions.WRITER_LEASE_OWNER, fence.owner());
        options.set(MergeTreeSinkOptions.WRITER_LEASE_EPOCH, fence.epoch());
        return this;
    }

    /** Test hook: crashes injected in the writer and committer. */
    @VisibleForTesting
    public MergeTreeSinkBuilder<IN> setFailureInjector(FailureInjector failures) {
        this.failures = failures;
        return this;
    }

    /**
     * Validates everything and builds the sink.
     *
     * @throws IllegalArgumentException naming the problem
     */
    public MergeTreeSink<IN> build() {
        TableStorage storage = this.storage;
        if (storage == null && tablePath == null) {
            throw new IllegalArgumentException("the table path is not set (setTablePath)");
        }
        if (storage == null) {
            storage = TableLocation.parse(tablePath, MergeTreeSinkOptions.tableS3(options));
        }
        if (input == null) {
            throw new IllegalArgumentException(
                    rowTypeExpected
                            ? "the row type is not set (MergeTreeSink.forRowData().setRowType(...))"
                            : "the input is not set (MergeTreeSink.forRowData, forBlocks or"
                                    + " forInput)");
        }
        if (ddl != null && ddlFile != null) {
            throw new IllegalArgumentException("set either a DDL or a DDL file, not both");
        }
        String text = ddl;
        if (ddlFile != null) {
            try {
                text = DdlFiles.read(ddlFile);
            } catch (DdlParseException e) {
                throw new IllegalArgumentException("invalid table DDL: " + e.getMessage(), e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the DDL file " + ddlFile, e);
            }
        }
        checkOptions();
        if (storage instanceof S3TableStorage s3) {
            storage =
                    new S3TableStorage(
                            s3.config()
                                    .withRetryPolicy(
                                            new RetryPolicy(
                                                    options.get(
                                                            MergeTreeSinkOptions.S3_RETRY_ATTEMPTS),
                                                    options.get(
                                                            MergeTreeSinkOptions
                                                                    .S3_RETRY_INITIAL_BACKOFF_MS),
                                                    options.get(
                                                            MergeTreeSinkOptions
                                                                    .S3_RETRY_MAX_BACKOFF_MS))),
                            s3.prefix());
        }
        if (options.get(MergeTreeSinkOptions.VALIDATE_ON_BUILD)) {
            TableBuildCheck.check(storage);
        }
        // reads made while building answer in seconds, whatever the job's retries
        TableStorage quick = TableBuildCheck.quick(storage);
        // the DDL is parsed here, once: the sink's operators take it parsed (SinkTable)
        TableDefinition given =
                definition != null ? definition : text == null ? null : definition(text);
        Optional<TableDefinition> known = Optional.ofNullable(given);
        if (known.isEmpty()) {
            Optional<String> stored = Optional.empty();
            try {
                stored = quick.storedDdl();
            } catch (IOException e) {
                // the table may be visible to the TaskManagers only; checked there
            }
            known = stored.map(MergeTreeSinkBuilder::definition);
        }
        ResolvedTable resolved = null;
        if (known.isPresent()) {
            try {
                resolved = ResolvedTable.resolve(known.get(), options);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("invalid table DDL: " + e.getMessage(), e);
            }
            if (text != null) {
                checkStoredDdl(quick, resolved);
            }
            // fails on unknown fields or impossible conversions
            input.createConverter(
                    new InputContext(
                            resolved.schema(),
                            resolved.layout(),
                            resolved.serverZone(),
                            options.get(MergeTreeSinkOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS)));
        }
        if (io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.enabled(options)) {
            // the target must fit before the job starts
            if (resolved == null) {
                throw new IllegalArgumentException(
                        "clickhouse.url needs the table's DDL when the sink is built (setDdl)");
            }
            try (io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.Opened d =
                    io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.open(
                            resolved.schema(), storage, options)) {
                d.delivery().check();
            } catch (IOException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
        }
        Configuration sinkOptions = new Configuration(options);
        // the writers read the guarantee as insert_deduplicate
        sinkOptions.set(
                MergeTreeSinkOptions.INSERT_DEDUPLICATE, InsertDeduplication.resolve(options));
        // without a given DDL the TaskManagers read the stored one, as the table may change
        SinkTable table =
                new SinkTable(given, storage, sinkOptions, given == null ? null : resolved);
        return new MergeTreeSink<>(table, input, sinkOptions, failures);
    }

    /** {@code ddl} parsed; an {@link IllegalArgumentException} naming the problem if invalid. */
    private static TableDefinition definition(String ddl) {
        try {
            return TableDefinition.parse(ddl);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid table DDL: " + e.getMessage(), e);
        }
    }

    /**
     * A table that already exists must have been created with this DDL (the writers refuse it
     * otherwise, after the job started); a table this process cannot see is checked there.
     */
    private static void checkStoredDdl(TableStorage storage, ResolvedTable resolved) {
        Optional<String> stored;
        try {
            stored = storage.storedDdl();
        } catch (IOException e) {
            return; // not visible here (another machine's filesystem): the writers check
        }
        if (stored.isPresent() && !stored.get().strip().equals(resolved.layout().ddl().strip())) {
            throw new IllegalArgumentException(
                    "the table in "
                            + storage.describe()
                            + " was created with a different DDL:\n"
                            + stored.get().strip()
                            + "\nnot:\n"
                            + resolved.layout().ddl().strip()
                            + "\n(give that DDL, or no DDL to use it, or another table path)");
        }
    }

    private void checkOptions() {
        // sink.delivery-guarantee is insert_deduplicate (or contradicts it: refused)
        InsertDeduplication.resolve(options);
        // min_insert_block_size_rows/bytes, max_memory_usage, max_insert_threads: one parse
        InsertBlockSize.of(options);
        positive(MergeTreeSinkOptions.BACKGROUND_POOL_SIZE);
        positive(MergeTreeSinkOptions.S3_RETRY_ATTEMPTS);
        long initial = options.get(MergeTreeSinkOptions.S3_RETRY_INITIAL_BACKOFF_MS);
        long max = options.get(MergeTreeSinkOptions.S3_RETRY_MAX_BACKOFF_MS);
        if (initial < 0 || max < initial) {
            throw new IllegalArgumentException(
                    "s3_retry_max_backoff_ms ("
                            + max
                            + ") must be >= s3_retry_initial_backoff_ms ("
                            + initial
                            + ") >= 0");
        }
        int partitions = options.get(MergeTreeSinkOptions.MAX_PARTITIONS_PER_INSERT_BLOCK);
        if (partitions < 0) {
            throw new IllegalArgumentException(
                    "max_partitions_per_insert_block must be 0 (no limit) or positive, got "
                            + partitions);
        }
        try {
            java.time.ZoneId.of(options.get(MergeTreeSinkOptions.TIMEZONE));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "unknown timezone '" + options.get(MergeTreeSinkOptions.TIMEZONE) + "'");
        }
    }

    private void positive(ConfigOption<Integer> o) {
        int v = options.get(o);
        if (v <= 0) {
            throw new IllegalArgumentException(o.key() + " must be positive, got " + v);
        }
    }
}
