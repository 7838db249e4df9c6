package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.compress.ColumnCodec;
import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.compress.CompressionCodecs;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.EngineDefinition;
import io.github.s3mergetree.engine.ddl.MergeTreeSettings;
import io.github.s3mergetree.engine.ddl.ProjectionDefinition;
import io.github.s3mergetree.engine.ddl.SkipIndexDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.index.SkipIndex;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartProjection;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.serde.NestedOffsets;
import io.github.s3mergetree.engine.serde.SubstreamTypes;
import io.github.s3mergetree.engine.types.AggregateFunctionType;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves a parsed {@code CREATE TABLE} into the {@link TableLayout} the table layer works with:
 * stored columns, codecs, keys, the engine's merging mode, the part format (from {@code
 * index_granularity}, {@code index_granularity_bytes}, {@code min/max_compress_block_size}, {@code
 * fsync_after_insert}) and the table settings by their ClickHouse names.
 *
 * <p>Parts are always written with uncompressed marks and primary index and classic Strings (the
 * format every ClickHouse since 19.11 reads, and 18.16 too when {@code index_granularity_bytes =
 * 0}), whatever {@code compress_marks} / {@code compress_primary_key} say: those settings only
 * decide how ClickHouse writes its own parts, and it reads ours either way.
 */
public final class TableLayouts {
    private TableLayouts() {}

