package io.github.s3mergetree.engine.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compatibility suite: for every supported type, key shape and partition shape, a table is
 * created in chDB (ClickHouse 26.7) from the same DDL as ours; chDB generates rows; our engine
 * inserts them (several insert blocks) and writes parts; chDB attaches every part ({@code ATTACH
 * PART} also checks our partition ids), {@code CHECK TABLE} passes, and count, {@code RowsHash} and
 * per-partition counts equal those of ClickHouse inserting the same rows.
 */
class ChDbCompatibilityTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of(
                        "integers",
                        "(i8 Int8, i16 Int16, i32 Int32, i64 Int64, i128 Int128, i256 Int256, u8 UInt8,"
                                + " u16 UInt16, u32 UInt32, u64 UInt64, u128 UInt128, u256 UInt256)"
                                + " ENGINE = MergeTree PARTITION BY i8 % 4 ORDER BY (i32, u64)",
                        ""),
                Arguments.of(
                        "floats_decimals_bool",
                        "(f32 Float32, f64 Float64, d32 Decimal32(3), d64 Decimal(18, 6),"
                                + " d128 Decimal(38, 10), d256 Decimal(76, 20), b Bool)"
                                + " ENGINE = MergeTree PARTITION BY b ORDER BY (d64, f64)",
                        ""),
                Arguments.of(
                        "strings_enums",
                        "(s String, fs FixedString(8), lc LowCardinality(String),"
                                + " lcn LowCardinality(Nullable(String)),"
                                + " e8 Enum8('a' = 1, 'b' = 2, 'c' = -3), e16 Enum16('x' = 1000, 'y' = -1000))"
                                + " ENGINE = MergeTree PARTITION BY e8 ORDER BY (s, fs)",
                        ""),
                Arguments.of(
                        "dates_times",
                        "(d Date, d32 Date32, dt DateTime, dtz DateTime('Asia/Kolkata'),"
                                + " dt64 DateTime64(3), dt64z DateTime64(6, 'America/New_York'))"
                                + " ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (dt, d32)",
                        "d = toDate('2024-01-01') + (toUInt16(d) % 90)"),
                Arguments.of(
                        "uuid_ip",
                        "(u UUID, ip4 IPv4, ip6 IPv6, x UInt32)"
                                + " ENGINE = MergeTree PARTITION BY cityHash64(u) % 3 ORDER BY (u, ip4)",
                        ""),
                Arguments.of(
                        "nullable_array_tuple_map",
                        "(n Nullable(Int64), ns Nullable(String), a Array(Int32), aa Array(Array(String)),"
                                + " an Array(Nullable(Float64)), alc Array(LowCardinality(String)),"
                                + " t Tuple(x UInt8, y String), tu Tuple(Int32, Array(String)),"
                                + " m Map(String, UInt64), mlc Map(LowCardinality(String), Array(Nullable(Int8))))"
                                + " ENGINE = MergeTree ORDER BY tuple()",
                        ""),
                Arguments.of(
                        "expression_keys",
                        "(dt DateTime('UTC'), s String, x UInt64, y Int16)"
                                + " ENGINE = MergeTree PARTITION BY (toYYYYMMDD(dt), x % 3)"
                                + " PRIMARY KEY (toDate(dt), cityHash64(s))"
                                + " ORDER BY (toDate(dt), cityHash64(s), intDiv(x, 10), y)",
                        "dt = toDateTime('2024-03-01 00:00:00', 'UTC') + (toUInt32(dt) % (86400 * 3))"),
                Arguments.of(
                        "time_functions_in_keys",
                        "(d Date, dt DateTime('UTC'), dtz DateTime('Asia/Kolkata'), x UInt32)"
                                + " ENGINE = MergeTree PARTITION BY toYear(dt)"
                                + " ORDER BY (toStartOfMonth(d), toStartOfHour(dt), toStartOfDay(dtz), x)",
                        "dt = toDateTime('2023-12-30 00:00:00', 'UTC') + (toUInt32(dt) % (86400 * 5)),"
                                + " d = toDate('2024-01-01') + (toUInt16(d) % 90)"),
                Arguments.of(
                        "string_partition",
                        "(s LowCardinality(String), x UInt64)"
                                + " ENGINE = MergeTree PARTITION BY s ORDER BY x",
                        "s = toString(x % 5)"),
                Arguments.of(
                        "tuple_partition_hashed",
                        "(d Date, s String, x Int32)"
                                + " ENGINE = MergeTree PARTITION BY (toMonday(d), s) ORDER BY x",
                        "d = toDate('2024-01-01') + (toUInt16(d) % 20), s = toString(x % 3)"),
                Arguments.of(
                        "date_partition",
                        "(d Date, x UInt64)" + " ENGINE = MergeTree PARTITION BY d ORDER BY x",
                        "d = toDate('2024-01-01') + (toUInt16(d) % 5)"),
                Arguments.of(
                        "portable_profile",
                        "(d Date, id UInt64, s String, n Nullable(Int32), arr Array(String))"
                                + " ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY id"
                                + " SETTINGS index_granularity = 1024, index_granularity_bytes = 0",
                        "d = toDate('2024-01-01') + (toUInt16(d) % 60)"),
                Arguments.of(
                        "codecs_small_granules",
                        "(id UInt64 CODEC(ZSTD(3)), s String CODEC(NONE), v Float64 CODEC(LZ4HC(9)), w Int32)"
                                + " ENGINE = MergeTree ORDER BY id"
                                + " SETTINGS index_granularity = 100, min_compress_block_size = 1024,"
                                + " max_compress_block_size = 4096",
                        ""),
                Arguments.of(
                        "replacing",
                        "(k UInt16, ver UInt32, s String)"
                                + " ENGINE = ReplacingMergeTree(ver) ORDER BY k",
                        "k = k % 500"),
                Arguments.of(
                        "summing",
                        "(k UInt16, g LowCardinality(String), x Int64, y Float64)"
                                + " ENGINE = SummingMergeTree PARTITION BY g ORDER BY k",
                        "k = k % 300, g = toString(k % 3), y = round(y)"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void ourPartsAttachPassCheckAndEqualClickHousesInsert(
            String name, String tableSpec, String replace) throws Exception {
        String ref = "ref_" + name;
        String ours = "ours_" + name;
        TableSchema schema = TableSchema.parse("CREATE TABLE " + ours + " " + tableSpec);
        ch.execute("CREATE TABLE " + ref + " " + tableSpec);
        ch.execute(schema.toCreateTableSql());
        TableLayout layout =
                TableLayouts.fromSchema(
                        schema, io.github.s3mergetree.engine.expr.EvaluationContext.utc(), true);
        StringBuilder structure = new StringBuilder();
        for (int i = 0; i < layout.columnNames().size(); i++) {
            structure
                    .append(i > 0 ? ", " : "")
                    .append(layout.columnNames().get(i))
                    .append(' ')
                    .append(layout.columnTypes().get(i).name());
        }
        String st = structure.toString().replace("'", "\\'");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve(name)), layout, Clock.systemUTC());
        int inserts = 3;
        for (int i = 0; i < inserts; i++) {
            Path data = tmp.resolve(name + "_" + i + ".bin");
            String gen =
                    "SELECT * FROM generateRandom('"
                            + st
                            + "', "
                            + (17 + i)
                            + ", 16, 3) LIMIT 3000";
            String select =
                    replace.isEmpty()
                            ? gen
                            : "SELECT * REPLACE (" + replaceList(replace) + ") FROM (" + gen + ")";
            ch.execute(
                    "SELECT * FROM (" + select + ") INTO OUTFILE '" + data + "' FORMAT RowBinary");
            ch.execute(
                    "INSERT INTO "
                            + ref
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + st
                            + "')");
            Block block =
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString());
            table.insert(block);
        }
        for (ActivePart p : table.activeParts()) {
            Path dir = LocalParts.root(table).resolve(p.name().toString());
            LocalParts.open(dir).verify();
            ch.attachPart(ours, dir);
        }
        ch.assertCheckTablePasses(ours);
        assertThat(ch.queryLong("SELECT count() FROM " + ours))
                .isEqualTo(ch.queryLong("SELECT count() FROM " + ref))
                .isGreaterThan(0);
        StringBuilder perColumn = new StringBuilder();
        for (String c : layout.columnNames()) {
            String q = "SELECT " + RowsHash.of(c) + " FROM ";
            String a = ch.query(q + ours);
            String b = ch.query(q + ref);
            if (!a.equals(b)) {
                perColumn
                        .append(c)
                        .append(": ours ")
                        .append(a)
                        .append(" ref ")
                        .append(b)
                        .append('\n');
                perColumn.append(
                        ch.query(
                                "SELECT * FROM (SELECT "
                                        + c
                                        + " AS v, count() AS n FROM "
                                        + ours
                                        + " GROUP BY v) o FULL JOIN (SELECT "
                                        + c
                                        + " AS v, count() AS n FROM "
                                        + ref
                                        + " GROUP BY v) r USING v WHERE o.n != r.n LIMIT 5"
                                        + " SETTINGS join_use_nulls = 1"));
            }
        }
        assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + ours))
                .as("columns that differ:\n%s", perColumn)
                .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + ref));
        String perPartition =
                "SELECT groupArray((partition_id, rows)) FROM (SELECT partition_id, sum(rows) AS rows"
                        + " FROM system.parts WHERE database = currentDatabase() AND table = '%s'"
                        + " AND active GROUP BY partition_id ORDER BY partition_id)";
        assertThat(ch.query(String.format(perPartition, ours)))
                .isEqualTo(ch.query(String.format(perPartition, ref)));
        // a query that uses the primary key reads the same rows
        String firstKey =
                layout.sortingKey().isEmpty()
                        ? null
                        : layout.sortingKey().elements().get(0).toSql();
        if (firstKey != null) {
            String q =
                    "SELECT count(), "
                            + RowsHash.ALL_COLUMNS
                            + " FROM %s WHERE "
                            + firstKey
                            + " <= (SELECT "
                            + firstKey
                            + " FROM %s ORDER BY 1 LIMIT 1 OFFSET 1000)";
            assertThat(ch.query(String.format(q, ours, ours)))
                    .isEqualTo(ch.query(String.format(q, ref, ref)));
        }
    }

    private static String replaceList(String replace) {
        StringBuilder s = new StringBuilder();
        for (String assignment : replace.split(",\\s*(?=[a-z]+ = )")) {
            int eq = assignment.indexOf(" = ");
            s.append(s.length() > 0 ? ", " : "")
                    .append(assignment.substring(eq + 3))
                    .append(" AS ")
                    .append(assignment.substring(0, eq).trim());
        }
        return s.toString();
    }
}
