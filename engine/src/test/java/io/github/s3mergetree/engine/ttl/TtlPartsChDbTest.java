package io.github.s3mergetree.engine.ttl;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Parts of tables with TTL, judged by chDB: the parts we write from the same rows as chDB's own
 * inserts carry a {@code ttl.txt} byte for byte equal to chDB's (table TTL, TTL with {@code WHERE},
 * column TTLs; Date, Date32, DateTime, DateTime(zone) and DateTime64 expressions; rows in the past,
 * in the future, at the epoch, before it and at the end of the DateTime range), listed in {@code
 * checksums.txt}; chDB attaches them and CHECK TABLE passes. TTL {@code WHERE} conditions use the
 * comparison and logical operators ({@code = != < >= IN BETWEEN IS NULL AND OR NOT}); merges remove
 * the same rows as chDB's.
 */
class TtlPartsChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "ts DateTime, d Date, d32 Date32, tz DateTime('Asia/Tokyo'), t64 DateTime64(3),"
                    + " v UInt32, n Nullable(Int32) TTL ts + INTERVAL 1 DAY,"
                    + " s String DEFAULT 'gone' TTL toDate(ts) + toIntervalDay(7)";

    /** Columns without their TTL, for the generator's Memory table and file(). */
    static final String PLAIN_STRUCTURE =
            "ts DateTime, d Date, d32 Date32, tz DateTime('Asia/Tokyo'), t64 DateTime64(3),"
                    + " v UInt32, n Nullable(Int32), s String";

    /**
     * Seconds: the epoch, just after it, 2020, 2035, the last DateTime, and around the time the
     * test runs; Date32 and DateTime64 also before the epoch.
     */
    static final String GENERATOR =
            "SELECT toDateTime(t) AS ts, toDate(t) AS d, toDate32(t - 2000000000 * (number % 5 = 4)),"
                    + " toDateTime(t, 'Asia/Tokyo'), toDateTime64(t - 1500000000 * (number % 7 = 3),"
                    + " 3) + toIntervalMillisecond(number % 1000), toUInt32(number * SEED),"
                    + " if(number % 4 = 0, NULL, toInt32(number) - 50), toString(number)"
                    + " FROM (SELECT number, multiIf(number % 8 = 0, 0, number % 8 = 1, number,"
                    + " number % 8 = 2, 1577836800 + number * 3600, number % 8 = 3, 2051222400 +"
                    + " number, number % 8 = 4, 4294967295 - number, NOW - 86400 * (number % 60))"
                    + " AS t FROM numbers(ROWS))";

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "rows|ORDER BY v TTL ts + INTERVAL 30 DAY",
                "where|ORDER BY v TTL toDate(ts) + toIntervalDay(7), tz + INTERVAL 1 DAY"
                        + " WHERE v % 3, d + INTERVAL 1 YEAR DELETE WHERE n",
                "wherecompare|ORDER BY v TTL ts + INTERVAL 1 DAY WHERE v % 3 = 1 AND n IS NOT"
                        + " NULL, d + INTERVAL 1 YEAR WHERE s IN ('1', '2', '30', '301') OR v"
                        + " BETWEEN 100 AND 300, toDate(ts) + toIntervalDay(7) WHERE NOT (n > 0)"
                        + " AND d >= '2020-01-01' OR tz < ts",
                "wherenull|ORDER BY v TTL toDateTime(t64) + INTERVAL 1 HOUR WHERE n IS NULL OR n != -3,"
                        + " tz + INTERVAL 1 DAY WHERE v NOT IN (2, 4, 6) AND (n < 0 OR n IS NULL)",
                "month|ORDER BY v TTL toStartOfDay(tz) + INTERVAL 1 MONTH",
                "date32|ORDER BY v TTL d32",
                "datetime64|ORDER BY v TTL t64",
                "columns|ORDER BY v",
                "partitioned|PARTITION BY toYYYYMM(d) ORDER BY (v, ts) TTL ts + INTERVAL 1 HOUR",
            })
    void insertedPartsCarryClickHousesTtlTxt(String name, String tail) throws Exception {
        MergeTreeTable table = insertBoth("i_" + name, tail, fixedClock(0));
        assertSameParts("i_" + name, table);
    }

    /**
     * {@code OPTIMIZE TABLE … FINAL} on chDB's copy and {@link MergeTreeTable#optimizeFinal} on
     * ours, at the same time: the same rows remain (expired rows removed, expired column values
     * reset to their defaults), the merged parts' {@code ttl.txt} are equal, chDB attaches ours.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "rows|ORDER BY v TTL ts + INTERVAL 30 DAY",
                "where|ORDER BY v TTL toDate(ts) + toIntervalDay(7), tz + INTERVAL 1 DAY"
                        + " WHERE v % 3, d + INTERVAL 1 YEAR DELETE WHERE n",
                "wherecompare|ORDER BY v TTL ts + INTERVAL 1 DAY WHERE v % 3 = 1 AND n IS NOT"
                        + " NULL, d + INTERVAL 1 YEAR WHERE s IN ('1', '2', '30', '301') OR v"
                        + " BETWEEN 100 AND 300, toDate(ts) + toIntervalDay(7) WHERE NOT (n > 0)"
                        + " AND d >= '2020-01-01' OR tz < ts",
                "wherenull|ORDER BY v TTL toDateTime(t64) + INTERVAL 1 HOUR WHERE n IS NULL OR n != -3,"
                        + " tz + INTERVAL 1 DAY WHERE v NOT IN (2, 4, 6) AND (n < 0 OR n IS NULL)",
                "month|ORDER BY v TTL toStartOfDay(tz) + INTERVAL 1 MONTH",
                "date32|ORDER BY v TTL d32",
                "datetime64|ORDER BY v TTL t64",
                "columns|ORDER BY v",
                "partitioned|PARTITION BY toYYYYMM(d) ORDER BY (v, ts) TTL ts + INTERVAL 1 HOUR",
            })
    void mergesApplyTtlAsClickHousesOptimizeFinal(String name, String tail) throws Exception {
        String t = "m_" + name;
        long[] now = {0};
        Clock clock =
                new Clock() {
                    @Override
                    public ZoneOffset getZone() {
                        return ZoneOffset.UTC;
                    }

                    @Override
                    public Clock withZone(java.time.ZoneId zone) {
                        return this;
                    }

                    @Override
                    public Instant instant() {
                        return Instant.ofEpochSecond(now[0]);
                    }
                };
        MergeTreeTable table = insertBoth(t, tail, clock);
        String rows = "SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM ";
        String inserted = ch.query(rows + "ref_" + t);
        // the time of both merges: chDB's clock, read just before its merge
        now[0] = ch.queryLong("SELECT toUnixTimestamp(now())");
        ch.execute("SYSTEM START MERGES ref_" + t);
        ch.execute("OPTIMIZE TABLE ref_" + t + " FINAL");
        table.optimizeFinal(true);
        assertThat(ch.queryLong("SELECT toUnixTimestamp(now())") - now[0])
                .as("both merges ran within the same second range")
                .isLessThan(3600);
        assertSameParts(t, table);
        assertThat(ch.query(rows + "ours_" + t))
                .isEqualTo(ch.query(rows + "ref_" + t))
                .as("TTL changed the rows")
                .isNotEqualTo(inserted);
        assertThat(ch.queryLong("SELECT count() FROM ref_" + t)).as("rows remain").isPositive();
    }

    private static Clock fixedClock(long seconds) {
        return Clock.fixed(Instant.ofEpochSecond(seconds), ZoneOffset.UTC);
    }

    /** Creates ref_ (chDB's) and ours_ tables, inserts the same three blocks into both. */
    private MergeTreeTable insertBoth(String name, String tail, Clock clock) throws Exception {
        String ddlTail = " ENGINE = MergeTree " + tail;
        String ref = "ref_" + name;
        String ours = "ours_" + name;
        for (String t : List.of(ref, ours)) {
            ch.execute(
                    "CREATE TABLE "
                            + t
                            + " ("
                            + STRUCTURE
                            + ")"
                            + ddlTail
                            + (t.equals(ref) ? " SETTINGS min_bytes_for_wide_part = 0" : ""));
            // chDB merges parts whose TTL expired in the background: keep the inserted parts
            ch.execute("SYSTEM STOP MERGES " + t);
        }
        TableLayout layout =
                TableLayouts.fromDdl("CREATE TABLE " + ours + " (" + STRUCTURE + ")" + ddlTail);
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve(name)), layout, clock);
        ch.execute("CREATE TABLE gen_" + name + " (" + PLAIN_STRUCTURE + ") ENGINE = Memory");
        long now = ch.queryLong("SELECT toUnixTimestamp(now())");
        for (int seed = 1; seed <= 3; seed++) {
            Path data = tmp.resolve(name + seed + ".bin");
            ch.execute("TRUNCATE TABLE gen_" + name);
            ch.execute(
                    "INSERT INTO gen_"
                            + name
                            + " "
                            + GENERATOR
                                    .replace("SEED", Integer.toString(seed))
                                    .replace("NOW", Long.toString(now))
                                    .replace("ROWS", Integer.toString(200 * seed)));
            ch.execute(
                    "SELECT * FROM gen_" + name + " INTO OUTFILE '" + data + "' FORMAT RowBinary");
            ch.execute(
                    "INSERT INTO "
                            + ref
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + PLAIN_STRUCTURE.replace("'", "\\'")
                            + "')");
            table.insert(
                    RowBinary.read(
                            Files.readAllBytes(data),
                            layout.columnNames(),
                            layout.columnTypes(),
                            data.toString()));
        }
        return table;
    }

    /**
     * The active parts of ref_ and ours_ have the same names and ttl.txt; ours are attached to
     * ours_ and pass CHECK TABLE.
     */
    private void assertSameParts(String name, MergeTreeTable table) throws Exception {
        String ref = "ref_" + name;
        String ours = "ours_" + name;
        Map<String, String> theirs = new TreeMap<>();
        for (String[] row :
                ch.rows(
                        "SELECT name, path, rows FROM system.parts WHERE database = currentDatabase()"
                                + " AND table = '"
                                + ref
                                + "' AND active")) {
            Path ttl = Path.of(row[1]).resolve("ttl.txt");
            theirs.put(
                    row[0].replaceAll("_\\d+$", ""),
                    row[2].equals("0")
                            ? "(empty part)"
                            : Files.exists(ttl)
                                    ? Files.readString(ttl, StandardCharsets.UTF_8)
                                    : "(none)");
        }
        Map<String, String> ourTtl = new TreeMap<>();
        List<Path> dirs = new ArrayList<>();
        for (ActivePart p : table.activeParts()) {
            Path dir = LocalParts.root(table).resolve(p.name().toString());
            dirs.add(dir);
            Path ttl = dir.resolve("ttl.txt");
            // an empty part's ttl.txt may differ from ClickHouse's (which column sections it
            // keeps); it has no rows to expire
            ourTtl.put(
                    p.name().toString().replaceAll("_\\d+$", ""),
                    p.rows() == 0
                            ? "(empty part)"
                            : Files.exists(ttl)
                                    ? Files.readString(ttl, StandardCharsets.UTF_8)
                                    : "(none)");
            if (Files.exists(ttl)) {
                assertThat(LocalParts.open(dir).checksums().entries()).containsKey("ttl.txt");
            }
        }
        assertThat(ourTtl).isEqualTo(theirs);
        assertThat(ourTtl.keySet()).isEqualTo(theirs.keySet());
        assertThat(ourTtl.values()).anyMatch(v -> v.startsWith("ttl format version: 1\n{\""));
        for (Path dir : dirs) {
            ch.attachPart(ours, dir);
        }
        ch.assertCheckTablePasses(ours);
    }
}
