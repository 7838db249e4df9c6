package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.TestStores;
import java.io.FileOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A child process for {@link KillRecoveryTest}: inserts batches {@code from..to-1} into a table
 * (each batch committed with the dedup token {@code batch-<n>}), merging in the background, and
 * journals each batch after its commit returns. The test kills it with SIGKILL at random moments.
 */
public final class InsertWorker {
    static final int ROWS_PER_BATCH = 500;

    public static void main(String[] args) throws Exception {
        String where = args[0];
        int from = Integer.parseInt(args[1]);
        int to = Integer.parseInt(args[2]);
        Path journal = Path.of(args[3]);
        TableLayout layout = KillRecoveryTest.layout();
        MergeTreeTable table = MergeTreeTable.open(store(where), layout, Clock.systemUTC());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        MergeScheduler scheduler =
                new MergeScheduler(
                        table,
                        new SimpleMergeSelector(
                                SimpleMergeSelector.Settings.defaults()
                                        .withMaxPartsToMergeAtOnce(10)),
                        pool,
                        2,
                        Clock.systemUTC());
        try (FileOutputStream out = new FileOutputStream(journal.toFile(), true)) {
            for (int b = from; b < to; b++) {
                List<TemporaryPart> parts = table.writeTemporaryParts(batch(layout, b));
                table.commit(parts, "batch-" + b);
                out.write((b + "\n").getBytes(StandardCharsets.US_ASCII));
                out.getFD().sync();
            }
        }
        scheduler.close();
        pool.shutdown();
    }

    /** {@code s3:<endpoint port>:<bucket>:<prefix>/}, else a local directory. */
    static TableStore store(String where) {
        if (where.startsWith("s3:")) {
            String[] p = where.split(":", 4);
            return TestStores.s3(URI.create("http://127.0.0.1:" + p[1]), p[2], p[3]);
        }
        return LocalParts.store(Path.of(where));
    }

    static Block batch(TableLayout layout, int b) {
        RowBlockBuilder rows =
                new RowBlockBuilder(
                        "t", layout.columnNames(), layout.columnTypes(), ZoneOffset.UTC);
        for (int j = 0; j < ROWS_PER_BATCH; j++) {
            long id = (long) b * ROWS_PER_BATCH + j;
            rows.addRow(LocalDate.of(2024, 1 + (int) (id % 3), 1), id, "row-" + id);
        }
        return rows.build();
    }
}
