package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process-kill test: a child JVM inserts batches (and merges in the background) and is
 * killed with SIGKILL at random moments, several times; each restart replays from the last
 * journaled batch, relying on commit dedup tokens. The reloaded table holds every row exactly once,
 * every part passes verification, and no temporary directory is left visible as a part.
 */
class KillRecoveryTest {
    @TempDir Path tmp;

    static TableLayout layout() {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64, s String",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults(),
                PartWriterOptions.defaults());
    }

    @Test
    void killedWritersRecoverToExactlyTheInsertedRows() throws Exception {
        Path table = tmp.resolve("table");
        Path journal = tmp.resolve("journal.txt");
        Files.createFile(journal);
        int batches = 60;
        Random random = new Random(42);
        for (int round = 0; round < 4; round++) {
            Process p = start(table, nextBatch(journal), batches, journal);
            Thread.sleep(700 + random.nextInt(1500));
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        Process last = start(table, nextBatch(journal), batches, journal);
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(last.exitValue()).as(new String(last.getInputStream().readAllBytes())).isZero();

        MergeTreeTable t = MergeTreeTable.open(table, layout(), Clock.systemUTC());
        BitSet seen = new BitSet();
        long rows = 0;
        for (ActivePart part : t.activeParts()) {
            PartReader r = PartReader.open(table.resolve(part.name().toString()));
            r.verify();
            Block b = r.read(List.of("id"));
            LongColumn ids = (LongColumn) b.column(0);
            for (int i = 0; i < b.rows(); i++) {
                int id = (int) ids.get(i);
                assertThat(seen.get(id)).as("row id %d appears twice", id).isFalse();
                seen.set(id);
                rows++;
            }
        }
        assertThat(rows).isEqualTo((long) batches * InsertWorker.ROWS_PER_BATCH);
        assertThat(seen.cardinality()).isEqualTo(batches * InsertWorker.ROWS_PER_BATCH);
    }

    private static int nextBatch(Path journal) throws Exception {
        List<String> lines = Files.readAllLines(journal);
        int last = -1;
        for (String l : lines) {
            if (!l.isBlank()) {
                last = Math.max(last, Integer.parseInt(l.trim()));
            }
        }
        return last + 1;
    }

    private static Process start(Path table, int from, int to, Path journal) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        InsertWorker.class.getName(),
                        table.toString(),
                        Integer.toString(from),
                        Integer.toString(to),
                        journal.toString())
                .redirectErrorStream(true)
                .start();
    }
}
