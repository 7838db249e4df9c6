package io.github.s3mergetree.engine.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.compress.CompressedBlockReader;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Projections written into every part, differentially against ClickHouse 26.7 (chDB): the same rows
 * inserted by our table and by chDB's give the same {@code <name>.proj} sub-parts (file names,
 * {@code count.txt}, {@code columns.txt}, decompressed column data, marks, primary index) and the
 * same entry for them in the parent's {@code checksums.txt}; our parts attach, pass CHECK TABLE,
 * and queries that ClickHouse must answer from the projection ({@code
 * force_optimize_projection_name}) give chDB's answers; merged parts (horizontal and vertical)
 * carry the projections rebuilt from the merged rows, equal to chDB's OPTIMIZE FINAL.
 */
class ProjectionPartsChDbTest {
    @ChDbSession static ChDb ch;
    @TempDir Path tmp;

    private static final String STRUCTURE = "id UInt64, k UInt32, s String, x UInt64, d Date";
    private static final String GENERATOR =
            "SELECT number * 7 + SEED, number % 13, concat('s', toString((number * 31) % 97)),"
                    + " number * number % 1000, toDate('2024-01-01') + number % 40"
                    + " FROM numbers(ROWS)";

    @Test
    void normalAndAggregatingProjectionsAreWrittenAsClickHouseWritesThemAndUsed() throws Exception {
        run(
                "pn",
                ", PROJECTION by_s (SELECT id, s, x ORDER BY s, id),"
                        + " PROJECTION by_day (SELECT * ORDER BY toYYYYMM(d), id),"
                        + " PROJECTION agg (SELECT k, count(), sum(x), min(d), max(id) GROUP BY k)",
                List.of("by_s", "by_day", "agg"),
                List.of(
                        "SELECT count(), sum(x) FROM TABLE WHERE s = 's17' SETTINGS"
                                + " force_optimize_projection_name = 'by_s'",
                        "SELECT id, x FROM TABLE WHERE s IN ('s3', 's44') ORDER BY id SETTINGS"
                                + " force_optimize_projection_name = 'by_s'",
                        "SELECT count() FROM TABLE WHERE toYYYYMM(d) = 202402 SETTINGS"
                                + " force_optimize_projection_name = 'by_day'",
                        "SELECT k, count(), sum(x), min(d), max(id) FROM TABLE GROUP BY k ORDER BY"
                                + " k SETTINGS force_optimize_projection_name = 'agg'"));
    }

    @Test
    void projectionsOfAPartitionedReplacingTableWithFixedGranulesAreRebuiltByMerges()
            throws Exception {
        run(
                "pr",
                ", PROJECTION by_x (SELECT k, x, id ORDER BY x, id),"
                        + " PROJECTION agg (SELECT k, count(), sum(x), max(x) GROUP BY k)",
                " ENGINE = ReplacingMergeTree PARTITION BY intDiv(id, 100000) ORDER BY (k, id)"
                        + " SETTINGS index_granularity = 100, index_granularity_bytes = 0,"
                        + " min_bytes_for_wide_part = 0, deduplicate_merge_projection_mode ="
                        + " 'rebuild'",
                List.of("by_x", "agg"),
                List.of(
                        "SELECT count(), sum(k) FROM TABLE WHERE x < 100 SETTINGS"
                                + " force_optimize_projection_name = 'by_x'",
                        "SELECT k, count(), sum(x) FROM TABLE GROUP BY k ORDER BY k SETTINGS"
                                + " force_optimize_projection_name = 'agg'"));
    }

    private void run(String name, String projections, List<String> names, List<String> queries)
            throws Exception {
        run(
                name,
                projections,
                " ENGINE = MergeTree ORDER BY (k, id) SETTINGS index_granularity = 128,"
                        + " min_bytes_for_wide_part = 0",
                names,
                queries);
    }

    private void run(
            String name, String projections, String tail, List<String> names, List<String> queries)
            throws Exception {
        String columns = " (" + STRUCTURE + projections + ")";
        TableLayout layout = TableLayouts.fromDdl("CREATE TABLE " + name + columns + tail);
        ch.execute(
                "CREATE TABLE ref_"
                        + name
                        + columns
                        + tail
                        + ", compress_marks = 0, compress_primary_key = 0,"
                        + " ratio_of_defaults_for_sparse_serialization = 1,"
                        + " string_serialization_version = 'single_stream'");
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
        }
        List<Path> theirs = partPaths("ref_" + name);
        assertThat(ours).hasSize(3);
        assertThat(theirs).hasSize(3);
        for (int i = 0; i < 3; i++) {
            assertSameProjections(ours.get(i), theirs.get(i), names);
            ch.attachPart("ours_" + name, ours.get(i));
        }
        ch.assertCheckTablePasses("ours_" + name);
        assertSameAnswers("ours_" + name, "ref_" + name, queries);

