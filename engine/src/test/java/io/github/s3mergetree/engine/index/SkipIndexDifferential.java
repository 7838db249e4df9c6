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
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A differential run of skip indexes against chDB: the same rows (three inserts) written by our
 * table and by chDB's give the same {@code skp_idx_*} files (decompressed data, marks); our parts
 * attach, pass CHECK TABLE, read back chDB's rows and make {@code EXPLAIN indexes = 1} drop the
 * same granules for every filter; our merges (horizontal and vertical) equal chDB's OPTIMIZE FINAL.
 *
 * @param ch the chDB session
 * @param tmp a scratch directory
 * @param name the table name (unique in the session)
 * @param structure the columns, {@code name type, ...}
 * @param indexes the INDEX clauses, each starting with {@code ", INDEX"}
 * @param generator a SELECT of the rows, with {@code SEED} and {@code ROWS} placeholders
 * @param settings extra MergeTree settings, starting with a comma (may be empty)
 * @param filters WHERE conditions the indexes serve
 * @param exactMarks whether marks must be equal byte for byte; else compressed offsets are compared
 *     as block ordinals (streams over 64 KiB: lz4-java and ClickHouse's LZ4 may compress a block to
 *     a few bytes more or less)
 */
record SkipIndexDifferential(
        ChDb ch,
        Path tmp,
        String name,
        String structure,
        String indexes,
        String generator,
        String settings,
        List<String> filters,
        boolean exactMarks) {

    /**
     * Runs the comparison; returns how many (filter, skip index) pairs dropped granules, the least
     * over our inserted parts and each of our merged parts.
     */
    int run() throws Exception {
        String tail = " ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = 100" + settings;
        String columns = " (" + structure + indexes + ")";
        String ddl = "CREATE TABLE " + name + columns + tail;
        TableLayout layout = TableLayouts.fromDdl(ddl);
        ch.execute(
                "CREATE TABLE ref_"
                        + name
                        + columns
                        + tail
                        + ", min_bytes_for_wide_part = 0, compress_marks = 0,"
                        + " compress_primary_key = 0, ratio_of_defaults_for_sparse_serialization ="
                        + " 1");
        for (String t : List.of("ours_", "merged_", "vmerged_")) {
            ch.execute("CREATE TABLE " + t + name + columns + tail);
        }
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(tmp.resolve(name)), layout, Clock.systemUTC());
        for (int seed = 0; seed < 3; seed++) {
            Path data = tmp.resolve(name + "_" + seed + ".bin");
            ch.execute(
                    "INSERT INTO FUNCTION file('"
                            + data
                            + "', RowBinary, '"
                            + structure.replace("'", "\\'")
                            + "') "
                            + generator
                                    .replace("SEED", Integer.toString(seed))
                                    .replace("ROWS", Integer.toString(1500 + 700 * seed)));
            ch.execute(
                    "INSERT INTO ref_"
                            + name
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + structure.replace("'", "\\'")
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
        int dropping = assertSameGranulesDropped("ours_" + name, "ref_" + name);

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
            dropping = Math.min(dropping, assertSameGranulesDropped(target, "ref_" + name));
        }
        return dropping;
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

    /** Equal "Granules: a/b" lines and counts; returns the number of skip indexes dropping. */
    private int assertSameGranulesDropped(String ours, String reference) {
        int dropping = 0;
        for (String filter : filters) {
            String q = "EXPLAIN indexes = 1 SELECT count() FROM ";
            List<String> a = granules(ch.query(q + ours + " WHERE " + filter));
            List<String> b = granules(ch.query(q + reference + " WHERE " + filter));
            assertThat(a).as(filter).isEqualTo(b);
            dropping += skipIndexesDropping(a);
            assertThat(ch.query("SELECT count() FROM " + ours + " WHERE " + filter))
                    .as(filter)
                    .isEqualTo(ch.query("SELECT count() FROM " + reference + " WHERE " + filter));
        }
        return dropping;
    }

    /** How many skip indexes (names containing {@code _}) of a plan drop granules. */
    private static int skipIndexesDropping(List<String> plan) {
        int n = 0;
        String name = "";
        for (String line : plan) {
            if (line.startsWith("Name: ")) {
                name = line.substring(6);
            } else if (name.contains("_")) {
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

    /** The skp_idx_* files of both parts are the same names; data decompressed and marks equal. */
    private void assertSameIndexFiles(Path ours, Path theirs) throws IOException {
        List<String> names = skipIndexFiles(theirs);
        assertThat(skipIndexFiles(ours)).isEqualTo(names);
        assertThat(names).hasSize(2 * (indexes.split("INDEX ").length - 1));
        for (String f : names) {
            byte[] a = Files.readAllBytes(ours.resolve(f));
            byte[] b = Files.readAllBytes(theirs.resolve(f));
            if (f.endsWith(".idx") || f.endsWith(".idx2")) {
                byte[] x = CompressedBlockReader.decompressAll(a, f);
                byte[] y = CompressedBlockReader.decompressAll(b, f);
                assertThat(firstDifference(x, y))
                        .as(ours.resolve(f) + " decompressed: first difference (-1: none)")
                        .isEqualTo(-1);
            } else if (exactMarks) {
                assertThat(marks(a)).as(ours.resolve(f).toString()).isEqualTo(marks(b));
            } else {
                String data = f.substring(0, f.lastIndexOf('.')) + dataExtension(names, f);
                int stride = f.endsWith(".mrk2") ? 3 : 2;
                assertThat(blockMarks(marks(a), Files.readAllBytes(ours.resolve(data)), stride))
                        .as(ours.resolve(f).toString())
                        .isEqualTo(
                                blockMarks(
                                        marks(b),
                                        Files.readAllBytes(theirs.resolve(data)),
                                        stride));
            }
        }
    }

    private static List<String> skipIndexFiles(Path part) throws IOException {
        try (Stream<Path> files = Files.list(part)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(f -> f.startsWith("skp_idx_"))
                    .sorted()
                    .toList();
        }
    }

    /** The first offset where the two differ, -1 if equal; the bytes around it to stderr. */
    private static int firstDifference(byte[] a, byte[] b) {
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            if (i >= a.length || i >= b.length || a[i] != b[i]) {
                int from = Math.max(0, i - 16);
                System.err.println(
                        "ours   "
                                + Arrays.toString(
                                        Arrays.copyOfRange(a, from, Math.min(a.length, i + 48)))
                                + "\ntheirs "
                                + Arrays.toString(
                                        Arrays.copyOfRange(b, from, Math.min(b.length, i + 48))));
                return i;
            }
        }
        return -1;
    }

    private static String dataExtension(List<String> names, String marks) {
        String stem = marks.substring(0, marks.lastIndexOf('.'));
        return names.contains(stem + ".idx2") ? ".idx2" : ".idx";
    }

    /**
     * The marks with each compressed offset replaced by the ordinal of its compressed block in
     * {@code data}: the same blocks and in-block offsets, whatever the sizes LZ4 compressed them to
     * (lz4-java and ClickHouse's LZ4 may compress a large block to a few bytes more or less).
     */
    private static List<Long> blockMarks(List<Long> marks, byte[] data, int stride) {
        List<Long> starts = new ArrayList<>();
        ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        long at = 0;
        while (at < data.length) {
            starts.add(at);
            // 16-byte checksum, method byte, then the compressed size including the 9-byte header
            at += 16 + Integer.toUnsignedLong(buf.getInt((int) at + 17));
        }
        List<Long> out = new ArrayList<>(marks);
        for (int i = 0; i < out.size(); i += stride) {
            int ordinal = starts.indexOf(out.get(i));
            assertThat(ordinal).as("mark at a block start").isGreaterThanOrEqualTo(0);
            out.set(i, (long) ordinal);
        }
        return out;
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
