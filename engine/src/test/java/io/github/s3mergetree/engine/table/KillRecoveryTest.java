package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    private static S3ProxyServer server;

    @BeforeAll
    static void startS3() throws Exception {
        server = new S3ProxyServer();
        server.createBucket("kills");
    }

    @AfterAll
    static void stopS3() throws Exception {
        server.close();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void killedWritersRecoverToExactlyTheInsertedRows(String kind) throws Exception {
        String table =
                kind.equals("s3")
                        ? "s3:" + server.port() + ":kills:t-" + System.nanoTime() + "/"
                        : tmp.resolve("table").toString();
        Path journal = tmp.resolve("journal.txt");
        Files.createFile(journal);
        int batches = 60;
        Random random = new Random(42);
        for (int round = 0; round < 4; round++) {
            int from = nextBatch(journal);
            Process p = start(table, from, batches, journal);
            // killed after it committed 1..4 batches of its own, 0..300 ms into the next one: while
            // it writes, commits, publishes or merges, never before it started or after it ended
            awaitJournal(journal, from + 1 + random.nextInt(4), p);
            Thread.sleep(random.nextInt(300));
            assertThat(p.isAlive()).as("round %d: the writer is still writing", round).isTrue();
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(nextBatch(journal))
                    .as("round %d: killed before the end", round)
                    .isLessThan(batches);
        }
        Process last = start(table, nextBatch(journal), batches, journal);
        awaitJournal(journal, batches, last);
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(last.exitValue()).as(new String(last.getInputStream().readAllBytes())).isZero();

        MergeTreeTable t =
                MergeTreeTable.open(InsertWorker.store(table), layout(), Clock.systemUTC());
        BitSet seen = new BitSet();
        long rows = 0;
        for (ActivePart part : t.activeParts()) {
            PartReader r = PartReader.open(t.store(), part.name().toString());
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

    /**
     * Waits until the journal reaches batch {@code next} (that many batches committed), failing
     * when the writer exits first or journals nothing new for 120 s (a loaded machine is slow, not
     * stuck).
     */
    private static void awaitJournal(Path journal, int next, Process writer) throws Exception {
        int seen = nextBatch(journal);
        long lastProgress = System.nanoTime();
        while (seen < next) {
            assertThat(writer.isAlive() || nextBatch(journal) >= next)
                    .as(
                            "the writer exited at batch %d before batch %d: %s",
                            seen,
                            next,
                            writer.isAlive()
                                    ? ""
                                    : new String(writer.getInputStream().readAllBytes()))
                    .isTrue();
            assertThat(System.nanoTime() - lastProgress)
                    .as("no batch journaled for 120 s (at batch %d)", seen)
                    .isLessThan(TimeUnit.SECONDS.toNanos(120));
            writer.waitFor(20, TimeUnit.MILLISECONDS);
            int now = nextBatch(journal);
            if (now > seen) {
                seen = now;
                lastProgress = System.nanoTime();
            }
        }
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

    private static Process start(String table, int from, int to, Path journal) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(
                        java,
                        "-cp",
                        System.getProperty("java.class.path"),
                        InsertWorker.class.getName(),
                        table,
                        Integer.toString(from),
                        Integer.toString(to),
                        journal.toString())
                .redirectErrorStream(true)
                .start();
    }
}