        PartWriter writer = new PartWriter(layout.partFormat());
        List<PartReader> sources = new ArrayList<>();
        for (Path p : ours) {
            sources.add(LocalParts.open(p));
        }
        ch.execute("OPTIMIZE TABLE ref_" + name + " FINAL");
        List<Path> merged = partPaths("ref_" + name);
        assertThat(merged).hasSize(1);
        if (tail.contains("PARTITION BY")) {
            // the table's own merge names and partitions the merged part
            table.optimizeFinal(false);
            assertThat(table.activeParts()).hasSize(1);
            Path out = LocalParts.root(table).resolve(table.activeParts().get(0).name().toString());
            LocalParts.open(out).verify();
            assertSameProjections(out, merged.get(0), names);
            ch.attachPart("merged_" + name, out);
            ch.assertCheckTablePasses("merged_" + name);
            assertSameAnswers("merged_" + name, "ref_" + name, queries);
            return;
        }
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
            assertSameProjections(out, merged.get(0), names);
            String target = (vertical ? "vmerged_" : "merged_") + name;
            ch.attachPart(target, out);
            ch.assertCheckTablePasses(target);
            assertSameAnswers(target, "ref_" + name, queries);
        }
    }

    private void assertSameAnswers(String ours, String reference, List<String> queries) {
        for (String q : queries) {
            String forced = q.replace("SETTINGS", "SETTINGS force_optimize_projection = 1,");
            assertThat(ch.query(forced.replace("TABLE", ours)))
                    .as(q)
                    .isEqualTo(ch.query(q.replace("TABLE", reference)))
                    .isNotEmpty();
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

    /**
     * Each projection's files: the same names (ClickHouse's extra {@code serialization.json} and
     * {@code columns_substreams.txt} aside), count.txt and columns.txt equal, data decompressed
     * equal, marks and primary index equal; the parent lists the projection with the same size and
     * total checksum whenever every listed file is byte-identical.
     */
    private void assertSameProjections(Path ours, Path theirs, List<String> names)
            throws IOException {
        Checksums ourParent =
                Checksums.parse(Files.readAllBytes(ours.resolve("checksums.txt")), "o");
        Checksums theirParent =
                Checksums.parse(Files.readAllBytes(theirs.resolve("checksums.txt")), "t");
        for (String p : names) {
            Path a = ours.resolve(p + ".proj");
            Path b = theirs.resolve(p + ".proj");
            List<String> files = files(b);
            assertThat(files).contains("count.txt", "columns.txt", "primary.idx");
            assertThat(files(a)).as(a.toString()).isEqualTo(files);
            for (String f : files) {
                byte[] x = Files.readAllBytes(a.resolve(f));
                byte[] y = Files.readAllBytes(b.resolve(f));
                if (f.endsWith(".bin")) {
                    x = CompressedBlockReader.decompressAll(x, f);
                    y = CompressedBlockReader.decompressAll(y, f);
                }
                if (f.equals("checksums.txt") || f.endsWith(".mrk2")) {
                    continue; // compressed sizes differ by compressor: compared through the data
                }
                assertThat(x)
                        .as(a.resolve(f) + (f.endsWith(".bin") ? " decompressed" : ""))
                        .isEqualTo(y);
            }
            Checksums ourOwn = Checksums.parse(Files.readAllBytes(a.resolve("checksums.txt")), "o");
            assertThat(ourParent.entries().get(p + ".proj"))
                    .isEqualTo(ProjectionPartWriter.entry(ourOwn));
            Checksums theirOwn =
                    Checksums.parse(Files.readAllBytes(b.resolve("checksums.txt")), "t");
            // ClickHouse's parent entry is what our rule computes from ClickHouse's own listing
            assertThat(theirParent.entries().get(p + ".proj"))
                    .isEqualTo(ProjectionPartWriter.entry(theirOwn));
        }
        assertThat(projectionEntries(ourParent)).isEqualTo(projectionEntries(theirParent));
    }

    private static List<String> projectionEntries(Checksums c) {
        return c.entries().keySet().stream().filter(ProjectionParts::isProjection).toList();
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(f -> f.getFileName().toString())
                    .filter(f -> !f.equals("serialization.json"))
                    .filter(f -> !f.equals("columns_substreams.txt"))
                    .sorted()
                    .toList();
        }
    }
}
