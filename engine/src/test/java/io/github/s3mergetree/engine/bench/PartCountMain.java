package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The active-part count over a long ingest of small blocks, ours (background merges on one pool
 * thread) beside chDB inserting the same blocks: {@code INSERTS} inserts of {@code ROWS} rows of
 * the numeric data set, the count sampled after each insert. Writes a CSV and an SVG plot to {@code
 * engine/target/}. Usage: {@code tools/bench/part-count.sh}.
 */
public final class PartCountMain {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]).toAbsolutePath();
        int inserts = Integer.parseInt(args.length > 1 ? args[1] : "1000");
        int rowsPer = Integer.parseInt(args.length > 2 ? args[2] : "2000");
        Path dir = root.resolve("engine/target/bench-data");
        String ddl = Files.readString(dir.resolve("numeric.sql"));
        TableLayout layout = TableLayouts.fromDdl(ddl);
        Block all =
                RowBinary.read(
                        Files.readAllBytes(dir.resolve("numeric.rowbinary")),
                        layout.columnNames(),
                        layout.columnTypes(),
                        "numeric");
        Path work = Files.createTempDirectory("part-count");
        int[] ours = new int[inserts];
        int[] theirs = new int[inserts];
        ExecutorService pool = Executors.newFixedThreadPool(1);
        try {
            MergeTreeTable table =
                    MergeTreeTable.open(
                            LocalParts.store(work.resolve("ours")), layout, Clock.systemUTC());
            MergeScheduler scheduler =
                    new MergeScheduler(
                            table,
                            new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults()),
                            pool,
                            1,
                            Clock.systemUTC());
            for (int i = 0; i < inserts; i++) {
                Block slice = all.newEmpty(rowsPer);
                int from = (i * rowsPer) % (all.rows() - rowsPer);
                slice.appendRange(all, from, from + rowsPer);
                table.insert(slice);
                ours[i] = table.activeParts().size();
            }
            scheduler.close();
            try (ChDb ch = ChDb.start(work.resolve("chdb"))) {
                ch.execute(ddl);
                Path native_ = dir.resolve("numeric.native");
                for (int i = 0; i < inserts; i++) {
                    int from = (i * rowsPer) % (all.rows() - rowsPer);
                    ch.execute(
                            "INSERT INTO numeric SELECT * FROM file('"
                                    + native_
                                    + "', Native) LIMIT "
                                    + rowsPer
                                    + " OFFSET "
                                    + from);
                    theirs[i] =
                            (int)
                                    ch.queryLong(
                                            "SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'numeric' AND active");
                }
            }
        } finally {
            pool.shutdownNow();
            Parts.deleteRecursively(work);
        }
        List<String> csv = new ArrayList<>();
        csv.add("insert,ours_active_parts,chdb_active_parts");
        int maxOurs = 0;
        int maxTheirs = 0;
        for (int i = 0; i < inserts; i++) {
            csv.add((i + 1) + "," + ours[i] + "," + theirs[i]);
            maxOurs = Math.max(maxOurs, ours[i]);
            maxTheirs = Math.max(maxTheirs, theirs[i]);
        }
        Files.write(root.resolve("engine/target/part-count.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(root.resolve("engine/target/part-count.svg"), svg(ours, theirs));
        System.out.printf(
                Locale.ROOT,
                "inserts %d x %d rows: max active parts ours %d (final %d), chDB %d (final %d)%n",
                inserts,
                rowsPer,
                maxOurs,
                ours[inserts - 1],
                maxTheirs,
                theirs[inserts - 1]);
    }

    static String svg(int[] a, int[] b) {
        int w = 800;
        int h = 300;
        int max = 1;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.max(a[i], b[i]));
        }
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns='http://www.w3.org/2000/svg' width='")
                .append(w + 60)
                .append("' height='")
                .append(h + 50)
                .append("'>\n");
        s.append("<rect width='100%' height='100%' fill='white'/>\n");
        s.append("<g transform='translate(50,10)'>\n<line x1='0' y1='")
                .append(h)
                .append("' x2='")
                .append(w)
                .append("' y2='")
                .append(h)
                .append("' stroke='black'/>\n");
        s.append("<line x1='0' y1='0' x2='0' y2='").append(h).append("' stroke='black'/>\n");
        s.append("<text x='-45' y='10' font-size='11'>").append(max).append(" parts</text>\n");
        s.append("<text x='")
                .append(w - 120)
                .append("' y='")
                .append(h + 30)
                .append("' font-size='11'>")
                .append(a.length)
                .append(" inserts</text>\n");
        s.append(polyline(a, max, w, h, "#d62728")).append(polyline(b, max, w, h, "#1f77b4"));
        s.append(
                "<text x='10' y='20' fill='#d62728' font-size='12'>ours (engine + MergeScheduler)</text>\n");
        s.append(
                "<text x='10' y='36' fill='#1f77b4' font-size='12'>chDB (ClickHouse 26.7)</text>\n</g>\n</svg>\n");
        return s.toString();
    }

    private static String polyline(int[] v, int max, int w, int h, String color) {
        StringBuilder p =
                new StringBuilder("<polyline fill='none' stroke='" + color + "' points='");
        for (int i = 0; i < v.length; i++) {
            p.append(
                    String.format(
                            Locale.ROOT,
                            "%.1f,%.1f ",
                            (double) i * w / (v.length - 1),
                            h - (double) v[i] * h / max));
        }
        return p.append("'/>\n").toString();
    }
}
