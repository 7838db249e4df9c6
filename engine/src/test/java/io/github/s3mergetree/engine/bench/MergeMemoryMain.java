package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Peak memory of a merge of large parts. {@code write DATA_DIR TABLE_DIR PARTS}: inserts the posts
 * data set {@code PARTS} times (one part each). {@code merge DATA_DIR TABLE_DIR}: merges all parts
 * a copy of the table into one and prints the peak heap use (run it with a small {@code -Xmx} to
 * find the bound).
 */
public final class MergeMemoryMain {
    public static void main(String[] args) throws Exception {
        Path data = Path.of(args[1]);
        Path tableDir = Path.of(args[2]);
        TableLayout layout = TableLayouts.fromDdl(Files.readString(data.resolve("posts.sql")));
        if (args[0].equals("write")) {
            Block all =
                    RowBinary.read(
                            Files.readAllBytes(data.resolve("posts.rowbinary")),
                            layout.columnNames(),
                            layout.columnTypes(),
                            "posts");
            MergeTreeTable t =
                    MergeTreeTable.open(LocalParts.store(tableDir), layout, Clock.systemUTC());
            for (int i = 0; i < Integer.parseInt(args[3]); i++) {
                t.insert(all);
            }
            return;
        }
        Path copy = Files.createTempDirectory("merge-memory");
        io.github.s3mergetree.engine.part.Parts.copyRecursively(tableDir, copy.resolve("t"));
        MergeTreeTable t =
                MergeTreeTable.open(LocalParts.store(copy.resolve("t")), layout, Clock.systemUTC());
        long before = 0;
        long rows = 0;
        for (ActivePart p : t.activeParts()) {
            before += p.dataUncompressedBytes();
            rows += p.rows();
        }
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        long t0 = System.nanoTime();
        t.optimizeFinal(false);
        double secs = (System.nanoTime() - t0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        System.out.printf(
                "merged %d parts, %d rows, %.0f MB uncompressed in %.1f s; peak heap %.0f MB (max heap %.0f MB)%n",
                t.activeParts().size(),
                rows,
                before / 1e6,
                secs,
                peak / 1e6,
                Runtime.getRuntime().maxMemory() / 1e6);
        io.github.s3mergetree.engine.part.Parts.deleteRecursively(copy);
    }
}
