package io.github.s3mergetree.sink.mergetree.sql;

import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkBuilder;
import java.util.Map;
import org.apache.flink.annotation.Internal;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The SQL side of the MergeTree sink: an insert-only {@link DynamicTableSink} whose runtime is a
 * {@link MergeTreeSink} of {@link RowData} mapped by column name.
 */
@Internal
public final class MergeTreeDynamicTableSink implements DynamicTableSink {
    private final RowType rowType;
    private final String path;
    private final String ddl;
    private final Map<String, String> settings;
    private final Integer parallelism;
    private final String table;
    private final String ddlOrigin;

    MergeTreeDynamicTableSink(
            RowType rowType,
            String path,
            String ddl,
            Map<String, String> settings,
            Integer parallelism,
            String table,
            String ddlOrigin) {
        this.table = table;
        this.ddlOrigin = ddlOrigin;
        this.rowType = rowType;
        this.path = path;
        this.ddl = ddl;
        this.settings = settings;
        this.parallelism = parallelism;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return ChangelogMode.insertOnly();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        MergeTreeSinkBuilder<RowData> b =
                MergeTreeSink.forRowData()
                        .setRowType(rowType)
                        .setTablePath(path)
                        .setSettings(settings);
        if (ddl != null) {
            b.setDdl(ddl);
        }
        try {
            return SinkV2Provider.of(b.build(), parallelism);
        } catch (IllegalArgumentException e) {
            // the statement's mistake, named in the SQL table's terms
            throw new IllegalArgumentException(
                    "table "
                            + table
                            + " ('connector' = 'mergetree', DDL from "
                            + ddlOrigin
                            + "): "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public DynamicTableSink copy() {
        return new MergeTreeDynamicTableSink(
                rowType, path, ddl, settings, parallelism, table, ddlOrigin);
    }

    @Override
    public String asSummaryString() {
        return "MergeTree(" + path + ")";
    }

    /** The DDL the sink writes with (null: the one stored in the table directory). */
    public String ddl() {
        return ddl;
    }
}
