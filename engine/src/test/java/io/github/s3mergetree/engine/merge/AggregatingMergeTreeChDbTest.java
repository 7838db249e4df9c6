package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AggregatingMergeTree with {@code SimpleAggregateFunction} columns of every supported function,
 * judged by ClickHouse: the same generated inserts (many rows per sorting key, NULLs, NaN, ±0.0,
 * ±inf, empty arrays, zero sums, wrap-around) go into a chDB table and through our table (insert
 * reduction, parts, {@code optimizeFinal}); our parts are attached to chDB, where CHECK TABLE
 * passes and the rows equal ClickHouse's after its own OPTIMIZE FINAL, and {@code SELECT … FINAL}
 * over our unmerged parts equals ClickHouse's.
 */
class AggregatingMergeTreeChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    private static final String STRUCTURE =
            String.join(
                    ", ",
                    "k UInt8",
                    "g LowCardinality(String)",
                    "s_any SimpleAggregateFunction(any, Nullable(String))",
                    "s_any_value SimpleAggregateFunction(any_value, Int16)",
                    "s_anylast SimpleAggregateFunction(anyLast, Nullable(Int32))",
                    "s_anyrn SimpleAggregateFunction(any_respect_nulls, Nullable(Int32))",
                    "s_anylastrn SimpleAggregateFunction(anyLast_respect_nulls, Nullable(String))",
                    "s_min SimpleAggregateFunction(min, Float64)",
                    "s_max SimpleAggregateFunction(max, Nullable(Float32))",
                    "s_minstr SimpleAggregateFunction(MIN, LowCardinality(Nullable(String)))",
                    "s_maxdec SimpleAggregateFunction(max, Decimal(18, 4))",
                    "s_minarr SimpleAggregateFunction(min, Array(Int8))",
                    "s_maxdt SimpleAggregateFunction(max, DateTime64(3, 'UTC'))",
                    "s_sum SimpleAggregateFunction(sum, UInt64)",
                    "s_sumi SimpleAggregateFunction(sum, Nullable(Int64))",
                    "s_sumf SimpleAggregateFunction(sum, Float64)",
                    "s_sumd SimpleAggregateFunction(sum, Decimal(38, 2))",
                    "s_sum128 SimpleAggregateFunction(sum, Int128)",
                    "s_sumo SimpleAggregateFunction(sumWithOverflow, UInt8)",
                    "s_sumof SimpleAggregateFunction(sumWithOverflow, Float32)",
                    "s_and SimpleAggregateFunction(groupBitAnd, UInt32)",
                    "s_or SimpleAggregateFunction(groupBitOr, Nullable(Int16))",
                    "s_xor SimpleAggregateFunction(groupBitXor, UInt256)",
                    "s_summap SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(Int64)))",
                    "s_summap2 SimpleAggregateFunction(sumMap,"
                            + " Tuple(Array(UInt16), Array(UInt64), Array(Float64)))",
                    "s_minmap SimpleAggregateFunction(minMap, Tuple(Array(String), Array(Int8)))",
                    "s_maxmap SimpleAggregateFunction(maxMap, Map(String, Int32))",
                    "s_summapm SimpleAggregateFunction(sumMap, Map(UInt8, UInt64))",
                    "s_garr SimpleAggregateFunction(groupArrayArray, Array(String))",
                    "s_garr3 SimpleAggregateFunction(groupArrayArray(3), Array(UInt8))",
                    "s_guniq SimpleAggregateFunction(groupUniqArrayArray, Array(UInt32))",
                    "s_guniqs SimpleAggregateFunction(groupUniqArrayArray(2), Array(String))",
                    "s_k SimpleAggregateFunction(sum, UInt64)");

    /** Rows of insert SEED: 13 × 3 keys over 700 rows, so every key has many rows. */
    private static final String GENERATOR =
            "SELECT toUInt8(number % 13) AS k, ['a', 'b', ''][number % 3 + 1] AS g,"
                    + " if(h % 4 = 0, NULL, toString(h % 100)) AS s_any,"
                    + " toInt16(h % 1000) - 500 AS s_any_value,"
                    + " if(h % 3 = 0, NULL, toInt32(h % 1000) - 500) AS s_anylast,"
                    + " if(h % 5 = 0, NULL, toInt32(h % 77)) AS s_anyrn,"
                    + " if(h % 5 = 1, NULL, toString(h % 9)) AS s_anylastrn,"
                    + " [nan, -0., 0., inf, -inf, 1.5, toFloat64(h % 1000) / 7][h % 7 + 1] AS s_min,"
                    + " if(h % 6 = 0, NULL, toFloat32([nan, -0., 0., 3.25, toFloat64(h % 100)][h % 5 + 1]))"
                    + " AS s_max,"
                    + " if(h % 4 = 1, NULL, ['', 'zz', 'a\\0b', toString(h % 50)][h % 4 + 1]) AS s_minstr,"
                    + " toDecimal64((toInt64(h % 2000000) - 1000000) / 100, 4) AS s_maxdec,"
                    + " arrayMap(i -> toInt8(h % (i + 3)) - 1, range(h % 3)) AS s_minarr,"
                    + " toDateTime64(1700000000 + h % 100000, 3, 'UTC') AS s_maxdt,"
                    + " h AS s_sum,"
                    + " if(h % 3 = 0, NULL, toInt64(h)) AS s_sumi,"
                    + " toFloat64(h % 10000) / 3 AS s_sumf,"
                    + " toDecimal128((toInt64(h % 20000) - 10000) / 100, 2) AS s_sumd,"
                    + " toInt128(h) * 1000000000000 * if(h % 2 = 0, 1, -1) AS s_sum128,"
                    + " toUInt8(h % 256) AS s_sumo,"
                    + " toFloat32(h % 1000) / 3 AS s_sumof,"
                    + " toUInt32(bitOr(h % 4294967296, 4294901760)) AS s_and,"
                    + " if(h % 7 = 0, NULL, toInt16(toInt32(h % 65536) - 32768)) AS s_or,"
                    + " toUInt256(h) * toUInt256(h) AS s_xor,"
                    + " (arrayMap(i -> toString((h + i) % 5), range(h % 4)),"
                    + " arrayMap(i -> toInt64((h * i) % 11) - 5, range(h % 4))) AS s_summap,"
                    + " (arrayMap(i -> toUInt16((h + i) % 6), range(h % 3)),"
                    + " arrayMap(i -> toUInt64(i % 2), range(h % 3)),"
                    + " arrayMap(i -> toFloat64(0), range(h % 3))) AS s_summap2,"
                    + " (arrayMap(i -> toString((h + i) % 5), range(h % 4)),"
                    + " arrayMap(i -> toInt8((h * i) % 200 - 100), range(h % 4))) AS s_minmap,"
                    + " mapFromArrays(arrayMap(i -> toString((h + i) % 5), range(h % 3)),"
                    + " arrayMap(i -> toInt32(h % 100) - 50 + i, range(h % 3))) AS s_maxmap,"
                    + " mapFromArrays(arrayMap(i -> toUInt8((h + i) % 7), range(h % 3)),"
                    + " arrayMap(i -> toUInt64(i), range(h % 3))) AS s_summapm,"
                    + " arrayMap(i -> toString(h % (i + 2)), range(h % 3)) AS s_garr,"
                    + " arrayMap(i -> toUInt8(i), range(h % 3)) AS s_garr3,"
                    + " arrayMap(i -> toUInt32((h + i) % 6), range(h % 4)) AS s_guniq,"
                    + " arrayMap(i -> toString((h + i) % 4), range(h % 3)) AS s_guniqs,"
                    + " toUInt64(k) AS s_k"
                    + " FROM (SELECT number, cityHash64(number, SEED) AS h FROM numbers(700))";

    /** ClickHouse's groupUniqArray order is its hash table's: compare the sets. */
    private static final String COLUMNS =
            "k, g, s_any, s_any_value, s_anylast, s_anyrn, s_anylastrn, s_min, s_max, s_minstr,"
                    + " s_maxdec, s_minarr, s_maxdt, s_sum, s_sumi, s_sumf, s_sumd, s_sum128,"
                    + " s_sumo, s_sumof, s_and, s_or, s_xor, s_summap, s_summap2, s_minmap,"
                    + " s_maxmap, s_summapm, s_garr, s_garr3, arraySort(s_guniq),"
                    + " length(s_guniqs), s_k";

    @Test
    void mergedPartsEqualClickHousesOptimizeFinalAndFinalOverUnmergedParts() throws Exception {
        judge("fns", STRUCTURE, "k, g", GENERATOR, COLUMNS, "k, g, s_sum, s_sumf, s_any_value", 39);
    }

    /** Random values of many storage types (NULLs, NaN, extremes) for the selecting functions. */
    @Test
    void randomValuesOfManyTypesEqualClickHouses() throws Exception {
        List<String> columns = new ArrayList<>();
        String[] selecting = {
            "Int128",
            "UInt256",
            "Float32",
            "Nullable(Float64)",
            "Decimal(38, 10)",
            "String",
            "FixedString(3)",
            "Date32",
            "DateTime64(6, 'UTC')",
            "UUID",
            "IPv4",
            "IPv6",
            "Enum8('a' = -1, 'b' = 5)",
            "Array(Nullable(Int16))",
            "Tuple(a UInt8, b String)",
            "LowCardinality(String)",
            "Bool",
            "Nullable(Decimal(9, 2))"
        };
        int i = 0;
        for (String t : selecting) {
            for (String f : List.of("any", "anyLast", "min", "max")) {
                columns.add("c" + (i++) + " SimpleAggregateFunction(" + f + ", " + t + ")");
            }
        }
        for (String t :
                List.of(
                        "sum, Int64",
                        "sum, Nullable(UInt64)",
                        "sum, Float64",
                        "sum, Nullable(Decimal(38, 3))",
                        "sum, Int256",
                        "sum, UInt128",
                        "sum, Decimal(76, 5)",
                        "sumWithOverflow, Int16",
                        "sumWithOverflow, Decimal(9, 2)",
                        "groupBitXor, Int128",
                        "groupBitAnd, Nullable(UInt16)",
                        "groupBitOr, Bool",
                        "any, Map(String, UInt8)",
                        "anyLast_respect_nulls, Nullable(IPv6)",
                        "groupArrayArray, Array(FixedString(2))",
                        "minMap, Map(Int32, Float64)",
                        "maxMap, Map(UUID, String)")) {
            columns.add("c" + (i++) + " SimpleAggregateFunction(" + t + ")");
        }
        String structure = "k UInt8, " + String.join(", ", columns);
        String names = "k";
        for (int c = 0; c < i; c++) {
            names += ", c" + c;
        }
        // keys 0..15: about 60 rows per key and insert
        String generator =
                "SELECT k % 16 AS k, * EXCEPT k FROM generateRandom('"
                        + structure.replace("'", "\\'")
                        + "', SEED, 8, 3) LIMIT 1000";
        judge("random", structure, "k", generator, names, "k, c0, c1", 16);
    }

    /** As ClickHouse refuses the INSERT (optimize_on_insert merges the block), with the column. */
    @Test
    void sumMapKeysAndValuesOfDifferentSizesAreRefused() throws Exception {
        String structure =
                "k UInt8, m SimpleAggregateFunction(sumMap, Tuple(Array(String), Array(UInt64)))";
        String ddl = "CREATE TABLE t (" + structure + ") ENGINE = AggregatingMergeTree ORDER BY k";
        String values = "(1, (['a', 'b'], [1]))";
        ch.execute(
                "CREATE TABLE sizes (" + structure + ") ENGINE = AggregatingMergeTree ORDER BY k");
        assertThatThrownBy(() -> ch.execute("INSERT INTO sizes VALUES " + values))
                .hasMessageContaining("Sizes of keys and values arrays do not match");
        TableLayout layout = TableLayouts.fromDdl(ddl);
        MergeTreeTable table =
                MergeTreeTable.open(
                        LocalParts.store(Files.createDirectories(tmp.resolve("sizes"))),
                        layout,
                        Clock.systemUTC());
        Path data = tmp.resolve("sizes.bin");
        ch.execute(
                "SELECT * FROM values('"
                        + structure
                        + "', "
                        + values
                        + ") INTO OUTFILE '"
                        + data
                        + "' FORMAT RowBinary");
        Block rows =
                RowBinary.read(
                        Files.readAllBytes(data),
                        layout.columnNames(),
                        layout.columnTypes(),
                        data.toString());
        assertThatThrownBy(() -> table.insert(rows))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(
                        "Sizes of keys and values arrays do not match (column m"
                                + " SimpleAggregateFunction(sumMap, Tuple(Array(String),"
                                + " Array(UInt64))))");
        assertThat(table.activeParts()).isEmpty();
    }

    private static void judge(
            String name,
            String structure,
            String orderBy,
            String generator,
            String columns,
            String rowOrder,
            int keys)
            throws Exception {
        String tail = " ENGINE = AggregatingMergeTree ORDER BY (" + orderBy + ")";
        String ddl = "CREATE TABLE t (" + structure + ")" + tail;
        String ref = name + "_ref";
        String ours = name + "_ours";
        String unmerged = name + "_unmerged";
        for (String t : List.of(ref, ours, unmerged)) {
            ch.execute("CREATE TABLE " + t + " (" + structure + ")" + tail);
            // the parts as inserted, for comparing them before merges
            ch.execute("SYSTEM STOP MERGES " + t);
        }
        String gen = name + "_gen";
        ch.execute("CREATE TABLE " + gen + " (" + structure + ") ENGINE = Memory");
        TableLayout layout = TableLayouts.fromDdl(ddl);
        Path root = Files.createDirectories(tmp.resolve(name));
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(root), layout, Clock.systemUTC());
        for (int i = 1; i <= 6; i++) {
            Path data = tmp.resolve(name + "_insert" + i + ".bin");
            ch.execute("TRUNCATE TABLE " + gen);
            ch.execute("INSERT INTO " + gen + " " + generator.replace("SEED", Integer.toString(i)));
            ch.execute("SELECT * FROM " + gen + " INTO OUTFILE '" + data + "' FORMAT RowBinary");
            ch.execute("INSERT INTO " + ref + " SELECT * FROM " + gen);
            Block rows =
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString());
            table.insert(rows);
        }
        // ClickHouse's FINAL over our parts, reduced per insert as ClickHouse reduces them
        for (ActivePart p : table.activeParts()) {
            ch.attachPart(unmerged, root.resolve(p.name().toString()));
        }
        assertThat(table.activeParts()).hasSize(6);
        ch.assertCheckTablePasses(unmerged);
        assertThat(rows(columns, unmerged, "", rowOrder))
                .as(
                        "our insert parts (optimize_on_insert) vs ClickHouse's, columns %s",
                        differing(columns, unmerged, ref, rowOrder))
                .isEqualTo(rows(columns, ref, "", rowOrder));
        assertThat(rows(columns, unmerged, " FINAL", rowOrder))
                .isEqualTo(rows(columns, ref, " FINAL", rowOrder));

        table.optimizeFinal(false);
        List<ActivePart> merged = table.activeParts();
        assertThat(merged).hasSize(1);
        ch.attachPart(ours, root.resolve(merged.get(0).name().toString()));
        ch.execute("SYSTEM START MERGES " + ref);
        ch.execute("OPTIMIZE TABLE " + ref + " FINAL");
        ch.assertCheckTablePasses(ours);
        assertThat(ch.queryLong("SELECT count() FROM " + ours)).isEqualTo(keys);
        assertThat(rows(columns, ours, "", rowOrder))
                .as("merged, columns %s", differing(columns, ours, ref, rowOrder))
                .isEqualTo(rows(columns, ref, "", rowOrder));
        // the merged part is what ClickHouse's FINAL computes over our unmerged parts
        assertThat(rows(columns, ours, "", rowOrder))
                .isEqualTo(rows(columns, unmerged, " FINAL", rowOrder));
        String types = "SELECT type FROM system.columns WHERE table = '%s' ORDER BY position";
        assertThat(ch.query(String.format(types, ours)))
                .isEqualTo(ch.query(String.format(types, ref)));
    }

    /** The columns whose values differ between two tables, for failure messages. */
    private static List<String> differing(String columns, String a, String b, String order) {
        List<String> out = new ArrayList<>();
        for (String c : columns.split(",(?![^(]*\\))")) {
            String q = "SELECT " + c + " FROM %s ORDER BY " + order;
            String x = ch.query(String.format(q, a));
            String y = ch.query(String.format(q, b));
            if (!x.equals(y)) {
                int at = 0;
                while (at < Math.min(x.length(), y.length()) && x.charAt(at) == y.charAt(at)) {
                    at++;
                }
                out.add(
                        c.trim()
                                + ": "
                                + x.substring(Math.max(0, at - 40), Math.min(x.length(), at + 40))
                                + " <> "
                                + y.substring(Math.max(0, at - 40), Math.min(y.length(), at + 40)));
            }
        }
        return out;
    }

    private static String rows(String columns, String table, String modifier, String order) {
        return ch.query("SELECT " + columns + " FROM " + table + modifier + " ORDER BY " + order);
    }
}
