package io.github.s3mergetree.engine.bench;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/**
 * Merges 10 parts of a data set repeatedly, for a profiler: {@code MergeProfileMain DIR DATASET N}.
 */
public final class MergeProfileMain {
    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String dataset = args[1];
        TableLayout layout = TableLayouts.fromDdl(Files.readString(dir.resolve(dataset + ".sql")));
        Block all =
                RowBinary.read(
                        Files.readAllBytes(dir.resolve(dataset + ".rowbinary")),
                        layout.columnNames(),
                        layout.columnTypes(),
                        dataset);
        Path work = Files.createTempDirectory("merge-profile");
        Path source = work.resolve("source");
        MergeTreeTable table =
                MergeTreeTable.open(LocalParts.store(source), layout, Clock.systemUTC());
        int per = (all.rows() + 9) / 10;
        for (int i = 0; i < 10; i++) {
            Block slice = all.newEmpty(per);
            slice.appendRange(all, i * per, Math.min(all.rows(), (i + 1) * per));
            table.insert(slice);
        }
        for (int r = 0; r < Integer.parseInt(args[2]); r++) {
            Path copy = work.resolve("run" + r);
            Parts.copyRecursively(source, copy);
            MergeTreeTable t =
                    MergeTreeTable.open(LocalParts.store(copy), layout, Clock.systemUTC());
            long t0 = System.nanoTime();
            t.optimizeFinal(false);
            System.out.printf("%d: %.0f ms%n", r, (System.nanoTime() - t0) / 1e6);
            Parts.deleteRecursively(copy);
        }
        Parts.deleteRecursively(work);
    }
}
