package io.github.s3mergetree.engine.ddl;

import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.expr.SqlLexer;
import io.github.s3mergetree.engine.types.DataType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable MergeTree table definition, parsed and validated from {@code CREATE TABLE}: the
 * columns, the engine, the partition, sorting and primary keys and the table settings.
 *
 * <p>Why: it is everything the part writer needs to know about a table (which columns are stored,
 * with which types; how rows are sorted and partitioned; granularity and compression) in a form
 * that has already been checked the way ClickHouse checks it, so a part written for it attaches to
 * the same table in ClickHouse. {@link #toCreateTableSql()} prints an equivalent canonical
 * statement.
 */
public final class TableSchema {
    private final String database;
    private final String name;
    private final List<ColumnDefinition> columns;
    private final List<SkipIndexDefinition> skipIndexes;
    private final EngineDefinition engine;
    private final KeyExpression partitionKey;
    private final KeyExpression sortingKey;
    private final KeyExpression primaryKey;
    private final KeyExpression samplingKey;
    private final List<TtlRule> ttl;
    private final MergeTreeSettings settings;
    private final String comment;
    private final List<ProjectionDefinition> projections;

    TableSchema(
            String database,
            String name,
            List<ColumnDefinition> columns,
            List<SkipIndexDefinition> skipIndexes,
            EngineDefinition engine,
            KeyExpression partitionKey,
            KeyExpression sortingKey,
            KeyExpression primaryKey,
            KeyExpression samplingKey,
            List<TtlRule> ttl,
            MergeTreeSettings settings,
            String comment) {
        this.database = database;
        this.name = Objects.requireNonNull(name);
        this.columns = List.copyOf(columns);
        this.skipIndexes = List.copyOf(skipIndexes);
        this.engine = Objects.requireNonNull(engine);
        this.partitionKey = Objects.requireNonNull(partitionKey);
        this.sortingKey = Objects.requireNonNull(sortingKey);
        this.primaryKey = Objects.requireNonNull(primaryKey);
        this.samplingKey = Objects.requireNonNull(samplingKey);
        this.ttl = List.copyOf(ttl);
        this.settings = Objects.requireNonNull(settings);
        this.comment = comment;
        this.projections = List.of();
    }

    private TableSchema(TableSchema base, List<ProjectionDefinition> projections) {
        this.database = base.database;
        this.name = base.name;
        this.columns = base.columns;
        this.skipIndexes = base.skipIndexes;
        this.engine = base.engine;
        this.partitionKey = base.partitionKey;
        this.sortingKey = base.sortingKey;
        this.primaryKey = base.primaryKey;
        this.samplingKey = base.samplingKey;
        this.ttl = base.ttl;
        this.settings = base.settings;
        this.comment = base.comment;
        this.projections = List.copyOf(projections);
    }

    /** This schema with the (already validated) projections {@code projections}. */
    TableSchema withProjections(List<ProjectionDefinition> projections) {
        return new TableSchema(this, projections);
    }

    /**
     * Parses and validates a {@code CREATE TABLE} statement (see {@link DdlParser#parse}).
     *
     * @throws DdlParseException if the statement is malformed or ClickHouse would reject it
     * @throws UnsupportedDdlException if it uses something this engine cannot honour
     */
    public static TableSchema parse(String ddl) {
        return DdlParser.parse(ddl);
    }

    /**
     * Parses and validates a {@code CREATE TABLE} statement within {@code limits} (see {@link
     * DdlParser#parse(String, DdlLimits)}).
     */
    public static TableSchema parse(String ddl, DdlLimits limits) {
        return DdlParser.parse(ddl, limits);
    }

    /** The database, if the statement names one ({@code db.table}). */
    public Optional<String> database() {
        return Optional.ofNullable(database);
    }

    /** The table name. */
    public String name() {
        return name;
    }

    /** All columns in declaration order (ALIAS columns included). */
    public List<ColumnDefinition> columns() {
        return columns;
    }

    /** The columns stored in parts (all but ALIAS), in declaration order. */
    public List<ColumnDefinition> storedColumns() {
        List<ColumnDefinition> out = new ArrayList<>();
        for (ColumnDefinition c : columns) {
            if (c.isStored()) {
                out.add(c);
            }
        }
        return Collections.unmodifiableList(out);
    }

    /** The column named {@code name}, if any. */
    public Optional<ColumnDefinition> column(String name) {
        for (ColumnDefinition c : columns) {
            if (c.name().equals(name)) {
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** Name → type of all columns, in declaration order. */
    public Map<String, DataType> columnTypes() {
        Map<String, DataType> m = new LinkedHashMap<>();
        for (ColumnDefinition c : columns) {
            m.put(c.name(), c.type());
        }
        return Collections.unmodifiableMap(m);
    }

    /** The data-skipping indexes ({@code INDEX ... TYPE ...}), in declaration order. */
    public List<SkipIndexDefinition> skipIndexes() {
        return skipIndexes;
    }

    /**
     * The projections ({@code PROJECTION name (SELECT …)}), in declaration order: every part of the
     * table carries each as a {@code <name>.proj} sub-part.
     */
    public List<ProjectionDefinition> projections() {
        return projections;
    }

    public EngineDefinition engine() {
        return engine;
    }

    /** The partition key ({@link KeyExpression#EMPTY} if the table is not partitioned). */
    public KeyExpression partitionKey() {
        return partitionKey;
    }

    /** The sorting key ({@code ORDER BY}; empty for {@code ORDER BY tuple()}). */
    public KeyExpression sortingKey() {
        return sortingKey;
    }

    /**
     * The key the parts are sorted by: the {@link #sortingKey()}, and for {@code
     * VersionedCollapsingMergeTree(sign, version)} the version column appended unless the key
     * already has it as an element, as ClickHouse's registerStorageMergeTree appends it ({@code
     * system.tables.sorting_key} shows it; the primary key stays as declared).
     */
    public KeyExpression storageSortingKey() {
        if (engine.kind() != EngineDefinition.Kind.VERSIONED_COLLAPSING_MERGE_TREE) {
            return sortingKey;
        }
        String version = engine.versionColumn().orElseThrow();
        if (sortingKey.columnNames().contains(version)) {
            return sortingKey;
        }
        List<io.github.s3mergetree.engine.expr.Expr> elements =
                new ArrayList<>(sortingKey.elements());
        elements.add(
                new io.github.s3mergetree.engine.expr.ColumnRef(
                        version, column(version).orElseThrow().type()));
        return new KeyExpression(elements);
    }

    /** The primary key: {@code PRIMARY KEY}, else the sorting key; a prefix of the sorting key. */
    public KeyExpression primaryKey() {
        return primaryKey;
    }

    /**
     * The sampling key ({@code SAMPLE BY}; {@link KeyExpression#EMPTY} without one). Parts do not
     * depend on it: ClickHouse evaluates it when a query says {@code SAMPLE}, so it only has to be
     * part of every statement that creates the table in ClickHouse.
     */
    public KeyExpression samplingKey() {
        return samplingKey;
    }

    /**
     * The table's {@code TTL} rules, in declaration order: at most one without {@code WHERE}, any
     * number with one (empty without a {@code TTL} clause).
     */
    public List<TtlRule> ttl() {
        return ttl;
    }

    /** Whether the table or one of its columns has a {@code TTL}. */
    public boolean hasAnyTtl() {
        if (!ttl.isEmpty()) {
            return true;
        }
        for (ColumnDefinition c : columns) {
            if (c.ttl().isPresent()) {
                return true;
            }
        }
        return false;
    }

    public MergeTreeSettings settings() {
        return settings;
    }

    /** The table comment. */
    public Optional<String> comment() {
        return Optional.ofNullable(comment);
    }

    /**
     * A canonical {@code CREATE TABLE} statement for this schema; parsing it gives an equal schema,
     * and ClickHouse accepts it.
     */
    public String toCreateTableSql() {
        return toSql("CREATE TABLE ", null, null, engine);
    }

    /**
     * {@code ATTACH TABLE name UUID 'uuid' (…) ENGINE = … SETTINGS <the table's>, <extra>}: the
     * statement that makes ClickHouse read a table whose data is already somewhere (e.g. in place
     * on S3, with {@code extraSettings = "table_disk = 1, disk = disk(type = s3_plain, …)"}). The
     * engine is the plain one ({@link EngineDefinition#withoutReplication()}): the attached table
     * is the one copy on its own store, which no ZooKeeper replicates.
     */
    public String toAttachSql(String uuid, String extraSettings) {
        return toSql("ATTACH TABLE ", uuid, extraSettings, engine.withoutReplication());
    }

    private String toSql(String verb, String uuid, String extraSettings, EngineDefinition engine) {
        StringBuilder b = new StringBuilder(verb);
        if (database != null) {
            b.append(DdlParser.quoteIdentifier(database)).append('.');
        }
        b.append(DdlParser.quoteIdentifier(name));
        if (uuid != null) {
            b.append(" UUID ").append(SqlLexer.quoteString(uuid));
        }
        b.append("\n(\n");
        for (int i = 0; i < columns.size(); i++) {
            b.append("    ").append(columns.get(i).toSql());
            b.append(
                    i + 1 < columns.size() || !skipIndexes.isEmpty() || !projections.isEmpty()
                            ? ",\n"
                            : "\n");
        }
        for (int i = 0; i < skipIndexes.size(); i++) {
            b.append("    ").append(skipIndexes.get(i).toSql());
            b.append(i + 1 < skipIndexes.size() || !projections.isEmpty() ? ",\n" : "\n");
        }
        for (int i = 0; i < projections.size(); i++) {
            b.append("    ").append(projections.get(i).toSql());
            b.append(i + 1 < projections.size() ? ",\n" : "\n");
        }
        b.append(")\nENGINE = ").append(engine.toSql());
        if (!partitionKey.isEmpty()) {
            b.append("\nPARTITION BY ").append(partitionKey.toSql());
        }
        if (!primaryKey.equals(sortingKey)) {
            b.append("\nPRIMARY KEY ").append(primaryKey.toSql());
        }
        b.append("\nORDER BY ").append(sortingKey.toSql());
        if (!samplingKey.isEmpty()) {
            b.append("\nSAMPLE BY ").append(samplingKey.toSql());
        }
        if (!ttl.isEmpty()) {
            b.append("\nTTL ");
            for (int i = 0; i < ttl.size(); i++) {
                b.append(i == 0 ? "" : ", ").append(ttl.get(i).toSql());
            }
        }
        if (!settings.asMap().isEmpty() || extraSettings != null) {
            b.append("\nSETTINGS ");
            if (!settings.asMap().isEmpty()) {
                b.append(settings.toSql());
                if (extraSettings != null) {
                    b.append(", ");
                }
            }
            if (extraSettings != null) {
                b.append(extraSettings);
            }
        }
        if (comment != null) {
            b.append("\nCOMMENT ").append(SqlLexer.quoteString(comment));
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableSchema t
                && Objects.equals(t.database, database)
                && t.name.equals(name)
                && t.columns.equals(columns)
                && t.skipIndexes.equals(skipIndexes)
                && t.engine.equals(engine)
                && t.partitionKey.equals(partitionKey)
                && t.sortingKey.equals(sortingKey)
                && t.primaryKey.equals(primaryKey)
                && t.samplingKey.equals(samplingKey)
                && t.ttl.equals(ttl)
                && t.settings.equals(settings)
                && Objects.equals(t.comment, comment)
                && t.projections.equals(projections);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                database,
                name,
                columns,
                skipIndexes,
                engine,
                partitionKey,
                sortingKey,
                primaryKey,
                samplingKey,
                ttl,
                settings,
                comment,
                projections);
    }

    @Override
    public String toString() {
        return toCreateTableSql();
    }
}
