package io.github.s3mergetree.sink.mergetree.sql;

import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.connector.types.ClickHouseTypes;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableBuildCheck;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Flink SQL connector {@code 'connector' = 'mergetree'}: {@code INSERT INTO t SELECT ...}
 * writes MergeTree parts into the table directory {@code 'path'}, exactly once.
 *
 * <p>The table's ClickHouse DDL is, in order: {@code 'ddl'}, the file {@code 'ddl-file'}, derived
 * from the Flink schema when {@code 'engine'} is given (with {@code 'order-by'} — default the Flink
 * PRIMARY KEY, else {@code tuple()} —, {@code 'partition-by'}, {@code 'primary-key'}, {@code
 * 'settings'}; types by {@link ClickHouseTypes}), the DDL stored in an existing table directory,
 * and else derived with {@code ENGINE = MergeTree}. Insert settings ({@code
 * min_insert_block_size_rows}, {@code parts_to_delay_insert}, ...) are options of the same names;
 * see {@link MergeTreeSinkOptions}. An {@code s3://} table is reached with the S3 connection
 * options the source takes too ({@link S3ConnectionOptions}: {@code s3.endpoint}, {@code
 * s3.access-key}, ...; the older {@code table.s3.*} keys still work).
 *
 * <pre>{@code
 * CREATE TABLE posts (id BIGINT NOT NULL, title STRING, created TIMESTAMP(3),
 *                     PRIMARY KEY (id) NOT ENFORCED)
 * WITH ('connector' = 'mergetree', 'path' = '/data/posts', 'engine' = 'MergeTree',
 *       'partition-by' = 'toYYYYMM(created)', 'min_insert_block_size_rows' = '1048449');
 * INSERT INTO posts SELECT ...;
 * }</pre>
 */
@PublicEvolving
public final class MergeTreeDynamicTableSinkFactory implements DynamicTableSinkFactory {
    /** The connector name. */
    public static final String IDENTIFIER = "mergetree";

    private static final List<ConfigOption<?>> TABLE_ONLY =
            List.of(
                    MergeTreeSinkOptions.PATH,
                    MergeTreeSinkOptions.DDL,
                    MergeTreeSinkOptions.DDL_FILE,
                    MergeTreeSinkOptions.ENGINE,
                    MergeTreeSinkOptions.ORDER_BY,
                    MergeTreeSinkOptions.PARTITION_BY,
                    MergeTreeSinkOptions.PRIMARY_KEY,
                    MergeTreeSinkOptions.TABLE_SETTINGS,
                    MergeTreeSinkOptions.TABLE_NAME,
                    MergeTreeSinkOptions.SINK_PARALLELISM);

    private static final List<ConfigOption<?>> SINK_OPTIONS =
            List.of(
                    MergeTreeSinkOptions.SINK_ID,
                    MergeTreeSinkOptions.TIMEZONE,
                    MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS,
                    MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES,
                    MergeTreeSinkOptions.MAX_INSERT_THREADS,
                    MergeTreeSinkOptions.MAX_MEMORY_USAGE,
                    MergeTreeSinkOptions.INSERT_DEDUPLICATE,
                    MergeTreeSinkOptions.OPTIMIZE_ON_INSERT,
                    MergeTreeSinkOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS,
                    MergeTreeSinkOptions.PARTS_TO_DELAY_INSERT,
                    MergeTreeSinkOptions.PARTS_TO_THROW_INSERT,
                    MergeTreeSinkOptions.MAX_PARTITIONS_PER_INSERT_BLOCK,
                    MergeTreeSinkOptions.THROW_ON_MAX_PARTITIONS_PER_INSERT_BLOCK,
                    MergeTreeSinkOptions.MERGES_ENABLED,
                    MergeTreeSinkOptions.BACKGROUND_POOL_SIZE,
                    MergeTreeSinkOptions.MERGE_SELECTING_SLEEP_MS,
                    MergeTreeSinkOptions.OPTIMIZE_FINAL,
                    MergeTreeSinkOptions.MERGES_AT_END_OF_INPUT,
                    MergeTreeSinkOptions.DELIVERY_GUARANTEE,
                    S3ConnectionOptions.ENDPOINT,
                    S3ConnectionOptions.REGION,
                    S3ConnectionOptions.PATH_STYLE_ACCESS,
                    S3ConnectionOptions.ACCESS_KEY,
                    S3ConnectionOptions.SECRET_KEY,
                    MergeTreeSinkOptions.CLICKHOUSE_URL,
                    MergeTreeSinkOptions.CLICKHOUSE_TABLE,
                    MergeTreeSinkOptions.CLICKHOUSE_USER,
                    MergeTreeSinkOptions.CLICKHOUSE_PASSWORD,
                    MergeTreeSinkOptions.DELIVER,
                    MergeTreeSinkOptions.CLICKHOUSE_S3_URL,
                    MergeTreeSinkOptions.CLICKHOUSE_S3_ACCESS_KEY,
                    MergeTreeSinkOptions.CLICKHOUSE_S3_SECRET_KEY,
                    MergeTreeSinkOptions.CLICKHOUSE_TABLE_DIR,
                    MergeTreeSinkOptions.VALIDATE_ON_BUILD,
                    MergeTreeSinkOptions.S3_RETRY_ATTEMPTS,
                    MergeTreeSinkOptions.S3_RETRY_INITIAL_BACKOFF_MS,
                    MergeTreeSinkOptions.S3_RETRY_MAX_BACKOFF_MS);

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(MergeTreeSinkOptions.PATH);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        Set<ConfigOption<?>> s = new java.util.HashSet<>(TABLE_ONLY);
        s.remove(MergeTreeSinkOptions.PATH);
        // booleans as strings: their values are checked as ClickHouse checks them (0, 1, true,
        // false), not by Flink (true, false), when the sink is built
        s.addAll(NamedSettings.booleansAsStrings(SINK_OPTIONS));
        return s;
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        RowType rowType = (RowType) schema.toPhysicalRowDataType().getLogicalType();
        String path = options.get(MergeTreeSinkOptions.PATH);
        if (options.get(MergeTreeSinkOptions.VALIDATE_ON_BUILD)) {
            // a wrong secret, a missing bucket or an unreachable endpoint: one line at planning
            TableBuildCheck.check(TableLocation.parse(path, MergeTreeSinkOptions.tableS3(options)));
        }
        String ddl =
                resolveDdl(
                        options,
                        schema,
                        rowType,
                        path,
                        context.getObjectIdentifier().getObjectName());
        Map<String, String> settings = new HashMap<>();
        for (ConfigOption<?> o : SINK_OPTIONS) {
            // as written, under the key or a deprecated key: the sink builder checks and parses
            // them (setSettings)
            options.getOptional(NamedSettings.asString(o)).ifPresent(v -> settings.put(o.key(), v));
        }
        // a mistake (a boolean ClickHouse would not take) fails the statement, not the job
        MergeTreeSink.forRowData().setSettings(settings);
        return new MergeTreeDynamicTableSink(
                rowType,
                path,
                ddl,
                settings,
                options.getOptional(MergeTreeSinkOptions.SINK_PARALLELISM).orElse(null),
                context.getObjectIdentifier().asSummaryString(),
                ddlOrigin(options, ddl));
    }

    /** Where the table's DDL came from, in SQL option terms, for messages. */
    private static String ddlOrigin(ReadableConfig options, String ddl) {
        if (options.getOptional(MergeTreeSinkOptions.DDL).isPresent()) {
            return "option '" + MergeTreeSinkOptions.DDL.key() + "'";
        }
        if (options.getOptional(MergeTreeSinkOptions.DDL_FILE).isPresent()) {
            return "option '" + MergeTreeSinkOptions.DDL_FILE.key() + "'";
        }
        if (ddl == null) {
            return "the table directory of option '" + MergeTreeSinkOptions.PATH.key() + "'";
        }
        return "the Flink schema and options 'engine', 'order-by', 'partition-by',"
                + " 'primary-key', 'settings'";
    }

    private static String resolveDdl(
            ReadableConfig options,
            ResolvedSchema schema,
            RowType rowType,
            String path,
            String flinkName) {
        Optional<String> ddl = options.getOptional(MergeTreeSinkOptions.DDL);
        if (ddl.isPresent()) {
            return ddl.get();
        }
        Optional<String> file = options.getOptional(MergeTreeSinkOptions.DDL_FILE);
        if (file.isPresent()) {
            try {
                return DdlFiles.read(Path.of(file.get()));
            } catch (IOException e) {
                throw new UncheckedIOException("option 'ddl-file': cannot read " + file.get(), e);
            }
        }
        if (options.getOptional(MergeTreeSinkOptions.ENGINE).isEmpty()) {
            try {
                TableStorage table =
                        TableLocation.parse(path, MergeTreeSinkOptions.tableS3(options));
                Optional<String> stored = TableBuildCheck.quick(table).storedDdl();
                if (stored.isPresent()) {
                    return null; // the writers use the stored DDL
                }
            } catch (IOException | RuntimeException e) {
                // not visible here (or an invalid path, refused when the sink is built): derive
            }
        }
        return deriveDdl(options, schema, rowType, flinkName);
    }

    /** A CREATE TABLE for the Flink schema, with the engine and keys of the options. */
    static String deriveDdl(
            ReadableConfig options, ResolvedSchema schema, RowType rowType, String flinkName) {
        String name = options.getOptional(MergeTreeSinkOptions.TABLE_NAME).orElse(flinkName);
        StringBuilder s =
                new StringBuilder("CREATE TABLE ")
                        .append(ClickHouseTypes.quote(name))
                        .append("\n(\n");
        Set<String> keyColumns = new java.util.HashSet<>();
        for (ConfigOption<String> key :
                List.of(
                        MergeTreeSinkOptions.PARTITION_BY,
                        MergeTreeSinkOptions.ORDER_BY,
                        MergeTreeSinkOptions.PRIMARY_KEY)) {
            options.getOptional(key)
                    .ifPresent(
                            e -> {
                                java.util.regex.Matcher m =
                                        java.util.regex.Pattern.compile(
                                                        "`([^`]+)`|([A-Za-z_][A-Za-z0-9_]*)")
                                                .matcher(e);
                                while (m.find()) {
                                    keyColumns.add(m.group(1) != null ? m.group(1) : m.group(2));
                                }
                            });
        }
        schema.getPrimaryKey().ifPresent(pk -> keyColumns.addAll(pk.getColumns()));
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String column = rowType.getFieldNames().get(i);
            // key columns cannot be Nullable (allow_nullable_key = 0): a NULL is stored as default
            LogicalType type = rowType.getTypeAt(i);
            if (keyColumns.contains(column)) {
                type = type.copy(false);
            }
            s.append("    ")
                    .append(ClickHouseTypes.quote(column))
                    .append(' ')
                    .append(ClickHouseTypes.fromFlink(type))
                    .append(i + 1 < rowType.getFieldCount() ? ",\n" : "\n");
        }
        s.append(")\nENGINE = ")
                .append(options.getOptional(MergeTreeSinkOptions.ENGINE).orElse("MergeTree"));
        options.getOptional(MergeTreeSinkOptions.PARTITION_BY)
                .ifPresent(p -> s.append("\nPARTITION BY ").append(p));
        options.getOptional(MergeTreeSinkOptions.PRIMARY_KEY)
                .ifPresent(p -> s.append("\nPRIMARY KEY ").append(p));
        String orderBy =
                options.getOptional(MergeTreeSinkOptions.ORDER_BY)
                        .orElseGet(
                                () ->
                                        schema.getPrimaryKey()
                                                .map(
                                                        pk -> {
                                                            List<String> cols = pk.getColumns();
                                                            StringBuilder k =
                                                                    new StringBuilder("(");
                                                            for (int i = 0; i < cols.size(); i++) {
                                                                k.append(i > 0 ? ", " : "")
                                                                        .append(
                                                                                ClickHouseTypes
                                                                                        .quote(
                                                                                                cols
                                                                                                        .get(
                                                                                                                i)));
                                                            }
                                                            return k.append(')').toString();
                                                        })
                                                .orElse("tuple()"));
        s.append("\nORDER BY ").append(orderBy);
        options.getOptional(MergeTreeSinkOptions.TABLE_SETTINGS)
                .ifPresent(p -> s.append("\nSETTINGS ").append(p));
        return s.toString();
    }
}
