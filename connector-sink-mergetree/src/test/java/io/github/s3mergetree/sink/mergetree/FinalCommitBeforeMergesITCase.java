package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.FaultPoints;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The last inserted rows of a bounded streaming job are committed without waiting for the
 * background merges: every merge is held when it is about to publish (before the table lock) until
 * all rows of the input are in committed parts (read from the part log). If the end of input waited
 * for the merges to settle before the final checkpoint, as it once did, the final commit would wait
 * for the held merges and the merges for the final commit; the hold gives up after {@link
 * #HOLD_LIMIT_SECONDS} and the test fails.
 */
class FinalCommitBeforeMergesITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final int BLOCKS = 60;
    static final long HOLD_LIMIT_SECONDS = 30;
    private static final Pattern NEW_PART_ROWS =
            Pattern.compile("\"event_type\":\"NewPart\".*?\"rows\":(\\d+)");

    @TempDir Path tmp;

    @AfterEach
    void removeHook() {
        FaultPoints.install(null);
    }

    @Test
    void theFinalCommitDoesNotWaitForMerges() throws Exception {
        Path dir = tmp.resolve("t");
        long rows = (long) BLOCKS * MergesBackpressureITCase.ROWS_PER_BLOCK;
        AtomicInteger held = new AtomicInteger();
        AtomicBoolean gaveUp = new AtomicBoolean();
        FaultPoints.install(
                point -> {
                    // before the table lock: a merge held under it would hold back every commit
                    if (!point.equals("merge.before-lock")) {
                        return;
                    }
                    held.incrementAndGet();
                    long deadline =
                            System.nanoTime() + TimeUnit.SECONDS.toNanos(HOLD_LIMIT_SECONDS);
                    while (committedRows(dir) < rows) {
                        if (System.nanoTime() > deadline) {
                            gaveUp.set(true);
                            return;
                        }
                        try {
                            Thread.sleep(20);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                });

        MergesBackpressureITCase.runStreamingJob(
                BLOCKS,
                MergeTreeSink.forBlocks()
                        .setTablePath(dir.toString())
                        .setDdl(MergesBackpressureITCase.ddl("t"))
                        .setOption(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS, 1L)
                        .setOption(MergeTreeSinkOptions.MERGE_SELECTING_SLEEP_MS, 50L)
                        .build());

        assertThat(held.get()).as("merges held before publishing").isPositive();
        assertThat(gaveUp.get())
                .as("a held merge waited %d s for the final commit", HOLD_LIMIT_SECONDS)
                .isFalse();
        assertThat(committedRows(dir)).isEqualTo(rows);
        MergeTreeTable table = TableChecks.open(dir);
        assertThat(table.partLog().lines()).anyMatch(l -> l.contains("\"MergeParts\""));
        long active = 0;
        for (var part : table.activeParts()) {
            active += part.rows();
        }
        assertThat(active).isEqualTo(rows);
    }

    /** Rows in the part log's NewPart events: rows committed by inserts. */
    private static long committedRows(Path table) {
        try {
            if (!Files.exists(table.resolve("s3mergetree_metadata").resolve("table.sql"))) {
                return 0;
            }
            long total = 0;
            for (String line : TableChecks.open(table).partLog().lines()) {
                Matcher m = NEW_PART_ROWS.matcher(line);
                if (m.find()) {
                    total += Long.parseLong(m.group(1));
                }
            }
            return total;
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
