package io.github.s3mergetree.source.s3.sql;

import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.connector.settings.NamedSettings;
import io.github.s3mergetree.connector.types.ClickHouseTypes;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Flink SQL source {@code 'connector' = 's3-objects'}: the objects matching a ClickHouse glob,
 * decoded by a ClickHouse format, as a table, bounded or (with {@code source.monitor-interval})
 * continuous, with projection push-down (only the selected columns are decoded):
 *
 * <pre>{@code
 * CREATE TABLE posts_src (id BIGINT, title STRING, created TIMESTAMP(3))
 * WITH ('connector' = 's3-objects', 'path' = 's3://bucket/posts/**.parquet', 'format' = 'Parquet',
 *       's3.endpoint' = 'http://127.0.0.1:9000', 'max_download_threads' = '8');
 * INSERT INTO posts SELECT * FROM posts_src;   -- posts: 'connector' = 'mergetree'
 * }</pre>
 *
 * <p>Each column is decoded as a ClickHouse type, the one its Flink type maps to ({@link
 * ClickHouseTypes#fromFlink}) unless {@code 'columns'} names another; it is then read as the
 * declared Flink type. Options: {@link S3ObjectsTableOptions}, the S3 connection ({@link
 * S3ConnectionOptions}, the keys the sink takes too) and every {@link S3SourceOptions}, plus {@code
 * scan.parallelism}. Mistakes (an unknown format, a type that cannot be read, a bad option) fail
 * the statement, not the running job.
 */
@PublicEvolving
public final class S3ObjectsDynamicTableSourceFactory implements DynamicTableSourceFactory {
    /** The connector name. */
    public static final String IDENTIFIER = "s3-objects";

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of(S3ObjectsTableOptions.PATH, S3ObjectsTableOptions.FORMAT);
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        // booleans as strings: their values are checked as ClickHouse checks them (0, 1, true,
        // false), not by Flink (true, false), when the source is built
        Set<ConfigOption<?>> s = NamedSettings.booleansAsStrings(S3SourceOptions.all());
        s.addAll(NamedSettings.booleansAsStrings(S3ConnectionOptions.all()));
        s.add(S3ObjectsTableOptions.COLUMNS);
        s.add(FactoryUtil.SOURCE_PARALLELISM);
        return s;
    }

    @Override
    public Set<ConfigOption<?>> forwardOptions() {
        return new HashSet<>(optionalOptions());
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        FactoryUtil.TableFactoryHelper helper = FactoryUtil.createTableFactoryHelper(this, context);
        helper.validate();
        ReadableConfig options = helper.getOptions();
        RowType rowType =
                (RowType)
                        context.getCatalogTable()
                                .getResolvedSchema()
                                .toPhysicalRowDataType()
                                .getLogicalType();
        TargetSchema columns = clickHouseColumns(rowType, options);
        Map<String, String> all = new HashMap<>(context.getCatalogTable().getOptions());
        S3ObjectsDynamicTableSource source =
                new S3ObjectsDynamicTableSource(
                        all,
                        rowType,
                        columns,
                        options.getOptional(FactoryUtil.SOURCE_PARALLELISM).orElse(null),
                        context.getObjectIdentifier().asSummaryString());
        source.validate();
        return source;
    }

    /** The ClickHouse types the columns are decoded as: {@code 'columns'}, else derived. */
    static TargetSchema clickHouseColumns(RowType rowType, ReadableConfig options) {
        Map<String, DataType> given = new HashMap<>();
        options.getOptional(S3ObjectsTableOptions.COLUMNS)
                .ifPresent(
                        c -> {
                            TargetSchema s;
                            try {
                                s = TargetSchema.parse(c);
                            } catch (IllegalArgumentException e) {
                                throw new IllegalArgumentException(
                                        "option 'columns': " + e.getMessage(), e);
                            }
                            for (int i = 0; i < s.size(); i++) {
                                if (!rowType.getFieldNames().contains(s.names().get(i))) {
                                    throw new IllegalArgumentException(
                                            "option 'columns' names column '"
                                                    + s.names().get(i)
                                                    + "', which the table does not have (columns: "
                                                    + rowType.getFieldNames()
                                                    + ")");
                                }
                                given.put(s.names().get(i), s.types().get(i));
                            }
                        });
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            String name = rowType.getFieldNames().get(i);
            DataType t = given.get(name);
            if (t == null) {
                try {
                    t = DataTypeParser.parse(ClickHouseTypes.fromFlink(rowType.getTypeAt(i)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "column "
                                    + name
                                    + ": "
                                    + e.getMessage()
                                    + "; name its ClickHouse type in the option 'columns'",
                            e);
                }
            }
            names.add(name);
            types.add(t);
        }
        return TargetSchema.of(names, types);
    }
}
