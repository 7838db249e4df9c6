package io.github.s3mergetree.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of the data-skipping indexes against ClickHouse 26.x (chDB): the same rows
 * inserted into our table and into chDB's own give the same {@code skp_idx_*} files (decompressed
 * content and marks), our parts attach and pass CHECK TABLE with chDB's rows, {@code EXPLAIN
 * indexes = 1} drops the same granules on both, and merges (ours horizontal and vertical, chDB's
 * OPTIMIZE FINAL) give the same index files.
 */
class SkipIndexChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final String STRUCTURE =
            "id UInt32, s String, lc LowCardinality(String), n Nullable(Int64), f Float64, d Date,"
                    + " a Array(String), ln LowCardinality(Nullable(String)), f32 Float32";

    static final String INDEXES =
            ", INDEX mm_id id TYPE minmax"
                    + ", INDEX mm_multi (s, n, f, d) TYPE minmax GRANULARITY 3"
                    + ", INDEX mm_lc lc TYPE minmax GRANULARITY 2"
                    + ", INDEX mm_lower lower(s) TYPE minmax"
                    + ", INDEX mm_a a TYPE minmax GRANULARITY 4"
                    + ", INDEX mm_ln (ln, f32) TYPE minmax"
                    + ", INDEX st_s s TYPE set(0)"
                    + ", INDEX st_nd (n, d) TYPE set(20) GRANULARITY 2"
                    + ", INDEX st_lc lc TYPE set(10)"
                    + ", INDEX st_a a TYPE set(150) GRANULARITY 3"
                    + ", INDEX st_f (f, f32, ln) TYPE set(1000) GRANULARITY 5";

    /**
     * Rows with ids {@code 3 * number + SEED}: whole granules (100 rows) of NULLs in n and of NaNs
     * in f, mixed-case strings, arrays of 0-3 strings.
     */
    static final String GENERATOR =
            "SELECT toUInt32(number * 3 + SEED), concat(if(number % 3 = 0, 'K', 'k'),"
                    + " toString(cityHash64(number, SEED) % 41)), concat('lc', toString(number %"
                    + " 7)), if(intDiv(number, 100) % 5 = 0 OR number % 11 = 0, NULL,"
                    + " toInt64(cityHash64(number) % 1000) - 500), if(intDiv(number, 100) % 7 ="
                    + " 3 OR number % 13 = 0, nan, (number % 97) / 7 - 3), toDate('2024-01-01') +"
                    + " intDiv(number, 37), arrayMap(i -> concat('a', toString((number + i) %"
                    + " 29)), range(number % 4)), if(number % 5 = 0, NULL, concat('n',"
                    + " toString(number % 17))), if(intDiv(number, 100) % 4 = 1, nan, toFloat32(number"
                    + " % 23) / 3) FROM numbers(ROWS)";

    @ParameterizedTest(name = "index_granularity_bytes = {0}")
    @ValueSource(longs = {10485760, 0})
    void indexFilesAreClickHousesOwnOnInsertAndMerge(long granularityBytes) throws Exception {
        String name = "t" + granularityBytes;
        String tail =
                " ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = 100,"
                        + " index_granularity_bytes = "
                        + granularityBytes;
        String ddl = "CREATE TABLE " + name + " (" + STRUCTURE + INDEXES + ")" + tail;
        TableLayout layout = TableLayouts.fromDdl(ddl);
        ch.execute(
                "CREATE TABLE ref_"
                        + name
                        + " ("
                        + STRUCTURE
                        + INDEXES
                        + ")"
                        + tail
                        + ", min_bytes_for_wide_part = 0, compress_marks = 0,"
                        + " compress_primary_key = 0, ratio_of_defaults_for_sparse_serialization ="
                        + " 1");
        for (String t : List.of("ours_", "merged_", "vmerged_")) {
            ch.execute("CREATE TABLE " + t + name + " (" + STRUCTURE + INDEXES + ")" + tail);
        }
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve(name)), layout, Clock.systemUTC());
        for (int seed = 0; seed < 3; seed++) {
            Path data = tmp.resolve(name + "_" + seed + ".bin");
            ch.execute(
                    "INSERT INTO FUNCTION file('"
                            + data
                            + "', RowBinary, '"
                            + STRUCTURE
                            + "') "
                            + GENERATOR
                                    .replace("SEED", Integer.toString(seed))
                                    .replace("ROWS", Integer.toString(1500 + 700 * seed)));
            ch.execute(
                    "INSERT INTO ref_"
                            + name
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + STRUCTURE
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
            LocalParts.open(dir).verify();
            ch.attachPart("ours_" + name, dir);
        }
        List<Path> theirs = partPaths("ref_" + name);
        assertThat(ours).hasSize(3);
        assertThat(theirs).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertSameIndexFiles(ours.get(i), theirs.get(i));
        }
        ch.assertCheckTablePasses("ours_" + name);
        assertSameRows("ours_" + name, "ref_" + name);
        assertSameGranulesDropped("ours_" + name, "ref_" + name);

        // merges of our parts, horizontal and vertical, against chDB's OPTIMIZE FINAL
        PartWriter writer = new PartWriter(layout.partFormat());
        List<PartReader> sources = new ArrayList<>();
        for (Path p : ours) {
            sources.add(LocalParts.open(p));
        }
        ch.execute("OPTIMIZE TABLE ref_" + name + " FINAL");
        List<Path> merged = partPaths("ref_" + name);
        assertThat(merged).hasSize(1);
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
            LocalParts.open(out).verify();
            assertSameIndexFiles(out, merged.get(0));
            String target = (vertical ? "vmerged_" : "merged_") + name;
            ch.attachPart(target, out);
            ch.assertCheckTablePasses(target);
            assertSameRows(target, "ref_" + name);
            assertSameGranulesDropped(target, "ref_" + name);
        }
    }

    private List<Path> partPaths(String table) {
        List<Path> out = new ArrayList<>();
        for (String[] row :
                ch.rows(
                        "SELECT path FROM system.parts WHERE table = '"
                                + table
                                + "' AND active ORDER BY min_block_number")) {
            out.add(Path.of(row[0]));
        }
        return out;
    }

    private void assertSameRows(String a, String b) {
        assertThat(ch.queryLong("SELECT count() FROM " + a))
                .isEqualTo(ch.queryLong("SELECT count() FROM " + b));
        assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + a))
                .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM " + b));
    }

    /** Queries whose plans use the indexes: the Skip sections' "Granules: a/b" lines. */
    static final List<String> FILTERS =
            List.of(
                    "id BETWEEN 600 AND 700",
                    "d = toDate('2024-01-20')",
                    "s = 'K7'",
                    "lower(s) = 'k40'",
                    "lc = 'lc3'",
                    "n = 17",
                    "n IS NULL",
                    "f > 9",
                    "has(a, 'a3')",
                    "ln = 'n4'",
                    "f32 < 0.5",
                    "s IN ('k1', 'K2')",
                    "n = 1 AND d = toDate('2024-02-01')");

    private void assertSameGranulesDropped(String ours, String reference) {
        int skipIndexesDropping = 0;
        for (String filter : FILTERS) {
            String q = "EXPLAIN indexes = 1 SELECT count() FROM %s WHERE " + filter;
            List<String> a = granules(ch.query(String.format(q, ours)));
            List<String> b = granules(ch.query(String.format(q, reference)));
            assertThat(a).as(filter).isEqualTo(b);
            skipIndexesDropping += skipIndexesDropping(a);
            assertThat(ch.query("SELECT count() FROM " + ours + " WHERE " + filter))
                    .as(filter)
                    .isEqualTo(ch.query("SELECT count() FROM " + reference + " WHERE " + filter));
        }
        // the comparison means something: the skip indexes do drop granules
        assertThat(skipIndexesDropping).isGreaterThan(5);
    }

    /** How many skip indexes ({@code mm_*}, {@code st_*}) of a plan drop granules. */
    private static int skipIndexesDropping(List<String> plan) {
        int n = 0;
        String name = "";
        for (String line : plan) {
            if (line.startsWith("Name: ")) {
                name = line.substring(6);
            } else if (name.startsWith("mm_") || name.startsWith("st_")) {
                String[] ab = line.substring("Granules: ".length()).split("/");
                if (Integer.parseInt(ab[0]) < Integer.parseInt(ab[1])) {
                    n++;
                }
            }
        }
        return n;
    }

    private static final Pattern GRANULES = Pattern.compile("(Name: \\S+|Granules: \\d+/\\d+)");

    private static List<String> granules(String explain) {
        List<String> out = new ArrayList<>();
        Matcher m = GRANULES.matcher(explain);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /**
     * Every skp_idx_* file of {@code theirs} is in {@code ours}; data decompressed and marks equal.
     */
    private static void assertSameIndexFiles(Path ours, Path theirs) throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(theirs)) {
            names =
                    files.map(f -> f.getFileName().toString())
                            .filter(f -> f.startsWith("skp_idx_"))
                            .sorted()
                            .toList();
        }
        try (Stream<Path> files = Files.list(ours)) {
            assertThat(
                            files.map(f -> f.getFileName().toString())
                                    .filter(f -> f.startsWith("skp_idx_"))
                                    .sorted()
                                    .toList())
                    .isEqualTo(names);
        }
        assertThat(names).hasSize(22);
        for (String f : names) {
            byte[] a = Files.readAllBytes(ours.resolve(f));
            byte[] b = Files.readAllBytes(theirs.resolve(f));
            if (f.endsWith(".idx") || f.endsWith(".idx2")) {
                byte[] x = CompressedBlockReader.decompressAll(a, f);
                byte[] y = CompressedBlockReader.decompressAll(b, f);
                assertThat(firstDifference(x, y))
                        .as(ours.resolve(f) + " decompressed: first difference (-1: none)")
                        .isEqualTo(-1);
            } else {
                assertThat(marks(a)).as(ours.resolve(f).toString()).isEqualTo(marks(b));
            }
        }
    }

    /** The first offset where the two differ, -1 if equal; the bytes around it to stderr. */
    private static int firstDifference(byte[] a, byte[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            if (i >= a.length || i >= b.length || a[i] != b[i]) {
                int from = Math.max(0, i - 16);
                System.err.println(
                        "ours   "
                                + java.util.Arrays.toString(
                                        java.util.Arrays.copyOfRange(
                                                a, from, Math.min(a.length, i + 48)))
                                + "\ntheirs "
                                + java.util.Arrays.toString(
                                        java.util.Arrays.copyOfRange(
                                                b, from, Math.min(b.length, i + 48))));
                return i;
            }
        }
        return -1;
    }

    private static List<Long> marks(byte[] file) {
        ByteBuffer buf = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> out = new ArrayList<>();
        while (buf.remaining() >= 8) {
            out.add(buf.getLong());
        }
        return out;
    }
}
