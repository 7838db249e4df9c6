package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Merge throughput beside ClickHouse's: the same 10 source parts (written by our engine from the
 * write benchmark's data sets) are merged by us ({@code optimizeFinal}) and, after {@code ATTACH
 * PART}, by chDB ({@code OPTIMIZE TABLE … FINAL}, background merges held off with {@code
 * max_parts_to_merge_at_once = 1}); MB/s of uncompressed data of the merged part, best of several
 * runs on each side. Usage: {@code tools/bench/merge-bench.sh}.
 */
public final class MergeBenchmarkMain {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        Path dir = root.resolve("engine/target/bench-data");
        int runs = Integer.getInteger("bench.runs", 5);
        List<String> lines = new ArrayList<>();
        lines.add(
                String.format(
                        Locale.ROOT,
                        "%-8s %6s %10s %10s %12s %12s %8s",
                        "dataset",
                        "parts",
                        "rows",
                        "MB",
                        "ours MB/s",
                        "chDB MB/s",
                        "ratio"));
        Path work = Files.createTempDirectory("merge-bench");
        try (ChDb ch = ChDb.start(work.resolve("chdb"))) {
            for (String dataset : List.of("numeric", "posts")) {
                String ddl = Files.readString(dir.resolve(dataset + ".sql"));
                TableLayout layout = TableLayouts.fromDdl(ddl);
                Block all =
                        RowBinary.read(
                                Files.readAllBytes(dir.resolve(dataset + ".rowbinary")),
                                layout.columnNames(),
                                layout.columnTypes(),
                                dataset);
                Path source = work.resolve(dataset + "-source");
                MergeTreeTable table =
                        MergeTreeTable.open(LocalParts.store(source), layout, Clock.systemUTC());
                int parts = 10;
                int per = (all.rows() + parts - 1) / parts;
                for (int i = 0; i < parts; i++) {
                    Block slice = all.newEmpty(per);
                    slice.appendRange(all, i * per, Math.min(all.rows(), (i + 1) * per));
                    table.insert(slice);
                }
                all = null;
                List<ActivePart> sources = table.activeParts();
                double best = 0;
                long mergedBytes = 0;
                long rows = 0;
                for (int r = 0; r < runs; r++) {
                    Path copy = work.resolve(dataset + "-run" + r);
                    Parts.copyRecursively(source, copy);
                    MergeTreeTable t =
                            MergeTreeTable.open(LocalParts.store(copy), layout, Clock.systemUTC());
                    long t0 = System.nanoTime();
                    List<PartName> merged = t.optimizeFinal(false);
                    double secs = (System.nanoTime() - t0) / 1e9;
                    mergedBytes = 0;
                    rows = 0;
                    for (ActivePart p : t.activeParts()) {
                        mergedBytes += p.dataUncompressedBytes();
                        rows += p.rows();
                    }
                    best = Math.max(best, mergedBytes / 1e6 / secs);
                    Parts.deleteRecursively(copy);
                    if (merged.isEmpty()) {
                        throw new IllegalStateException("nothing merged");
                    }
                }
                double chBest = 0;
                String chDdl = ddl.strip().replaceAll(";$", "");
                for (int r = 0; r < runs; r++) {
                    String name = dataset + "_m" + r;
                    String create =
                            chDdl.replaceFirst("(?i)CREATE TABLE\\s+\\S+", "CREATE TABLE " + name)
                                    + (chDdl.toUpperCase(Locale.ROOT).contains(" SETTINGS ")
                                            ? ", "
                                            : " SETTINGS ")
                                    + "max_parts_to_merge_at_once = 1";
                    ch.execute(create);
                    for (ActivePart p : sources) {
                        ch.attachPart(name, source.resolve(p.name().toString()));
                    }
                    long t0 = System.nanoTime();
                    ch.execute("OPTIMIZE TABLE " + name + " FINAL");
                    double secs = (System.nanoTime() - t0) / 1e9;
                    long bytes =
                            ch.queryLong(
                                    "SELECT sum(data_uncompressed_bytes) FROM system.parts WHERE database = currentDatabase() AND table = '"
                                            + name
                                            + "' AND active");
                    chBest = Math.max(chBest, bytes / 1e6 / secs);
                    ch.execute("DROP TABLE " + name + " SYNC");
                }
                lines.add(
                        String.format(
                                Locale.ROOT,
                                "%-8s %6d %10d %10.1f %12.1f %12.1f %7.2fx",
                                dataset,
                                sources.size(),
                                rows,
                                mergedBytes / 1e6,
                                best,
                                chBest,
                                best / chBest));
            }
        } finally {
            Parts.deleteRecursively(work);
        }
        lines.forEach(System.out::println);
        Files.write(root.resolve("engine/target/merge-bench.txt"), lines);
    }
}
