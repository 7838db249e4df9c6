package io.github.s3mergetree.engine.part;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.serde.NestedSizesMismatchException;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Array columns with dotted names, ClickHouse's Nested layout ({@code meta.key}, {@code
 * meta.value}): our parts share one {@code meta.size0} per prefix as ClickHouse's do and chDB reads
 * them exactly as it reads its own insert of the same rows; we read chDB's own such parts; merges
 * of them (ours and chDB's, horizontal and vertical) pass CHECK TABLE with chDB's rows; arrays of
 * different sizes under one prefix are refused as ClickHouse refuses them.
 */
class NestedColumnsChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    /**
     * Several prefixes (meta, n, a, z), element types String, LowCardinality(String),
     * Nullable(Int32), Nullable(String), Array(Array(String)), Array(Int8); a prefix of one column
     * (z); a dotted name of two dots (a.b.c); non-array dotted columns (x.y String, d.t Tuple with
     * an array), a dotted Map (m.m) and an undotted Tuple holding an array (tt).
     */
    static final String STRUCTURE =
            "id UInt32, `meta.key` Array(String), `meta.value` Array(LowCardinality(String)),"
                    + " `n.a` Array(Nullable(Int32)), `n.b` Array(Array(String)),"
                    + " `n.c` Array(Array(Int8)), `x.y` String, `z.w` Array(UInt8),"
                    + " tt Tuple(a Array(Int32), b Int8), `m.m` Map(String, Int32),"
                    + " `d.t` Tuple(a Array(Int32), b Int8), `a.b.c` Array(Int32),"
                    + " `a.e` Array(Nullable(String))";

    /** Rows with ids {@code 3 * number + SEED}; arrays of one prefix have equal sizes per row. */
    static final String GENERATOR =
            "SELECT toUInt32(number * 3 + SEED) AS id, arrayMap(i -> concat('k', toString((number +"
                    + " i) % 37)), range(l1)), arrayMap(i -> concat('v', toString(i % 3)), range(l1)),"
                    + " arrayMap(i -> if((number + i) % 3 = 0, NULL, toInt32(number * i) - 100),"
                    + " range(l2)), arrayMap(i -> arrayMap(j -> repeat('x', j), range((number + i) %"
                    + " 3)), range(l2)), arrayMap(i -> arrayMap(j -> toInt8(j - i), range(i % 4)),"
                    + " range(l2)), toString(number), arrayMap(i -> toUInt8(i), range(number % 3)),"
                    + " tuple(arrayMap(i -> toInt32(i), range(number % 2)), toInt8(number % 100)),"
                    + " mapFromArrays(arrayMap(i -> concat('m', toString(i)), range(l3)), arrayMap(i ->"
                    + " toInt32(i * number), range(l3))), tuple(arrayMap(i -> toInt32(i + 7),"
                    + " range(l3)), toInt8(SEED)), arrayMap(i -> toInt32(i + number), range(l4)),"
                    + " arrayMap(i -> if(i = 1, NULL, toString(i * number)), range(l4)) FROM (SELECT"
                    + " number, cityHash64(number, SEED) % 4 AS l1, cityHash64(number, SEED, 2) % 5 AS"
                    + " l2, cityHash64(number, SEED, 3) % 3 AS l3, cityHash64(number, SEED, 4) % 3 AS"
                    + " l4 FROM numbers(ROWS))";

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void partsShareOffsetsPerPrefixAndMergeAsClickHouses(long granularityBytes) throws Exception {
        String name = "t" + granularityBytes;
        String settings =
                " SETTINGS index_granularity = 100, index_granularity_bytes = " + granularityBytes;
        String tail = " ENGINE = MergeTree ORDER BY id" + settings;
        TableLayout layout =
                TableLayouts.fromDdl("CREATE TABLE " + name + " (" + STRUCTURE + ")" + tail);
        ch.execute(
                "CREATE TABLE ref_"
                        + name
                        + " ("
                        + STRUCTURE
                        + ")"
                        + tail
                        + ", min_bytes_for_wide_part = 0,"
                        + " ratio_of_defaults_for_sparse_serialization = 1");
        for (String t : List.of("ours_", "merged_", "vmerged_")) {
            ch.execute("CREATE TABLE " + t + name + " (" + STRUCTURE + ")" + tail);
        }
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve(name)), layout, Clock.systemUTC());
        ch.execute("CREATE TABLE gen_" + name + " (" + STRUCTURE + ") ENGINE = Memory");
        for (int seed = 0; seed < 3; seed++) {
            Path data = tmp.resolve(name + "_" + seed + ".bin");
            // through a table of the structure: the generator's values cast to the column types
            ch.execute("TRUNCATE TABLE gen_" + name);
            ch.execute(
                    "INSERT INTO gen_"
                            + name
                            + " "
                            + GENERATOR
                                    .replace("SEED", Integer.toString(seed))
                                    .replace("ROWS", Integer.toString(1500 + 200 * seed)));
            ch.execute(
                    "SELECT * FROM gen_"
                            + name
                            + " ORDER BY id INTO OUTFILE '"
                            + data
                            + "' FORMAT RowBinary");
            ch.execute(
                    "INSERT INTO ref_"
                            + name
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + STRUCTURE.replace("'", "\\'")
                            + "')");
            table.insert(
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString()));
        }
        List<Path> ours = new ArrayList<>();
        for (ActivePart p : table.activeParts()) {
            Path dir = LocalParts.root(table).resolve(p.name().toString());
            ours.add(dir);
            // ClickHouse's file names: one shared sizes stream per prefix, own deeper sizes
            assertThat(dir.resolve("meta.size0.bin")).exists();
            assertThat(dir.resolve("n.size0.bin")).exists();
            assertThat(dir.resolve("a.size0.bin")).exists();
            assertThat(dir.resolve("z.size0.bin")).exists();
            assertThat(dir.resolve("m.size0.bin")).exists();
            assertThat(dir.resolve("n%2Eb.size1.bin")).exists();
            assertThat(dir.resolve("n%2Ec.size1.bin")).exists();
            assertThat(dir.resolve("d%2Et%2Ea.size0.bin")).exists();
            assertThat(dir.resolve("tt%2Ea.size0.bin")).exists();
            try (Stream<Path> files = Files.list(dir)) {
                assertThat(files.map(f -> f.getFileName().toString()))
                        .noneMatch(
                                f ->
                                        f.matches(".*%2E.*\\.size0\\..*")
                                                && !f.startsWith("d%2Et")
                                                && !f.startsWith("tt"));
            }
            LocalParts.open(dir).verify();
            ch.attachPart("ours_" + name, dir);
        }
        assertThat(ours).hasSize(3);
        ch.assertCheckTablePasses("ours_" + name);
        assertSameRows("ours_" + name, "ref_" + name);

        // our reader reads chDB's own parts (shared offsets, 26.x layout) row for row
        List<Path> chdbParts = new ArrayList<>();
        for (String[] row :
                ch.rows(
                        "SELECT path FROM system.parts WHERE table = 'ref_"
                                + name
                                + "' AND active ORDER BY min_block_number")) {
            chdbParts.add(Path.of(row[0]));
        }
        assertThat(chdbParts).hasSize(3);
        for (int i = 0; i < 3; i++) {
            Block theirs = LocalParts.open(chdbParts.get(i)).readAll();
            Block mine = LocalParts.open(ours.get(i)).readAll();
            assertThat(theirs.rows()).isEqualTo(1500 + 200 * i);
            assertThat(RowBinary.write(theirs)).isEqualTo(RowBinary.write(mine));
        }

        // merges of such parts, sources ours and chDB's, horizontal and vertical
        PartWriter writer = new PartWriter(layout.partFormat());
        List<PartReader> sources =
                List.of(
                        LocalParts.open(ours.get(0)),
                        LocalParts.open(chdbParts.get(1)),
                        LocalParts.open(ours.get(2)));
        for (boolean vertical : List.of(false, true)) {
            Path out = tmp.resolve(name + (vertical ? "-v" : "-h")).resolve("all_1_3_1");
            LocalParts.merge(
                    writer,
                    sources,
                    layout.mergeSpec(),
                    PartitionData.UNPARTITIONED,
                    out,
                    new PartMerger.Progress(),
                    vertical);
            assertThat(out.resolve("meta.size0.bin")).exists();
            assertThat(out.resolve("meta%2Ekey.size0.bin")).doesNotExist();
            LocalParts.open(out).verify();
            String target = (vertical ? "vmerged_" : "merged_") + name;
            ch.attachPart(target, out);
            ch.assertCheckTablePasses(target);
            assertSameRows(target, "ref_" + name);
        }
        ch.execute("OPTIMIZE TABLE ref_" + name + " FINAL");
        assertSameRows("merged_" + name, "ref_" + name);
    }

    @Test
    void aTableDeclaredWithNestedIsWrittenAsClickHousesOwn() throws Exception {
        String ddl =
                "CREATE TABLE nd (id UInt32, meta Nested(key String, value LowCardinality(String)),"
                        + " n Nested(a Nullable(Int32), b Array(Array(String)))) ENGINE ="
                        + " MergeTree ORDER BY id SETTINGS index_granularity = 64";
        TableLayout layout = TableLayouts.fromDdl(ddl);
        assertThat(layout.columnNames())
                .containsExactly("id", "meta.key", "meta.value", "n.a", "n.b");
        ch.execute(ddl);
        ch.execute(ddl.replace("TABLE nd ", "TABLE nd_ref "));
        ch.execute(
                "INSERT INTO nd_ref SELECT number, arrayMap(i -> toString(i * number), range(number"
                        + " % 4)), arrayMap(i -> toString(i % 2), range(number % 4)), arrayMap(i ->"
                        + " if(i = 0, NULL, toInt32(i)), range(number % 3)), arrayMap(i ->"
                        + " [[toString(i)], []], range(number % 3)) FROM numbers(500)");
        Path data = tmp.resolve("nd.bin");
        ch.execute("SELECT * FROM nd_ref ORDER BY id INTO OUTFILE '" + data + "' FORMAT RowBinary");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve("nd")), layout, Clock.systemUTC());
        table.insert(
                RowBinary.read(
                        Files.readAllBytes(data),
                        layout.columnNames(),
                        layout.columnTypes(),
                        data.toString()));
        Path dir = LocalParts.root(table).resolve(table.activeParts().get(0).name().toString());
        assertThat(dir.resolve("meta.size0.bin")).exists();
        assertThat(dir.resolve("n.size0.bin")).exists();
        ch.attachPart("nd", dir);
        ch.assertCheckTablePasses("nd");
        assertThat(ch.query("SELECT * FROM nd ORDER BY id"))
                .isEqualTo(ch.query("SELECT * FROM nd_ref ORDER BY id"));
        assertThat(ch.query("SELECT sum(length(meta.key)), sum(arraySum(n.b.size1)) FROM nd"))
                .isEqualTo(
                        ch.query(
                                "SELECT sum(length(meta.key)), sum(arraySum(n.b.size1)) FROM"
                                        + " nd_ref"));
    }

    @Test
    void arraysOfDifferentSizesUnderOnePrefixAreRefusedAsClickHouseRefusesThem() throws Exception {
        String ddl =
                "CREATE TABLE mismatch (id UInt32, `n.a` Array(String), `n.b` Array(Int32),"
                        + " `o.x` Array(UInt8)) ENGINE = MergeTree ORDER BY id";
        TableLayout layout = TableLayouts.fromDdl(ddl);
        ch.execute(ddl.replace("mismatch", "mismatch_ref"));
        String values = "(1, ['a'], [1], [1, 2]), (2, ['b', 'c'], [2], [])";
        assertThatThrownBy(() -> ch.execute("INSERT INTO mismatch_ref VALUES " + values))
                .hasMessageContaining(
                        "Elements 'n.a' and 'n.b' of Nested data structure 'n' (Array columns)"
                                + " have different array sizes");
        Path data = tmp.resolve("mismatch.bin");
        ch.execute(
                "SELECT * FROM values('id UInt32, `n.a` Array(String), `n.b` Array(Int32), `o.x`"
                        + " Array(UInt8)', "
                        + values
                        + ") INTO OUTFILE '"
                        + data
                        + "' FORMAT RowBinary");
        Block block =
                RowBinary.read(
                        Files.readAllBytes(data),
                        layout.columnNames(),
                        layout.columnTypes(),
                        "mismatch");
        MergeTreeTable table =
                MergeTreeTable.open(
                        LocalParts.store(tmp.resolve("mismatch")), layout, Clock.systemUTC());
        assertThatThrownBy(() -> table.insert(block))
                .isInstanceOf(NestedSizesMismatchException.class)
                .hasMessage(
                        "Elements 'n.a' and 'n.b' of Nested data structure 'n' (Array columns)"
                                + " have different array sizes (SIZES_OF_ARRAYS_DONT_MATCH): row 1"
                                + " of the block has 2 and 1 elements");
        assertThat(table.activeParts()).isEmpty();
        assertThat(table.temporaryDirectories()).isEmpty();
    }

    /**
     * Tables whose columns would write the same sizes file are refused as ClickHouse refuses them
     * at CREATE TABLE; the others are accepted by both.
     */
    @Test
    void collidingSizesStreamsAreRefusedAsClickHouseRefusesThem() {
        String[][] refused = {
            {"a Array(Int32), `a.y` Array(Int32)", "Columns 'a' and 'a.y'", "a.size0"},
            {"`a.x` Map(String, Int32), `a.y` Map(String, Int32)", "Columns 'a.x' and 'a.y'", ""},
            {"`a.y` Array(Int32), `a.x` Map(String, Int32)", "Columns 'a.y' and 'a.x'", ""},
        };
        int n = 0;
        for (String[] r : refused) {
            String ddl =
                    "CREATE TABLE coll"
                            + n++
                            + " (id UInt32, "
                            + r[0]
                            + ") ENGINE = MergeTree"
                            + " ORDER BY id";
            assertThatThrownBy(() -> ch.execute(ddl))
                    .hasMessageContaining("with collision in file name a.size0");
            assertThatThrownBy(() -> TableLayouts.fromDdl(ddl))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(r[1])
                    .hasMessageContaining("have streams with collision in file name a.size0");
        }
        String[][] accepted = {
            {"n UInt32, `n.a` Array(String), `n.b` Array(UInt8)", ""},
            {"`m.m` Map(String, Int32), `m` Int8, `x.y` String, `x` String", ""},
            {"a Array(Int32), `a.y` Array(Int32)", " SETTINGS share_nested_offsets = 0"}
        };
        for (String[] a : accepted) {
            String ddl =
                    "CREATE TABLE acc"
                            + n++
                            + " (id UInt32, "
                            + a[0]
                            + ") ENGINE = MergeTree ORDER BY id"
                            + a[1];
            ch.execute(ddl);
            assertThat(TableLayouts.fromDdl(ddl).columnNames()).contains("id");
        }
    }

    /**
     * ClickHouse's SummingMergeTree sums a Nested structure named {@code ...Map} as a map (chDB
     * shows it); the merger does not, so such a table is refused rather than merged differently.
     * The same structure under another name is an ordinary pair of arrays and accepted.
     */
    @Test
    void summingMergeTreeWithANestedMapIsRefused() {
        String ddl =
                "CREATE TABLE sm (k UInt8, v UInt64, `statsMap.id` Array(UInt8), `statsMap.cnt`"
                        + " Array(UInt64)) ENGINE = SummingMergeTree ORDER BY k";
        ch.execute(ddl);
        ch.execute("INSERT INTO sm VALUES (1, 1, [1, 2], [10, 20])");
        ch.execute("INSERT INTO sm VALUES (1, 2, [2, 3], [1, 1])");
        ch.execute("OPTIMIZE TABLE sm FINAL");
        assertThat(ch.query("SELECT * FROM sm")).isEqualTo("1\t3\t[1,2,3]\t[10,21,1]");
        assertThatThrownBy(() -> TableLayouts.fromDdl(ddl))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "table sm: SummingMergeTree sums the Nested structure statsMap"
                                + " (statsMap.id, statsMap.cnt) as a map, as ClickHouse does for a"
                                + " name ending in Map; this engine does not implement that");
        assertThat(TableLayouts.fromDdl(ddl.replace("statsMap", "stats")).columnNames())
                .contains("stats.id", "stats.cnt");
    }

    @Test
    void shareNestedOffsetsZeroKeepsOneSizesStreamPerColumn() throws Exception {
        String ddl =
                "CREATE TABLE unshared (id UInt32, `n.a` Array(String), `n.b` Array(Int32))"
                        + " ENGINE = MergeTree ORDER BY id SETTINGS share_nested_offsets = 0";
        TableLayout layout = TableLayouts.fromDdl(ddl);
        ch.execute(
                ddl
                        + ", min_bytes_for_wide_part = 0,"
                        + " ratio_of_defaults_for_sparse_serialization = 1");
        ch.execute(
                ddl.replace("unshared", "unshared_ref")
                        + ", min_bytes_for_wide_part = 0,"
                        + " ratio_of_defaults_for_sparse_serialization = 1");
        String values = "(1, ['a'], [1, 2]), (2, ['b', 'c'], [])";
        ch.execute("INSERT INTO unshared_ref VALUES " + values);
        Path data = tmp.resolve("unshared.bin");
        ch.execute(
                "SELECT * FROM unshared_ref ORDER BY id INTO OUTFILE '"
                        + data
                        + "' FORMAT RowBinary");
        MergeTreeTable table =
                MergeTreeTable.open(
                        LocalParts.store(tmp.resolve("unshared")), layout, Clock.systemUTC());
        table.insert(
                RowBinary.read(
                        Files.readAllBytes(data),
                        layout.columnNames(),
                        layout.columnTypes(),
                        "unshared"));
        Path dir = LocalParts.root(table).resolve(table.activeParts().get(0).name().toString());
        assertThat(dir.resolve("n%2Ea.size0.bin")).exists();
        assertThat(dir.resolve("n%2Eb.size0.bin")).exists();
        assertThat(dir.resolve("n.size0.bin")).doesNotExist();
        ch.attachPart("unshared", dir);
        ch.assertCheckTablePasses("unshared");
        assertSameRows("unshared", "unshared_ref");
        Path theirs =
                Path.of(
                        ch.rows("SELECT path FROM system.parts WHERE table = 'unshared_ref'")
                                .get(0)[0]);
        assertThat(RowBinary.write(LocalParts.open(theirs).readAll()))
                .isEqualTo(Files.readAllBytes(data));
    }

    private static void assertSameRows(String ours, String ref) {
        assertThat(ch.queryLong("SELECT count() FROM " + ours)).isPositive();
        assertThat(ch.query("SELECT * FROM " + ours + " ORDER BY id"))
                .isEqualTo(ch.query("SELECT * FROM " + ref + " ORDER BY id"));
        // the size subcolumns ClickHouse reads from the sizes streams alone
        String sizes =
                ours.startsWith("unshared")
                        ? "SELECT sum(`n.a.size0`), sum(`n.b.size0`) FROM "
                        : "SELECT sum(`meta.value.size0`), sum(`n.c.size0`), sum(`a.e.size0`),"
                                + " sum(`z.w.size0`), sum(arraySum(`n.b.size1`)) FROM ";
        assertThat(ch.query(sizes + ours)).isEqualTo(ch.query(sizes + ref));
    }
}