    /** The layout of {@code schema}; {@code optimizeOnInsert} is ClickHouse's query setting. */
    public static TableLayout fromSchema(
            TableSchema schema, EvaluationContext evaluation, boolean optimizeOnInsert) {
        List<String> names = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        Map<String, CompressionCodec> codecs = new HashMap<>();
        MergeTreeSettings s = schema.settings();
        CompressionCodec defaultCodec = defaultCodec(schema.name(), s);
        for (ColumnDefinition c : schema.storedColumns()) {
            names.add(c.name());
            types.add(c.type());
            if (c.codec().isPresent()) {
                try {
                    ColumnCodec codec = ColumnCodec.parse(c.codec().get(), defaultCodec);
                    codec.validate(
                            c.type(), SubstreamTypes.valueStreams(c.name(), c.type()).values());
                    codecs.put(c.name(), codec);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(
                            "table "
                                    + schema.name()
                                    + ", column "
                                    + c.name()
                                    + " CODEC("
                                    + c.codec().get()
                                    + "): "
                                    + e.getMessage(),
                            e);
                }
            }
        }
        PartWriterOptions format =
                new PartWriterOptions(
                        (int) s.indexGranularity(),
                        s.indexGranularityBytes(),
                        (int) s.minCompressBlockSize(),
                        (int) s.maxCompressBlockSize(),
                        defaultCodec,
                        s.getBoolean("fsync_after_insert", false)
                                || s.getBoolean("fsync_part_directory", false),
                        s.getBoolean("share_nested_offsets", true));
        List<SkipIndex> skipIndexes = new ArrayList<>();
        for (SkipIndexDefinition d : schema.skipIndexes()) {
            skipIndexes.add(SkipIndex.of(d, evaluation));
        }
        format = format.withSkipIndexes(skipIndexes);
        List<PartProjection> projections = new ArrayList<>();
        for (ProjectionDefinition d : schema.projections()) {
            projections.add(new PartProjection(d, evaluation));
        }
        format = format.withProjections(projections);
        try {
            // the streams of every column: a file name two columns would write is refused now
            PartWriter.columnSerializations(names, types, format);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + schema.name() + ": " + e.getMessage(), e);
        }
        if (schema.engine().kind() == EngineDefinition.Kind.SUMMING_MERGE_TREE) {
            refuseSummedNestedMaps(schema.name(), names, types, schema.sortingKey());
            refuseSimpleAggregateFunctions(schema.name(), names, types);
        }
        TableSettings defaults = TableSettings.defaults();
        SimpleMergeSelector.Settings selector = mergeSelector(schema.name(), s);
        TableSettings settings =
                new TableSettings(
                        (int) s.partsToDelayInsert(),
                        (int) s.partsToThrowInsert(),
                        Duration.ofSeconds(s.getLong("max_delay_to_insert", 1)),
                        Duration.ofSeconds(s.oldPartsLifetime()),
                        Duration.ofSeconds(
                                s.getLong(
                                        "temporary_directories_lifetime",
                                        defaults.temporaryDirectoriesLifetime().getSeconds())),
                        s.maxBytesToMergeAtMaxSpaceInPool(),
                        (int) s.mergeMaxBlockSize(),
                        selector.maxPartsToMergeAtOnce(),
                        optimizeOnInsert,
                        defaults.deduplicationWindow(),
                        selector);
        return new TableLayout(
                schema.toCreateTableSql(),
                schema.name(),
                names,
                types,
                codecs,
                schema.partitionKey(),
                schema.storageSortingKey(),
                schema.primaryKey().size(),
                mergingMode(schema.engine()),
                format,
                settings,
                evaluation,
                io.github.s3mergetree.engine.ttl.TableTtl.of(schema));
    }

    /**
     * The codec of columns without {@code CODEC(...)}: the table's {@code
     * default_compression_codec} setting (a generic codec, as ClickHouse upper-cases its name) or
     * ClickHouse's default, {@code LZ4}.
     */
    static CompressionCodec defaultCodec(String table, MergeTreeSettings s) {
        String setting = s.get("default_compression_codec").orElse("").strip();
        if (setting.isEmpty() || setting.equals("''")) {
            return CompressionCodecs.lz4();
        }
        try {
            return ColumnCodec.parseTableDefault(setting);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "table " + table + ": default_compression_codec: " + e.getMessage(), e);
        }
    }

    /**
     * The merge policy's knobs from the table's settings, by ClickHouse's names and defaults.
     * Variants of ClickHouse's selector that are not implemented (another {@code
     * merge_selector_algorithm}, a blurry base, the heuristic lowering {@code
     * max_parts_to_merge_at_once}) are refused rather than silently ignored.
     */
    static SimpleMergeSelector.Settings mergeSelector(String table, MergeTreeSettings s) {
        String algorithm = s.get("merge_selector_algorithm").orElse("Simple").replace("'", "");
        if (!algorithm.equalsIgnoreCase("Simple")) {
            throw new IllegalArgumentException(
                    "table "
                            + table
                            + ": merge_selector_algorithm = '"
                            + algorithm
                            + "' is not supported (only 'Simple', ClickHouse's default)");
        }
        if (s.getLong("merge_selector_blurry_base_scale_factor", 0) != 0) {
            throw new IllegalArgumentException(
                    "table "
                            + table
                            + ": merge_selector_blurry_base_scale_factor (the blurry base) is not"
                            + " supported; the merge selector is deterministic");
        }
        if (s.getBoolean(
                "merge_selector_enable_heuristic_to_lower_max_parts_to_merge_at_once", false)) {
            throw new IllegalArgumentException(
                    "table "
                            + table
                            + ": merge_selector_enable_heuristic_to_lower_max_parts_to_merge_at_once"
                            + " is not supported");
        }
        SimpleMergeSelector.Settings d = SimpleMergeSelector.Settings.defaults();
        long maxParts = s.getLong("max_parts_to_merge_at_once", d.maxPartsToMergeAtOnce());
        long window = s.getLong("merge_selector_window_size", d.windowSize());
        try {
            return d.withTableSettings(
                    (int) Math.min(Integer.MAX_VALUE, maxParts),
                    s.getDouble("merge_selector_base", d.base()),
                    (int) Math.min(Integer.MAX_VALUE, window),
                    s.getLong("min_age_to_force_merge_seconds", d.minAgeToForceMerge()),
                    s.getBoolean(
                            "merge_selector_enable_heuristic_to_remove_small_parts_at_right",
                            d.enableHeuristicToRemoveSmallPartsAtRight()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("table " + table + ": " + e.getMessage(), e);
        }
    }

    /** Parses {@code ddl} and resolves it with UTC as the server time zone. */
    public static TableLayout fromDdl(String ddl) {
        return fromSchema(TableSchema.parse(ddl), EvaluationContext.utc(), true);
    }

    /**
     * SummingMergeTree sums a Nested structure whose name ends in {@code Map} (two or more Array
     * columns, none in the sorting key: {@code statsMap.id}, {@code statsMap.cnt}) as a map of keys
     * to summed values ({@code sumMapWithOverflow}); the merger does not implement that, and would
     * keep one row's arrays, so such a table is refused instead.
     */
    static void refuseSummedNestedMaps(
            String table,
            List<String> names,
            List<DataType> types,
            io.github.s3mergetree.engine.expr.KeyExpression sortingKey) {
        Map<String, List<String>> maps = new java.util.LinkedHashMap<>();
        for (int c = 0; c < names.size(); c++) {
            String name = names.get(c);
            java.util.Optional<String> structure = NestedOffsets.structureOf(name);
            if (types.get(c) instanceof ArrayType
                    && structure.isPresent()
                    && structure.get().endsWith("Map")) {
                maps.computeIfAbsent(structure.get(), k -> new ArrayList<>()).add(name);
            }
        }
        for (Map.Entry<String, List<String>> m : maps.entrySet()) {
            boolean keyed = false;
            for (String column : m.getValue()) {
                keyed |= sortingKey.requiredColumns().contains(column);
            }
            if (m.getValue().size() >= 2 && !keyed) {
                throw new IllegalArgumentException(
                        "table "
                                + table
                                + ": SummingMergeTree sums the Nested structure "
                                + m.getKey()
                                + " ("
                                + String.join(", ", m.getValue())
                                + ") as a map, as ClickHouse does for a name ending in Map;"
                                + " this engine does not implement that");
            }
        }
    }

    /**
     * SummingMergeTree merges a {@code SimpleAggregateFunction(f, T)} column with {@code f} rather
     * than summing it, and an {@code AggregateFunction(f, T…)} column's states with f's merge; the
     * merger does not implement that (only AggregatingMergeTree's merges do), so such a table is
     * refused instead of keeping one row's value.
     */
    static void refuseSimpleAggregateFunctions(
            String table, List<String> names, List<DataType> types) {
        for (int i = 0; i < names.size(); i++) {
            boolean states = types.get(i) instanceof AggregateFunctionType;
            if (types.get(i).simpleAggregateFunction() != null || states) {
                throw new IllegalArgumentException(
                        "table "
                                + table
                                + ": column "
                                + names.get(i)
                                + " "
                                + types.get(i).name()
                                + ": SummingMergeTree merges "
                                + (states
                                        ? "an AggregateFunction column's states"
                                        : "a SimpleAggregateFunction column with its function")
                                + "; this engine implements that only for"
                                + " AggregatingMergeTree");
            }
        }
    }

    static MergingMode mergingMode(EngineDefinition e) {
        return switch (e.kind()) {
            case MERGE_TREE -> MergingMode.ORDINARY;
            case REPLACING_MERGE_TREE ->
                    MergingMode.replacing(
                            e.versionColumn().orElse(null), e.isDeletedColumn().orElse(null));
            case SUMMING_MERGE_TREE -> MergingMode.summing(e.sumColumns());
            case COLLAPSING_MERGE_TREE -> MergingMode.collapsing(e.signColumn().orElseThrow());
            case VERSIONED_COLLAPSING_MERGE_TREE ->
                    MergingMode.versionedCollapsing(
                            e.signColumn().orElseThrow(), e.versionColumn().orElseThrow());
            case AGGREGATING_MERGE_TREE -> MergingMode.AGGREGATING;
        };
    }
}
