package io.github.s3mergetree.sink.mergetree.table;

import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.table.TableSettings;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.time.ZoneId;
import org.apache.flink.annotation.Internal;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The table a sink writes, resolved where the sink is built and once in each task that uses it
 * ({@link SinkTable}): its schema (from the sink's DDL, else the DDL stored in the table directory)
 * and its layout, with the sink's overrides of {@code parts_to_delay_insert} / {@code
 * parts_to_throw_insert} and {@code optimize_on_insert}.
 *
 * @param schema the parsed table
 * @param layout what the engine writes
 * @param serverZone the server time zone
 */
@Internal
public record ResolvedTable(TableSchema schema, TableLayout layout, ZoneId serverZone) {

    /**
     * Resolves the table of a sink: {@code definition}, else the DDL stored in the table directory
     * (parsed here).
     */
    public static ResolvedTable resolve(
            TableDefinition definition, TableStorage storage, ReadableConfig options)
            throws IOException {
        if (definition != null) {
            return resolve(definition, options);
        }
        String stored =
                storage.storedDdl()
                        .orElseThrow(
                                () ->
                                        new IOException(
                                                "no DDL given and no table in "
                                                        + storage.describe()
                                                        + " (s3mergetree_metadata/table.sql is"
                                                        + " missing)"));
        return resolve(TableDefinition.parse(stored), options);
    }

    /** {@link #resolve(TableDefinition, TableStorage, ReadableConfig)} of a DDL text (or null). */
    public static ResolvedTable resolve(String ddl, TableStorage storage, ReadableConfig options)
            throws IOException {
        return resolve(ddl == null ? null : TableDefinition.parse(ddl), storage, options);
    }

    /** Parses {@code ddl} and resolves it with the sink's options. */
    public static ResolvedTable resolve(String ddl, ReadableConfig options) {
        return resolve(TableDefinition.parse(ddl), options);
    }

    /** Resolves {@code definition} with the sink's options (nothing is parsed). */
    public static ResolvedTable resolve(TableDefinition definition, ReadableConfig options) {
        ZoneId zone = ZoneId.of(options.get(MergeTreeSinkOptions.TIMEZONE));
        TableSchema schema = definition.schema();
        TableLayout base =
                TableLayouts.fromSchema(
                        schema,
                        EvaluationContext.of(zone),
                        options.get(MergeTreeSinkOptions.OPTIMIZE_ON_INSERT));
        TableSettings s = base.settings();
        int delay =
                options.getOptional(MergeTreeSinkOptions.PARTS_TO_DELAY_INSERT)
                        .orElse(s.partsToDelayInsert());
        int refuse =
                options.getOptional(MergeTreeSinkOptions.PARTS_TO_THROW_INSERT)
                        .orElse(s.partsToThrowInsert());
        TableLayout layout = base;
        if (delay != s.partsToDelayInsert() || refuse != s.partsToThrowInsert()) {
            if (delay >= refuse) {
                throw new IllegalArgumentException(
                        "parts_to_delay_insert ("
                                + delay
                                + ") must be below parts_to_throw_insert ("
                                + refuse
                                + ")");
            }
            layout =
                    new TableLayout(
                            base.ddl(),
                            base.tableName(),
                            base.columnNames(),
                            base.columnTypes(),
                            base.columnCodecs(),
                            base.partitionKey(),
                            base.sortingKey(),
                            base.primaryKeySize(),
                            base.mergingMode(),
                            base.partFormat(),
                            s.withPartsLimits(delay, refuse),
                            base.evaluation(),
                            base.ttl());
        }
        return new ResolvedTable(schema, layout, zone);
    }
}
