package io.github.s3mergetree.source.s3.sql;

import io.github.s3mergetree.connector.options.S3ConnectionOptions;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.S3SourceBuilder;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.rowdata.BlockRows;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.utils.TypeConversions;

/**
 * The table source of {@code 'connector' = 's3-objects'}: an {@link S3Source} of {@link RowData}
 * decoding only the projected columns.
 */
@Internal
public final class S3ObjectsDynamicTableSource
        implements ScanTableSource, SupportsProjectionPushDown {
    private final Map<String, String> options;
    private final RowType physicalType;
    private final TargetSchema columns;
    @Nullable private final Integer parallelism;
    private final String table;
    private RowType producedType;

    S3ObjectsDynamicTableSource(
            Map<String, String> options,
            RowType physicalType,
            TargetSchema columns,
            @Nullable Integer parallelism,
            String table) {
        this.options = Map.copyOf(options);
        this.physicalType = physicalType;
        this.columns = columns;
        this.parallelism = parallelism;
        this.table = table;
        this.producedType = physicalType;
    }

    /** Builds the source once, so that a mistake fails the statement. */
    void validate() {
        try {
            source(InternalTypeInfo.of(producedType));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "table " + table + " ('connector' = 's3-objects'): " + e.getMessage(), e);
        }
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        TypeInformation<RowData> type =
                context.createTypeInformation(TypeConversions.fromLogicalToDataType(producedType));
        S3Source<RowData> source = source(type);
        return SourceProvider.of(source, parallelism);
    }

    /** The source this table reads with (built again at each call). */
    S3Source<RowData> source(TypeInformation<RowData> type) {
        TargetSchema decoded = columns.project(producedType.getFieldNames());
        RowType rows = producedType;
        S3SourceBuilder<RowData> b =
                S3Source.<RowData>expandingBlocks(
                                (schema, zone) -> new BlockRows(schema, rows, zone, type))
                        .setSchema(decoded)
                        .setTableColumns(columns)
                        .setFormat(options.get(S3ObjectsTableOptions.FORMAT.key()))
                        .setLocation(options.get(S3ObjectsTableOptions.PATH.key()));
        // the S3 connection and the tuning options, under the key or a deprecated key each was
        // given with: the builder checks them (a boolean as ClickHouse takes it, a bad endpoint)
        Map<String, String> tuning = new HashMap<>();
        for (ConfigOption<?> o : TUNING_AND_CONNECTION) {
            given(o.key()).ifPresent(v -> tuning.put(o.key(), v));
            for (FallbackKey k : o.fallbackKeys()) {
                given(k.getKey()).ifPresent(v -> tuning.put(k.getKey(), v));
            }
        }
        b.setOptions(Configuration.fromMap(tuning));
        return b.build();
    }

    @Override
    public DynamicTableSource copy() {
        S3ObjectsDynamicTableSource c =
                new S3ObjectsDynamicTableSource(options, physicalType, columns, parallelism, table);
        c.producedType = producedType;
        return c;
    }

    @Override
    public String asSummaryString() {
        return "S3Objects(" + options.get(S3ObjectsTableOptions.PATH.key()) + ")";
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(
            int[][] projectedFields, org.apache.flink.table.types.DataType producedDataType) {
        List<RowType.RowField> fields = new ArrayList<>(projectedFields.length);
        for (int[] path : projectedFields) {
            fields.add(physicalType.getFields().get(path[0]));
        }
        this.producedType = new RowType(physicalType.isNullable(), fields);
    }

    private java.util.Optional<String> given(String key) {
        return java.util.Optional.ofNullable(options.get(key));
    }

    /**
     * The options the builder takes by name: {@link S3SourceOptions}, {@link S3ConnectionOptions}.
     */
    private static final List<ConfigOption<?>> TUNING_AND_CONNECTION =
            java.util.stream.Stream.concat(
                            S3SourceOptions.all().stream(), S3ConnectionOptions.all().stream())
                    .toList();

    /** The columns decoded (after projection push-down). */
    public List<String> decodedColumns() {
        return producedType.getFieldNames();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof S3ObjectsDynamicTableSource s
                && s.options.equals(options)
                && s.producedType.equals(producedType)
                && Objects.equals(s.parallelism, parallelism);
    }

    @Override
    public int hashCode() {
        return Objects.hash(options, producedType, parallelism);
    }
}
