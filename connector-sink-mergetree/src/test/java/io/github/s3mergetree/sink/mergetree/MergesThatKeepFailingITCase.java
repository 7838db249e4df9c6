package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.FaultPoints;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.merge.MergeCoordinator;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded job whose every merge fails (a fault injected before the merge takes the table lock)
 * still ends: the merges stop settling at the end of input after {@link
 * MergeCoordinator#SETTLE_MAX_FAILURES} failures, instead of the coordinator retrying the same
 * failing merge for ever, and every row is committed exactly once in unmerged (level 0) parts.
 */
class MergesThatKeepFailingITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    static final int BLOCKS = 30;

    @TempDir Path tmp;

    @AfterEach
    void removeHook() {
        FaultPoints.install(null);
    }

    @Test
    @Timeout(180)
    void aBoundedJobEndsWhenEveryMergeFails() throws Exception {
        Path dir = tmp.resolve("t");
        AtomicInteger failed = new AtomicInteger();
        FaultPoints.install(
                point -> {
                    if (point.equals("merge.before-lock")) {
                        failed.incrementAndGet();
                        throw new IllegalStateException("injected merge failure");
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

        assertThat(failed.get())
                .as("merges failed")
                .isGreaterThanOrEqualTo(MergeCoordinator.SETTLE_MAX_FAILURES);
        FaultPoints.install(null);
        MergeTreeTable table = TableChecks.open(dir);
        long rows = 0;
        for (ActivePart p : table.activeParts()) {
            assertThat(p.name().level()).as("part %s merged", p.name()).isZero();
            rows += p.rows();
        }
        assertThat(rows).isEqualTo((long) BLOCKS * MergesBackpressureITCase.ROWS_PER_BLOCK);
        assertThat(table.partLog().lines()).noneMatch(l -> l.contains("\"MergeParts\""));
    }
}
