package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.PartReader;
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
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code AggregateFunction(f, T…)} state columns judged by ClickHouse: states ClickHouse computed
 * ({@code fState} over groups of generated rows: duplicate keys, NULLs, NaN, extremes, empty and
 * unicode strings) are read from its RowBinary, written into our parts, and merged by our
 * AggregatingMergeTree; chDB attaches our parts (CHECK TABLE passes), and both the states' bytes
 * and {@code finalizeAggregation} of them equal ClickHouse's own table after its OPTIMIZE FINAL,
 * and ClickHouse's FINAL over our unmerged parts; our part reader reads ClickHouse's merged part.
 */
class AggregateFunctionStatesChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    private static final String STRUCTURE =
            String.join(
                    ", ",
                    "k UInt8",
                    "a_sum AggregateFunction(sum, UInt64)",
                    "a_sumi AggregateFunction(sum, Nullable(Int32))",
                    "a_sumf AggregateFunction(sum, Float64)",
                    "a_sumd AggregateFunction(sum, Decimal(18, 3))",
                    "a_sum128 AggregateFunction(sum, Int128)",
                    "a_sumu8 AggregateFunction(sum, UInt8)",
                    "a_cnt AggregateFunction(count)",
                    "a_cntn AggregateFunction(count, Nullable(String))",
                    "a_avg AggregateFunction(avg, Int16)",
                    "a_avgn AggregateFunction(avg, Nullable(Decimal(9, 2)))",
                    "a_avgf AggregateFunction(avg, Float32)",
                    "a_any AggregateFunction(any, String)",
                    "a_anyl AggregateFunction(anyLast, Nullable(String))",
                    "a_anyu AggregateFunction(any, UInt32)",
                    "a_anyarr AggregateFunction(anyLast, Array(String))",
                    "a_min AggregateFunction(min, Float32)",
                    "a_minn AggregateFunction(min, Nullable(Int8))",
                    "a_max AggregateFunction(max, String)",
                    "a_mindt AggregateFunction(min, DateTime64(3, 'UTC'))",
                    "a_maxi AggregateFunction(max, Int64)",
                    "a_maxd AggregateFunction(max, Decimal(38, 5))",
                    "a_argmax AggregateFunction(argMax, String, DateTime('UTC'))",
                    "a_argmin AggregateFunction(argMin, Array(UInt8), Int64)",
                    "a_garr AggregateFunction(groupArray, String)",
                    "a_garr3 AggregateFunction(groupArray(3), Nullable(UInt32))",
                    "a_uex AggregateFunction(uniqExact, UInt32)",
                    "a_uexs AggregateFunction(uniqExact, String)",
                    "a_uexn AggregateFunction(uniqExact, Nullable(Int64))",
                    "a_uq AggregateFunction(uniq, UInt64)",
                    "a_uqs AggregateFunction(uniq, String)",
                    "a_uqn AggregateFunction(uniq, Nullable(Int16))",
                    "a_uqd AggregateFunction(uniq, Decimal(18, 3))",
                    "a_uqf AggregateFunction(uniq, Float64)",
                    "a_uc AggregateFunction(uniqCombined, UInt32)",
                    "a_ucs AggregateFunction(uniqCombined, String)",
                    "a_uc64 AggregateFunction(uniqCombined64, Nullable(Int64))",
                    "a_gaa AggregateFunction(groupArrayArray, Array(String))",
                    "a_gaa5 AggregateFunction(groupArrayArray(5), Array(Nullable(UInt16)))");

    private static final String[] STATES = {
        "sumState(h)",
        "sumState(if(h % 3 = 0, NULL, toInt32(toInt64(h % 100000) - 50000)))",
        "sumState(toFloat64(h % 1000) / 4)",
        "sumState(toDecimal64((toInt64(h % 2000000) - 1000000) / 1000, 3))",
        "sumState(toInt128(toInt128(h) * 1000000000000 * if(h % 2 = 0, 1, -1)))",
        "sumState(toUInt8(h % 256))",
        "countState()",
        "countState(if(h % 4 = 0, NULL, toString(h)))",
        "avgState(toInt16(toInt32(h % 65536) - 32768))",
        "avgState(if(h % 5 = 0, NULL, toDecimal32((toInt64(h % 20000) - 10000) / 100, 2)))",
        "avgState(toFloat32(toFloat32(h % 64) / 8))",
        "anyState(['', 'ü€𝄞', 'a\\0b', toString(h % 50)][h % 4 + 1])",
        "anyLastState(if(h % 3 = 0, NULL, ['', 'x', 'Ω', toString(h)][h % 4 + 1]))",
        "anyState(toUInt32(h % 4294967296))",
        "anyLastState(arrayMap(i -> toString(h % (i + 2)), range(h % 3)))",
        "minState(toFloat32([nan, -0., 0., inf, -inf, 1.5, toFloat64(h % 1000) / 7][h % 7 + 1]))",
        "minState(if(h % 6 = 0, NULL, toInt8(toInt32(h % 256) - 128)))",
        "maxState(['', 'zz', 'ü', 'a\\0b', toString(h % 50)][h % 5 + 1])",
        "minState(toDateTime64(1700000000 + h % 100000, 3, 'UTC'))",
        "maxState(toInt64(toInt64(h) * if(h % 2 = 0, 1, -1)))",
        "maxState(toDecimal128((toInt64(h % 2000000) - 1000000) / 1000, 5))",
        "argMaxState(toString(h % 97), toDateTime(1700000000 + h % 1000, 'UTC'))",
        "argMinState(arrayMap(i -> toUInt8((h + i) % 256), range(h % 3)), toInt64(h % 50))",
        "groupArrayState(['', 'é', toString(h % 9)][h % 3 + 1])",
        "groupArrayState(3)(if(h % 4 = 0, NULL, toUInt32(h % 1000)))",
        "uniqExactState(toUInt32(h % 50))",
        "uniqExactState(['', 'ü€𝄞', toString(h % 30)][h % 3 + 1])",
        "uniqExactState(if(h % 5 = 0, NULL, toInt64(h % 40) - 20))",
        "uniqState(toUInt64(h % 3000))",
        "uniqState(['', 'ü€𝄞', toString(h % 500)][h % 3 + 1])",
        "uniqState(if(h % 5 = 0, NULL, toInt16(toInt64(h % 400) - 200)))",
        "uniqState(toDecimal64((toInt64(h % 2000) - 1000) / 1000, 3))",
        "uniqState([nan, -0., 0., inf, toFloat64(h % 1000) / 7][h % 5 + 1])",
        "uniqCombinedState(toUInt32(h % 3000))",
        "uniqCombinedState(['', 'ü€𝄞', toString(h % 500)][h % 3 + 1])",
        "uniqCombined64State(if(h % 7 = 0, NULL, toInt64(h % 300) - 150))",
        "groupArrayArrayState(arrayMap(i -> toString(h % (i + 3)), range(h % 3)))",
        "groupArrayArrayState(5)(arrayMap(i -> if((h + i) % 3 = 0, NULL, toUInt16((h + i) % 1000)),"
                + " range(h % 4)))",
    };

    /** Groups of 1 to 3 consecutive generated rows, each with one state per column. */
    private static final String GENERATOR =
            "SELECT any(toUInt8(g % 13)) AS k, "
                    + String.join(", ", STATES)
                    + " FROM (SELECT number, intDiv(number * 7 + SEED, 5) AS g,"
                    + " cityHash64(number, SEED) AS h FROM numbers(700)) GROUP BY g";

    @Test
    void ourPartsAndMergesEqualClickHousesStatesAndResults() throws Exception {
        String tail = " ENGINE = AggregatingMergeTree ORDER BY k";
        String ddl = "CREATE TABLE t (" + STRUCTURE + ")" + tail;
        List<String> names = new ArrayList<>();
        for (String c : STRUCTURE.split(", (?=[a-z_0-9]+ )")) {
            names.add(c.substring(0, c.indexOf(' ')));
        }
        List<String> finals = new ArrayList<>();
        List<String> hexes = new ArrayList<>();
        for (String n : names.subList(1, names.size())) {
            finals.add("finalizeAggregation(" + n + ")");
            if (!n.startsWith("a_uex")) {
                // uniqExact's keys are in hash table order in ClickHouse's states, ours in arrival
                hexes.add("hex(" + n + ")");
            }
        }
        String results = "k, " + String.join(", ", finals);
        String bytes = "k, " + String.join(", ", hexes);
        for (String t : List.of("ref", "ours", "unmerged")) {
            // ClickHouse's own parts Wide, as ours, for our reader to read them column by column
            String settings = t.equals("ref") ? " SETTINGS min_bytes_for_wide_part = 0" : "";
            ch.execute("CREATE TABLE " + t + " (" + STRUCTURE + ")" + tail + settings);
            ch.execute("SYSTEM STOP MERGES " + t);
        }
        ch.execute("CREATE TABLE gen (" + STRUCTURE + ") ENGINE = Memory");
        TableLayout layout = TableLayouts.fromDdl(ddl);
        Path root = Files.createDirectories(tmp.resolve("states"));
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(root), layout, Clock.systemUTC());
        for (int i = 1; i <= 5; i++) {
            Path data = tmp.resolve("insert" + i + ".bin");
            ch.execute("TRUNCATE TABLE gen");
            ch.execute("INSERT INTO gen " + GENERATOR.replace("SEED", Integer.toString(i)));
            ch.execute("SELECT * FROM gen INTO OUTFILE '" + data + "' FORMAT RowBinary");
            ch.execute("INSERT INTO ref SELECT * FROM gen");
            Block rows =
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString());
            table.insert(rows);
        }
        for (ActivePart p : table.activeParts()) {
            ch.attachPart("unmerged", root.resolve(p.name().toString()));
        }
        assertThat(table.activeParts()).hasSize(5);
        ch.assertCheckTablePasses("unmerged");
        // inserted parts (states of equal keys merged on insert, as ClickHouse does)
        assertThat(rows(bytes, "unmerged", ""))
                .as("inserted states, columns %s", differing(hexes, "unmerged", "ref", ""))
                .isEqualTo(rows(bytes, "ref", ""));
        assertThat(rows(results, "unmerged", " FINAL")).isEqualTo(rows(results, "ref", " FINAL"));

        table.optimizeFinal(false);
        List<ActivePart> merged = table.activeParts();
        assertThat(merged).hasSize(1);
        ch.attachPart("ours", root.resolve(merged.get(0).name().toString()));
        ch.execute("SYSTEM START MERGES ref");
        ch.execute("OPTIMIZE TABLE ref FINAL");
        ch.assertCheckTablePasses("ours");
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(13);
        assertThat(rows(results, "ours", ""))
                .as("merged results, columns %s", differing(finals, "ours", "ref", ""))
                .isEqualTo(rows(results, "ref", ""));
        assertThat(rows(bytes, "ours", ""))
                .as("merged states, columns %s", differing(hexes, "ours", "ref", ""))
                .isEqualTo(rows(bytes, "ref", ""));
        String types = "SELECT type FROM system.columns WHERE table = '%s' ORDER BY position";
        assertThat(ch.query(String.format(types, "ours")))
                .isEqualTo(ch.query(String.format(types, "ref")));

        // our reader reads ClickHouse's merged part: the states as ClickHouse's RowBinary has them
        String refPart =
                ch.query("SELECT name FROM system.parts WHERE table = 'ref' AND active").trim();
        PartReader theirs = LocalParts.open(ch.tableDataPath("ref").resolve(refPart));
        theirs.verify();
        Block read = theirs.readAll();
        Path refRows = tmp.resolve("ref.bin");
        ch.execute("SELECT * FROM ref ORDER BY k INTO OUTFILE '" + refRows + "' FORMAT RowBinary");
        Block expected =
                RowBinary.read(
                        Files.readAllBytes(refRows),
                        layout.columnNames(),
                        layout.columnTypes(),
                        refRows.toString());
        assertThat(read.rows()).isEqualTo(13);
        for (int c = 1; c < names.size(); c++) {
            StringColumn x = (StringColumn) read.column(c);
            StringColumn y = (StringColumn) expected.column(c);
            for (int r = 0; r < 13; r++) {
                byte[] ours = Arrays.copyOfRange(x.bytes(), x.start(r), x.end(r));
                byte[] clickHouse = Arrays.copyOfRange(y.bytes(), y.start(r), y.end(r));
                if (names.get(c).startsWith("a_uq")) {
                    // uniq's cells are in table order, which a read-and-write by ClickHouse changes
                    ours = uniqCellsSorted(ours, names.get(c).equals("a_uqn"));
                    clickHouse = uniqCellsSorted(clickHouse, names.get(c).equals("a_uqn"));
                } else if (names.get(c).startsWith("a_uex")) {
                    // ClickHouse re-serializes a set read back in another hash table order
                    Arrays.sort(ours);
                    Arrays.sort(clickHouse);
                }
                assertThat(ours).as("%s row %d", names.get(c), r).isEqualTo(clickHouse);
            }
        }
    }

    /** A uniq state with its 4-byte cells (after flag, skip_degree and VarUInt count) sorted. */
    private static byte[] uniqCellsSorted(byte[] state, boolean nullFlag) {
        int at = (nullFlag ? 1 : 0) + 1;
        while ((state[at] & 0x80) != 0) {
            at++;
        }
        at++;
        List<String> cells = new ArrayList<>();
        for (int i = at; i < state.length; i += 4) {
            cells.add(java.util.HexFormat.of().formatHex(state, i, i + 4));
        }
        cells.sort(null);
        byte[] out = state.clone();
        for (int i = 0; i < cells.size(); i++) {
            System.arraycopy(
                    java.util.HexFormat.of().parseHex(cells.get(i)), 0, out, at + 4 * i, 4);
        }
        return out;
    }

    private static List<String> differing(List<String> columns, String a, String b, String mod) {
        List<String> out = new ArrayList<>();
        for (String c : columns) {
            String x = rows("k, " + c, a, mod);
            String y = rows("k, " + c, b, mod);
            if (!x.equals(y)) {
                int at = 0;
                while (at < Math.min(x.length(), y.length()) && x.charAt(at) == y.charAt(at)) {
                    at++;
                }
                out.add(
                        c
                                + ": "
                                + x.substring(Math.max(0, at - 40), Math.min(x.length(), at + 40))
                                + " <> "
                                + y.substring(Math.max(0, at - 40), Math.min(y.length(), at + 40)));
            }
        }
        return out;
    }

    private static String rows(String columns, String table, String modifier) {
        return ch.query("SELECT " + columns + " FROM " + table + modifier + " ORDER BY k");
    }
}
