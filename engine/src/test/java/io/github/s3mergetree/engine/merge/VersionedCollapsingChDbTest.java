package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.DdlParseException;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code VersionedCollapsingMergeTree(sign, version)} against ClickHouse (chDB 26.x): the same
 * inserts into a table written here (insert-time reduction, merges, {@code OPTIMIZE FINAL}) and
 * into chDB's own table end in the same rows, in the same order, and {@code FINAL} reads agree; the
 * DDL is validated with ClickHouse's messages.
 */
class VersionedCollapsingChDbTest {
    @ChDbSession static ChDb ch;
    @TempDir Path tmp;
    static int tables;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // the version is appended to the sorting key (k, ver)
                "appended|k UInt16, sign Int8, ver UInt8, v String|ORDER BY k|"
                        + "SELECT toUInt16(number % 40) AS k, toInt8(if(cityHash64(number, SEED) % 2"
                        + " = 0, 1, -1)) AS sign, toUInt8(cityHash64(number, SEED, 1) % 4) AS ver,"
                        + " concat('v', toString(number), '_', toString(SEED)) AS v"
                        + " FROM numbers(400)",
                // the version leads the key; signs other than ±1 count as their own sign
                "versionFirst|k UInt32, sign Int8, ver UInt64, v String|ORDER BY (ver, k)|"
                        + "SELECT toUInt32(number % 25) AS k, toInt8(cityHash64(number, SEED) % 3"
                        + " - 1) AS sign, toUInt64(cityHash64(number, SEED, 2) % 3) AS ver,"
                        + " toString(number) AS v FROM numbers(300)",
                // partitioned, DateTime version, a primary key shorter than the sorting key
                "partitioned|d Date, k Int32, sign Int8, ver DateTime, v String|PARTITION BY"
                        + " toYYYYMM(d) PRIMARY KEY k ORDER BY (k, d)|"
                        + "SELECT toDate('2024-01-30') + number % 3 AS d, toInt32(number % 30) AS k,"
                        + " toInt8(if(cityHash64(number, SEED) % 3 = 0, -1, 1)) AS sign,"
                        + " toDateTime('2024-01-01 00:00:00', 'UTC') + cityHash64(number, SEED,"
                        + " 3) % 2 AS ver, concat(toString(number), '/', toString(SEED)) AS v"
                        + " FROM numbers(500)",
            })
    void mergesCollapseAsClickHouses(String name, String structure, String keys, String gen)
            throws Exception {
        String table = name + "_" + (++tables);
        String ddlTail = " ENGINE = VersionedCollapsingMergeTree(sign, ver) " + keys;
        String ddl = "CREATE TABLE " + table + " (" + structure + ")" + ddlTail;
        for (String t : new String[] {"ref_" + table, "ours_" + table, "unmerged_" + table}) {
            ch.execute("CREATE TABLE " + t + " (" + structure + ")" + ddlTail);
        }
        TableLayout layout = TableLayouts.fromDdl(ddl);
        Path ours = Files.createDirectories(tmp.resolve("ours"));
        TableStore store = TableStore.local(ours.toString());
        MergeTreeTable written =
                MergeTreeTable.open(
                        store,
                        layout,
                        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC));
        Path unmergedDir = Files.createDirectories(tmp.resolve("unmerged"));
        for (int i = 1; i <= 6; i++) {
            Path data = tmp.resolve("insert" + i + ".bin");
            String select = gen.replace("SEED", Integer.toString(i));
            ch.execute("INSERT INTO ref_" + table + " " + select);
            ch.execute(
                    "SELECT * FROM (" + select + ") INTO OUTFILE '" + data + "' FORMAT RowBinary");
            Block rows =
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString());
            for (var part : written.insert(rows)) {
                // each insert's parts as written, for FINAL over unmerged parts
                Path copy = unmergedDir.resolve(part.toString());
                io.github.s3mergetree.engine.part.Parts.copyRecursively(
                        ours.resolve(part.toString()), copy);
                ch.attachPart("unmerged_" + table, copy);
            }
        }
        written.optimizeFinal(false);
        ch.execute("OPTIMIZE TABLE ref_" + table + " FINAL");
        for (ActivePart p : written.activeParts()) {
            ch.attachPart("ours_" + table, ours.resolve(p.name().toString()));
        }
        written.close();
        ch.assertCheckTablePasses("ours_" + table);
        String cols = String.join(", ", layout.columnNames());
        long refRows = ch.queryLong("SELECT count() FROM ref_" + table);
        assertThat(refRows).isGreaterThan(0);
        assertThat(ch.queryLong("SELECT count() FROM ours_" + table)).isEqualTo(refRows);
        // the same rows in the same order (the parts' order: partition, then sorting key)
        String inOrder =
                "SELECT groupArray(tuple("
                        + cols
                        + ")) FROM (SELECT * FROM %s ORDER BY _part, _part_offset)";
        assertThat(ch.query(String.format(inOrder, "ours_" + table)))
                .isEqualTo(ch.query(String.format(inOrder, "ref_" + table)));
        assertThat(ch.query("SELECT " + RowsHash.of(cols) + " FROM ours_" + table))
                .isEqualTo(ch.query("SELECT " + RowsHash.of(cols) + " FROM ref_" + table));
        String finalRows = "SELECT " + RowsHash.of(cols) + ", count() FROM %s FINAL";
        assertThat(ch.query(String.format(finalRows, "unmerged_" + table)))
                .isEqualTo(ch.query(String.format(finalRows, "ref_" + table)));
    }

    /** DDLs chDB refuses; we refuse them with its message. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "(k UInt32, s Int16, v UInt16) ENGINE = VersionedCollapsingMergeTree(s, v)",
                "(k UInt32, s Int8, v String) ENGINE = VersionedCollapsingMergeTree(s, v)",
                "(k UInt32, s Int8, v UUID) ENGINE = VersionedCollapsingMergeTree(s, v)",
                "(k UInt32, s Int8, v UInt16) ENGINE = VersionedCollapsingMergeTree(s)",
                "(k UInt32, s Int8, v UInt16) ENGINE = VersionedCollapsingMergeTree(s, zz)",
                "(k UInt32, s Int8, v UInt16) ENGINE = VersionedCollapsingMergeTree(zz, v)",
                "(k UInt32, s Int8, v UInt16) ENGINE = VersionedCollapsingMergeTree(s, s)",
                "(k UInt32, s Int8, v Nullable(UInt8)) ENGINE = VersionedCollapsingMergeTree(s, v)",
            })
    void refusedAsClickHouseRefuses(String definition) {
        String sql = "CREATE TABLE bad_" + (++tables) + " " + definition + " ORDER BY k";
        String theirs;
        try {
            ch.execute(sql);
            theirs = null;
        } catch (ChDbException e) {
            theirs = e.clickHouseMessage();
            theirs = theirs.substring(theirs.indexOf("DB::Exception: ") + 15);
            theirs = theirs.split("\n")[0].replaceAll("\\.? \\([A-Z_]+\\)$", "").trim();
        }
        assertThat(theirs).as("chDB on %s", sql).isNotNull();
        assertThatThrownBy(() -> TableSchema.parse(sql))
                .isInstanceOf(DdlParseException.class)
                .hasMessageContaining(theirs.replaceAll("\\.$", ""));
    }

    /** Accepted with the version appended to the sorting key unless the key has it. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "ORDER BY k|k, v|k",
                "ORDER BY (k, v)|k, v|k, v",
                "ORDER BY (v, k)|v, k|v, k",
                "ORDER BY (k, v + 1)|k, v + 1, v|k, v + 1",
                "ORDER BY tuple()|v|''",
                "PRIMARY KEY k ORDER BY (k, s)|k, s, v|k",
            })
    void theVersionJoinsTheSortingKeyAsInClickHouse(String keys, String sorting, String primary) {
        String columns = " (k UInt32, s Int8, v Float64)";
        String engine = " ENGINE = VersionedCollapsingMergeTree(s, v) ";
        String table = "keys_" + (++tables);
        ch.execute("CREATE TABLE " + table + columns + engine + keys);
        assertThat(
                        ch.query(
                                "SELECT sorting_key, primary_key FROM system.tables WHERE name = '"
                                        + table
                                        + "'",
                                "TSV"))
                .isEqualTo(sorting + "\t" + (primary.equals("''") ? "" : primary) + "\n");
        TableSchema s = TableSchema.parse("CREATE TABLE t" + columns + engine + keys);
        assertThat(keyList(s.storageSortingKey())).isEqualTo(sorting);
        assertThat(keyList(s.primaryKey())).isEqualTo(primary.equals("''") ? "" : primary);
        assertThat(TableSchema.parse(s.toCreateTableSql())).isEqualTo(s);
        TableLayout layout = TableLayouts.fromDdl("CREATE TABLE t" + columns + engine + keys);
        assertThat(keyList(layout.sortingKey())).isEqualTo(sorting);
    }

    /**
     * ClickHouse's {@code canBeUsedAsVersion} takes every number type (floats and Bool too) for
     * both engines with a version column.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Float32", "Float64", "Bool", "Int128", "Date32"})
    void numberAndDateVersionsAreAcceptedAsInClickHouse(String type) {
        for (String engine :
                new String[] {"ReplacingMergeTree(v)", "VersionedCollapsingMergeTree(s, v)"}) {
            String tail = " (k UInt32, s Int8, v " + type + ") ENGINE = " + engine + " ORDER BY k";
            ch.execute("CREATE TABLE version_" + (++tables) + tail);
            assertThat(TableSchema.parse("CREATE TABLE t" + tail).engine().versionColumn())
                    .contains("v");
        }
    }

    /** The key as system.tables prints it: its elements' SQL, comma-separated. */
    private static String keyList(io.github.s3mergetree.engine.expr.KeyExpression key) {
        String sql = key.toSql();
        if (sql.equals("tuple()")) {
            return "";
        }
        return sql.startsWith("(") && key.size() > 1 ? sql.substring(1, sql.length() - 1) : sql;
    }
}
