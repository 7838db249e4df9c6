package io.github.s3mergetree.engine.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.SharedReference;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * {@link DdlParser} and {@link TableSchema}: the reference DDLs, round trips through {@link
 * TableSchema#toCreateTableSql()} into chDB, acceptance and rejection parity with chDB, and error
 * messages that name the construct and its position.
 */
class DdlParserTest {
    @ChDbSession static ChDb db;
    static int tableCounter;

    static Path shared() {
        return SharedReference.dir();
    }

    @Test
    void parsesThePostsTable() throws IOException {
        Path posts = shared().resolve("tools/posts.sql");
        TableSchema s = DdlParser.parse(Files.readString(posts));
        assertThat(s.name()).isEqualTo("posts");
        assertThat(s.columns()).hasSize(22);
        assertThat(s.column("PostTypeId").get().type().name())
                .startsWith("Enum8('Question' = 1, 'Answer' = 2");
        assertThat(s.column("CreationDate").get().type().name()).isEqualTo("DateTime64(3, 'UTC')");
        assertThat(s.column("ContentLicense").get().type().name())
                .isEqualTo("LowCardinality(String)");
        assertThat(s.engine().kind()).isEqualTo(EngineDefinition.Kind.MERGE_TREE);
        assertThat(s.partitionKey().columnNames()).containsExactly("toYear(CreationDate)");
        assertThat(s.partitionKey().types()).containsExactly(DataTypes.UINT16);
        assertThat(s.sortingKey().columnNames())
                .containsExactly("PostTypeId", "toDate(CreationDate)", "CreationDate");
        assertThat(s.sortingKey().types().get(1)).isEqualTo(DataTypes.DATE);
        assertThat(s.primaryKey()).isEqualTo(s.sortingKey());
        assertThat(s.settings().indexGranularity()).isEqualTo(8192);
        assertRoundTripsThroughChDb(s);
    }

    /** The CREATE TABLE statements of the golden parts' README files. */
    static List<String> referenceDdls() throws IOException {
        Path parts = shared().resolve("reference/parts");
        List<String> out = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(parts)) {
            for (Path d : dirs.sorted().toList()) {
                Path readme = d.resolve("README.txt");
                if (!Files.exists(readme)) {
                    continue;
                }
                String text = Files.readString(readme);
                int a = text.indexOf("CREATE TABLE:");
                int b = text.indexOf("INSERT:", a);
                StringBuilder ddl = new StringBuilder();
                for (String line : text.substring(a + "CREATE TABLE:".length(), b).split("\n")) {
                    if (!line.trim().startsWith("SET ")) {
                        ddl.append(line).append('\n');
                    }
                }
                out.add(ddl.toString().trim());
            }
        }
        return out;
    }

    @Test
    void parsesTheReferencePartDdls() throws IOException {
        List<String> ddls = referenceDdls();
        assertThat(ddls).as("CREATE TABLE statements of the golden parts").isNotEmpty();
        assertThat(ddls).hasSizeGreaterThanOrEqualTo(5);
        for (String ddl : ddls) {
            TableSchema s = DdlParser.parse(ddl);
            assertRoundTripsThroughChDb(s);
            if (s.partitionKey().isEmpty()) {
                assertThat(s.name()).isEqualTo("simple");
                assertThat(s.sortingKey().columnNames()).containsExactly("a");
                assertThat(s.settings().minBytesForWidePart()).isZero();
                continue;
            }
            assertThat(s.column("n").get().type().name()).isEqualTo("Nullable(Int32)");
            assertThat(s.column("arr").get().type().name()).isEqualTo("Array(String)");
            assertThat(s.column("lc").get().type().name()).isEqualTo("LowCardinality(String)");
            assertThat(s.partitionKey().columnNames()).containsExactly("toYYYYMM(d)");
            assertThat(s.partitionKey().types()).containsExactly(DataTypes.UINT32);
            assertThat(s.partitionKey().requiredColumns()).containsExactly("d");
            assertThat(s.sortingKey().size()).isEqualTo(1);
        }
        TableSchema nonAdaptive =
                ddls.stream()
                        .map(DdlParser::parse)
                        .filter(t -> t.name().equals("part_nonadaptive"))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError(ddls));
        assertThat(nonAdaptive.settings().indexGranularity()).isEqualTo(1024);
        assertThat(nonAdaptive.settings().indexGranularityBytes()).isZero();
        assertThat(nonAdaptive.settings().adaptiveGranularity()).isFalse();
        assertThat(nonAdaptive.settings().compressMarks()).isFalse();
        assertThat(nonAdaptive.settings().ratioOfDefaultsForSparseSerialization()).isEqualTo(1.0);
        assertThat(nonAdaptive.settings().stringSerializationVersion()).isEqualTo("single_stream");
    }

    /**
     * Parses our canonical SQL back (must be equal), creates the table in chDB from it, and checks
     * chDB's view of the columns and keys.
     */
    static void assertRoundTripsThroughChDb(TableSchema s) {
        String sql = s.toCreateTableSql();
        TableSchema back = DdlParser.parse(sql);
        assertThat(back).as(sql).isEqualTo(s);
        assertThat(back.toCreateTableSql()).isEqualTo(sql);
        String table = "rt_" + (++tableCounter);
        String created =
                sql.replaceFirst(
                        "CREATE TABLE (`[^`]*`\\.)?`[^`]*`", "CREATE TABLE `" + table + "`");
        db.execute(created);
        List<String[]> cols =
                db.rows(
                        "SELECT name, type, default_kind FROM system.columns"
                                + " WHERE database = currentDatabase() AND table = '"
                                + table
                                + "' ORDER BY position");
        assertThat(cols).hasSize(s.columns().size());
        for (int i = 0; i < cols.size(); i++) {
            ColumnDefinition c = s.columns().get(i);
            assertThat(cols.get(i)[0]).isEqualTo(c.name());
            assertThat(cols.get(i)[1]).as(c.name()).isEqualTo(c.type().name());
            assertThat(cols.get(i)[2])
                    .isEqualTo(c.defaultKind() == DefaultKind.NONE ? "" : c.defaultKind().name());
        }
        String[] keys =
                db.rows(
                                "SELECT partition_key, sorting_key, primary_key, engine FROM"
                                        + " system.tables WHERE database = currentDatabase() AND name ="
                                        + " '"
                                        + table
                                        + "'")
                        .get(0);
        String partition = elementsSql(s.partitionKey());
        assertThat(keys[0])
                .isEqualTo(s.partitionKey().size() > 1 ? "(" + partition + ")" : partition);
        assertThat(keys[1]).isEqualTo(elementsSql(s.sortingKey()));
        assertThat(keys[2]).isEqualTo(elementsSql(s.primaryKey()));
        assertThat(keys[3]).isEqualTo(s.engine().kind().engineName());
    }

    /** ClickHouse's system.tables form of a key: the elements joined by ", ". */
    static String elementsSql(KeyExpression k) {
        List<String> parts = new ArrayList<>();
        k.elements().forEach(e -> parts.add(e.toSql()));
        return String.join(", ", parts);
    }

    static final List<String> ACCEPTED =
            List.of(
                    "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a",
                    "CREATE TABLE t (a UInt32) ENGINE = MergeTree",
                    "CREATE TABLE IF NOT EXISTS db1.t (a UInt32, b String) ENGINE = MergeTree()"
                            + " ORDER BY (a, b);",
                    "create table t (a Int64, b LowCardinality(String)) engine MergeTree"
                            + " order by b primary key b settings index_granularity = 128",
                    "CREATE TABLE `my table` (`a b` UInt32, \"c\" String COMMENT 'the c')"
                            + " ENGINE = MergeTree ORDER BY (`a b`, c) COMMENT 'table comment'",
                    "CREATE TABLE t (\n  -- a comment\n  a UInt32, /* block\n comment */ b Date\n)"
                            + "\nENGINE = MergeTree\nPARTITION BY toYYYYMM(b)\nORDER BY a",
                    "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree ORDER BY (a, b)"
                            + " PRIMARY KEY a PARTITION BY b % 4",
                    "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree PRIMARY KEY a"
                            + " PARTITION BY intDiv(b, 1000) ORDER BY (a, b)",
                    "CREATE TABLE t (a UInt32, b Int32) ENGINE = MergeTree PARTITION BY"
                            + " (b % 3, modulo(a, 7)) ORDER BY tuple()",
                    "CREATE TABLE t (a UInt32 NULL, b String NOT NULL, c DEFAULT 5, d DateTime"
                            + " DEFAULT now(), e UInt64 MATERIALIZED a * 2, f String ALIAS"
                            + " toString(a)) ENGINE = MergeTree ORDER BY b",
                    "CREATE TABLE t (a UInt32 COMMENT 'x' CODEC(ZSTD(3)), b String CODEC(LZ4),"
                            + " c UInt64 CODEC(Delta, ZSTD(1))) ENGINE = MergeTree ORDER BY a",
                    "CREATE TABLE t (a UInt32, v UInt64, d UInt8) ENGINE ="
                            + " ReplacingMergeTree(v, d) ORDER BY a",
                    "CREATE TABLE t (a UInt32, v DateTime64(3)) ENGINE = ReplacingMergeTree(v)"
                            + " ORDER BY a",
                    "CREATE TABLE t (a UInt32, v Int64) ENGINE = ReplacingMergeTree ORDER BY a",
                    "CREATE TABLE t (a UInt32, s Int64, x Float64) ENGINE = SummingMergeTree"
                            + " ORDER BY a",
                    "CREATE TABLE t (a UInt32, s Int64, x Float64) ENGINE = SummingMergeTree(s)"
                            + " ORDER BY a",
                    "CREATE TABLE t (a UInt32, s Int64, x Float64) ENGINE ="
                            + " SummingMergeTree((s, x)) ORDER BY a",
                    "CREATE TABLE t (a UInt32, sign Int8) ENGINE = CollapsingMergeTree(sign)"
                            + " ORDER BY a",
                    "CREATE TABLE t (a UInt32, PRIMARY KEY (a)) ENGINE = MergeTree",
                    "CREATE TABLE t (a UInt32 PRIMARY KEY, b UInt32) ENGINE = MergeTree ORDER"
                            + " BY (a, b)",
                    "CREATE TABLE t (a Nullable(UInt32)) ENGINE = MergeTree ORDER BY a"
                            + " SETTINGS allow_nullable_key = 1",
                    "CREATE TABLE t (d DateTime('Asia/Kolkata'), id UInt64, s String) ENGINE ="
                            + " MergeTree PARTITION BY toStartOfDay(d) ORDER BY (toStartOfHour(d),"
                            + " cityHash64(s, id), -id, intDiv(id, 10) + 1)",
                    "CREATE TABLE t (d Date, e Enum8('a' = 1, 'b' = 2) DEFAULT 'b', f"
                            + " FixedString(4) DEFAULT 'ab', g Nullable(String) DEFAULT NULL)"
                            + " ENGINE = MergeTree ORDER BY (d, e)",
                    "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a SETTINGS"
                            + " index_granularity = 1024, index_granularity_bytes = 0,"
                            + " min_bytes_for_wide_part = 0, compress_marks = false,"
                            + " min_compress_block_size = '1Mi', storage_policy = 'default'",
                    "CREATE TABLE t (a UInt32, m Map(String, UInt64), t Tuple(x Int8, y"
                            + " String), arr Array(Nullable(Int8))) ENGINE = MergeTree ORDER BY a",
                    "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree ORDER BY (a + 1,"
                            + " (b * 2) % 3, a - -1)");

    @Test
    void acceptsWhatChDbAcceptsAndRoundTrips() {
        for (String ddl : ACCEPTED) {
            db.execute("CREATE DATABASE IF NOT EXISTS db1");
            db.execute("DROP TABLE IF EXISTS t");
            db.execute("DROP TABLE IF EXISTS db1.t");
            db.execute("DROP TABLE IF EXISTS `my table`");
            db.execute(ddl); // chDB accepts it
            TableSchema s = DdlParser.parse(ddl);
            assertRoundTripsThroughChDb(s);
        }
    }

    @Test
    void schemaDetails() {
        TableSchema s = DdlParser.parse(ACCEPTED.get(9));
        assertThat(s.column("a").get().type().name()).isEqualTo("Nullable(UInt32)");
        assertThat(s.column("b").get().type()).isEqualTo(DataTypes.STRING_TYPE);
        assertThat(s.column("c").get().type()).isEqualTo(DataTypes.UINT8);
        assertThat(s.column("c").get().defaultExpression().get().toSql()).isEqualTo("5");
        assertThat(s.column("e").get().defaultKind()).isEqualTo(DefaultKind.MATERIALIZED);
        assertThat(s.column("e").get().defaultExpression().get().resultType())
                .isEqualTo(DataTypes.UINT64);
        assertThat(s.column("f").get().isStored()).isFalse();
        assertThat(s.storedColumns())
                .extracting(ColumnDefinition::name)
                .containsExactly("a", "b", "c", "d", "e");

        TableSchema codecs = DdlParser.parse(ACCEPTED.get(10));
        assertThat(codecs.column("a").get().codec()).contains("ZSTD(3)");
        assertThat(codecs.column("a").get().comment()).contains("x");
        assertThat(codecs.column("c").get().codec()).contains("Delta, ZSTD(1)");

        TableSchema rep = DdlParser.parse(ACCEPTED.get(11));
        assertThat(rep.engine().kind()).isEqualTo(EngineDefinition.Kind.REPLACING_MERGE_TREE);
        assertThat(rep.engine().versionColumn()).contains("v");
        assertThat(rep.engine().isDeletedColumn()).contains("d");
        TableSchema sum = DdlParser.parse(ACCEPTED.get(16));
        assertThat(sum.engine().sumColumns()).containsExactly("s", "x");
        TableSchema col = DdlParser.parse(ACCEPTED.get(17));
        assertThat(col.engine().signColumn()).contains("sign");

        TableSchema pk = DdlParser.parse(ACCEPTED.get(6));
        assertThat(pk.primaryKey().columnNames()).containsExactly("a");
        assertThat(pk.sortingKey().columnNames()).containsExactly("a", "b");
        assertThat(pk.partitionKey().columnNames()).containsExactly("moduloLegacy(b, 4)");
        assertThat(pk.partitionKey().types()).containsExactly(DataTypes.UINT8);

        TableSchema legacy = DdlParser.parse(ACCEPTED.get(8));
        // Int32 % UInt8 is Int16 for modulo but Int8 (moduloLegacy) in a partition key
        assertThat(legacy.partitionKey().types()).containsExactly(DataTypes.INT8, DataTypes.UINT8);
        assertThat(legacy.sortingKey().isEmpty()).isTrue();

        TableSchema noOrder = DdlParser.parse(ACCEPTED.get(1));
        assertThat(noOrder.sortingKey().isEmpty()).isTrue();
        assertThat(noOrder.primaryKey().isEmpty()).isTrue();

        TableSchema tablePk = DdlParser.parse(ACCEPTED.get(18));
        assertThat(tablePk.sortingKey().columnNames()).containsExactly("a");
        TableSchema colPk = DdlParser.parse(ACCEPTED.get(19));
        assertThat(colPk.primaryKey().columnNames()).containsExactly("a");
        assertThat(colPk.sortingKey().columnNames()).containsExactly("a", "b");

        TableSchema settings = DdlParser.parse(ACCEPTED.get(23));
        assertThat(settings.settings().indexGranularity()).isEqualTo(1024);
        assertThat(settings.settings().minCompressBlockSize()).isEqualTo(1L << 20);
        assertThat(settings.settings().maxCompressBlockSize()).isEqualTo(1048576);
        assertThat(settings.settings().get("storage_policy")).contains("default");
        assertThat(MergeTreeSettings.DEFAULTS.partsToThrowInsert()).isEqualTo(3000);
        assertThat(MergeTreeSettings.DEFAULTS.partsToDelayInsert()).isEqualTo(1000);
        assertThat(MergeTreeSettings.DEFAULTS.oldPartsLifetime()).isEqualTo(480);
        assertThat(MergeTreeSettings.DEFAULTS.maxBytesToMergeAtMaxSpaceInPool())
                .isEqualTo(161061273600L);
        assertThat(MergeTreeSettings.DEFAULTS.mergeMaxBlockSize()).isEqualTo(8192);
        assertThat(MergeTreeSettings.DEFAULTS.allowNullableKey()).isFalse();
        assertThat(MergeTreeSettings.DEFAULTS.indexGranularityBytes()).isEqualTo(10485760);

        TableSchema tz = DdlParser.parse(ACCEPTED.get(21));
        assertThat(tz.partitionKey().types().get(0).name()).isEqualTo("DateTime('Asia/Kolkata')");
        assertThat(tz.sortingKey().types())
                .extracting(t -> t.name())
                .containsExactly("DateTime('Asia/Kolkata')", "UInt64", "Int64", "UInt64");
    }

    /** Statements ClickHouse rejects; each must fail here with a message containing the text. */
    static final List<String[]> REJECTED =
            List.of(
                    new String[] {
                        "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree ORDER"
                                + " BY a PRIMARY KEY b",
                        "position 0 is a, not b",
                        "1:67"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree ORDER"
                                + " BY (a, b) PRIMARY KEY (a, b, a)",
                        "greater than the sorting key"
                    },
                    new String[] {
                        "CREATE TABLE t (a Nullable(UInt32)) ENGINE = MergeTree ORDER" + " BY a",
                        "allow_nullable_key"
                    },
                    new String[] {
                        "CREATE TABLE t (a Nullable(UInt32)) ENGINE = MergeTree"
                                + " PARTITION BY a ORDER BY tuple()",
                        "Partition key contains nullable"
                    },
                    new String[] {
                        "CREATE TABLE t (a Float64) ENGINE = MergeTree PARTITION BY a"
                                + " ORDER BY tuple()",
                        "Floating point partition key"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = mergetree ORDER BY a",
                        "Unknown table engine mergetree"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree SETTINGS"
                                + " index_granularity = 100 ORDER BY a",
                        "ORDER"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32 CODEC(ZSTD(3)) COMMENT 'c') ENGINE"
                                + " = MergeTree ORDER BY a",
                        "COMMENT must come before CODEC"
                    },
                    new String[] {
                        "CREATE TABLE t (d Nullable(Int8) NOT NULL) ENGINE ="
                                + " MergeTree ORDER BY tuple()",
                        "NULL modifier with Nullable"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, v String) ENGINE ="
                                + " ReplacingMergeTree(v) ORDER BY a",
                        "cannot be used as a version"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, v UInt32, d UInt16) ENGINE ="
                                + " ReplacingMergeTree(v, d) ORDER BY a",
                        "must have type UInt8"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, d UInt8) ENGINE ="
                                + " ReplacingMergeTree(d, d) ORDER BY a",
                        "cannot be the same"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, s Int16) ENGINE ="
                                + " CollapsingMergeTree(s) ORDER BY a",
                        "must have type Int8"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, s UInt32) ENGINE ="
                                + " SummingMergeTree(zz) ORDER BY a",
                        "zz listed in columns to sum"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, s UInt32) ENGINE ="
                                + " SummingMergeTree((s, a)) ORDER BY a",
                        "both in columns to sum"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a"
                                + " SETTINGS foo = 1",
                        "Unknown setting 'foo'",
                        "1:66"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a"
                                + " SETTINGS index_granularity = 0",
                        "index_granularity"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a"
                                + " SETTINGS compress_marks = 2",
                        "compress_marks"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a"
                                + " SETTINGS index_granularity = -1",
                        "index_granularity"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY a ORDER" + " BY a",
                        "ORDER BY is specified twice"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree(a, a, 8192)", "deprecated"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, a String) ENGINE = MergeTree ORDER" + " BY a",
                        "already exists"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY 1", "constants"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree ORDER BY b",
                        "Unknown column 'b'"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, b UInt32) ENGINE = MergeTree ORDER"
                                + " BY (a, a)",
                        "duplicate"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, v UInt32) ENGINE ="
                                + " ReplacingMergeTree(zz) ORDER BY a",
                        "Version column zz"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32 PRIMARY KEY, b UInt32) ENGINE ="
                                + " MergeTree PRIMARY KEY a",
                        "Multiple primary keys"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, s Int8) ENGINE ="
                                + " CollapsingMergeTree() ORDER BY a",
                        "requires 1 parameters"
                    },
                    new String[] {
                        "CREATE TABLE t (a LowCardinality(UInt32)) ENGINE = MergeTree"
                                + " ORDER BY tuple()",
                        "LowCardinality(UInt32)"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32 ALIAS 1, b UInt32 MATERIALIZED a)"
                                + " ENGINE = MergeTree ORDER BY b",
                        "insertable"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32, b UInt32 ALIAS a) ENGINE ="
                                + " MergeTree ORDER BY b",
                        "Unknown column 'b'"
                    },
                    new String[] {
                        "CREATE TABLE t (a Strin) ENGINE = MergeTree ORDER BY a",
                        "Unknown data type family: Strin",
                        "1:19"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32 DEFAULT zz) ENGINE = MergeTree" + " ORDER BY a",
                        "Unknown column 'zz'"
                    },
                    new String[] {
                        "CREATE TABLE t (a UInt32,,) ENGINE = MergeTree ORDER BY a", "column name"
                    });

    /**
     * {@code Nested(...)} is flattened as ClickHouse flattens it ({@code flatten_nested = 1}): one
     * {@code name.element Array(T)} column per element, carrying the declaration's default, codec
     * and comment; chDB's columns of the same DDL are ours.
     */
    @Test
    void nestedIsFlattenedIntoDottedArraysAsClickHouseDoes() {
        String[] ddls = {
            "CREATE TABLE t (id UInt32, meta Nested(key String, value LowCardinality(String)),"
                    + " `n x` Nested(a Nullable(Int32), b Array(Array(String)), `c d` Map(String,"
                    + " UInt8)), s String) ENGINE = MergeTree ORDER BY id",
            "CREATE TABLE t (id UInt32, k Nested(x Int32, y Tuple(a Int8, b String))"
                    + " COMMENT 'k' CODEC(ZSTD(1)), m Nested(z UInt8)) ENGINE = MergeTree ORDER"
                    + " BY id"
        };
        for (String ddl : ddls) {
            db.execute("DROP TABLE IF EXISTS t");
            db.execute(ddl);
            TableSchema s = DdlParser.parse(ddl);
            List<String[]> cols =
                    db.rows(
                            "SELECT name, type, default_kind, default_expression,"
                                    + " compression_codec, comment FROM system.columns WHERE"
                                    + " database = currentDatabase() AND table = 't' ORDER BY"
                                    + " position");
            assertThat(s.columns()).as(ddl).hasSize(cols.size());
            for (int i = 0; i < cols.size(); i++) {
                ColumnDefinition c = s.columns().get(i);
                assertThat(c.name()).isEqualTo(cols.get(i)[0]);
                assertThat(c.type().name()).as(c.name()).isEqualTo(cols.get(i)[1]);
                assertThat(c.defaultKind() == DefaultKind.NONE ? "" : c.defaultKind().name())
                        .isEqualTo(cols.get(i)[2]);
                assertThat(c.comment().orElse("")).isEqualTo(cols.get(i)[5]);
                assertThat(c.codec().isPresent()).isEqualTo(!cols.get(i)[4].isEmpty());
            }
            assertRoundTripsThroughChDb(s);
        }
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (id UInt32, n Nested(a Int32, b Nested(c"
                                                + " Int32))) ENGINE = MergeTree ORDER BY id"))
                .isInstanceOf(UnsupportedDdlException.class)
                .hasMessageContaining("Column n: a Nested inside a Nested (element b)");
    }

    @Test
    void rejectsWhatChDbRejects() {
        List<String> failures = new ArrayList<>();
        for (String[] r : REJECTED) {
            db.execute("DROP TABLE IF EXISTS t");
            try {
                db.execute(r[0]);
                failures.add("chDB accepts (test is wrong): " + r[0]);
                continue;
            } catch (ChDbException expected) {
                // ClickHouse rejects it
            }
            try {
                DdlParser.parse(r[0]);
                failures.add("we accept: " + r[0]);
            } catch (DdlParseException e) {
                if (!e.getMessage().contains(r[1])) {
                    failures.add("message '" + e.getMessage() + "' lacks '" + r[1] + "'");
                }
                if (r.length > 2 && !(e.line() + ":" + e.column()).equals(r[2])) {
                    failures.add(
                            "position "
                                    + e.line()
                                    + ":"
                                    + e.column()
                                    + " is not "
                                    + r[2]
                                    + " for "
                                    + r[0]);
                }
                if (e.line() <= 0) {
                    // every error from a statement names a position, except whole-table ones
                    if (!r[1].equals("insertable")) {
                        failures.add("no position in '" + e.getMessage() + "'");
                    }
                }
            } catch (RuntimeException e) {
                failures.add("unexpected " + e + " for " + r[0]);
            }
        }
        assertThat(failures).isEmpty();
    }

    @Test
    void refusesWhatItCannotHonour() {
        String[][] cases = {
            {
                "CREATE TABLE t (a UInt32, INDEX i a TYPE hypothesis GRANULARITY 1) ENGINE ="
                        + " MergeTree ORDER BY a",
                "INDEX",
                "1:27"
            },
            {
                "CREATE TABLE t (a UInt32, PROJECTION p (SELECT a, avg(a) GROUP BY a)) ENGINE ="
                        + " MergeTree ORDER BY a",
                "Aggregate function avg in projection p is not supported"
            },
            {
                "CREATE TABLE t (a UInt32, CONSTRAINT c CHECK a > 0) ENGINE = MergeTree ORDER BY a",
                "CONSTRAINT"
            },
            {
                "CREATE TABLE t (a UInt32, d Date) ENGINE = MergeTree ORDER BY a\nTTL d TO DISK 'x'",
                "TO DISK is not supported",
                "2:7"
            },
            {
                "CREATE TABLE t (a UInt32, d Date) ENGINE = MergeTree ORDER BY a TTL d GROUP BY a",
                "GROUP BY is not supported"
            },
            {
                "CREATE TABLE t (a UInt32) ENGINE = ReplicatedGraphiteMergeTree('/p', 'r',"
                        + " 'rollup') ORDER BY a",
                "ENGINE ReplicatedGraphiteMergeTree"
            },
            {"CREATE TABLE t (a UInt32) ENGINE = Memory", "ENGINE Memory"},
            {
                "CREATE TABLE t (a UInt32) ENGINE = GraphiteMergeTree('rollup') ORDER BY a",
                "ENGINE GraphiteMergeTree"
            },
            {"CREATE TABLE t (a JSON) ENGINE = MergeTree ORDER BY tuple()", "JSON"},
            {
                "CREATE TABLE t (a UInt32 EPHEMERAL) ENGINE = MergeTree ORDER BY tuple()",
                "EPHEMERAL"
            },
            {
                "CREATE TABLE t (a String, b UInt8 DEFAULT a LIKE 'x%') ENGINE = MergeTree ORDER BY"
                        + " a",
                "Operator LIKE"
            },
            {"CREATE TABLE t (a String) ENGINE = MergeTree ORDER BY sipHash128(a)", "sipHash128"},
            {"CREATE TABLE t ON CLUSTER c (a UInt32) ENGINE = MergeTree ORDER BY a", "ON CLUSTER"}
        };
        for (String[] c : cases) {
            assertThatThrownBy(() -> DdlParser.parse(c[0]))
                    .as(c[0])
                    .isInstanceOf(UnsupportedDdlException.class)
                    .hasMessageContaining(c[1])
                    .satisfies(
                            e -> {
                                UnsupportedDdlException u = (UnsupportedDdlException) e;
                                assertThat(u.line()).isPositive();
                                if (c.length > 2) {
                                    assertThat(u.line() + ":" + u.column()).isEqualTo(c[2]);
                                }
                            });
        }
    }

    @Test
    void reportsSyntaxErrorsWithLineAndColumn() {
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (\n  a UInt32\n  b String\n)"
                                                + " ENGINE = MergeTree ORDER BY a"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("'b'")
                .hasMessageContaining("line 3, column 3");
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree"
                                                + " ORDER BY (a"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("end of input");
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (a Map(String UInt8)) ENGINE ="
                                                + " MergeTree ORDER BY tuple()"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("line 1, column 30");
        assertThatThrownBy(
                        () ->
                                DdlParser.parse(
                                        "CREATE TABLE t (a UInt32) ENGINE = MergeTree"
                                                + " ORDER BY toYYYYMM(a)"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("Illegal type UInt32 of argument 1 of function toYYYYMM")
                .hasMessageContaining("column 55");
        assertThatThrownBy(() -> DdlParser.parse("CREATE VIEW v AS SELECT 1"))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining("Only CREATE TABLE");
    }

    @Test
    void typeOfAColumnWithoutTypeIsItsDefaultsType() {
        TableSchema s =
                DdlParser.parse(
                        "CREATE TABLE t (a UInt16, b DEFAULT a + 1, c DEFAULT"
                                + " toDate('2024-01-01')) ENGINE = MergeTree ORDER BY a");
        assertThat(s.column("b").get().type()).isEqualTo(DataTypes.UINT32);
        assertThat(s.column("c").get().type()).isEqualTo(DataTypes.DATE);
        assertThat(DdlParser.parse(s.toCreateTableSql())).isEqualTo(s);
        assertThat(DataTypeParser.parse("UInt32")).isEqualTo(s.column("b").get().type());
    }
}
