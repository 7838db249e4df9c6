package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several writers (separate table instances, as separate Flink subtasks would open it) insert into
 * one table directory while merges run: block numbers are never reused, and every row is there
 * exactly once.
 */
class ConcurrentWritersTest {
    @TempDir Path tmp;

    @Test
    void writersAndMergesShareOneDirectory() throws Exception {
        TableLayout l =
                TestLayouts.of(
                        "t",
                        "d Date, id UInt64, s String",
                        "id",
                        "toYYYYMM(d)",
                        MergingMode.ORDINARY,
                        TableSettings.defaults(),
                        PartWriterOptions.defaults());
        int writers = 4;
        int batchesEach = 15;
        ExecutorService threads = Executors.newFixedThreadPool(writers + 1);
        ExecutorService mergePool = Executors.newFixedThreadPool(2);
        Set<String> names = ConcurrentHashMap.newKeySet();
        List<Future<?>> futures = new ArrayList<>();
        MergeTreeTable merging = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        MergeScheduler scheduler =
                new MergeScheduler(
                        merging,
                        new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults()),
                        mergePool,
                        2,
                        Clock.systemUTC());
        for (int w = 0; w < writers; w++) {
            int writer = w;
            futures.add(
                    threads.submit(
                            () -> {
                                MergeTreeTable t =
                                        MergeTreeTable.open(
                                                LocalParts.store(tmp), l, Clock.systemUTC());
                                for (int b = 0; b < batchesEach; b++) {
                                    int batch = writer * batchesEach + b;
                                    for (PartName n :
                                            t.commit(
                                                    t.writeTemporaryParts(
                                                            InsertWorker.batch(l, batch)),
                                                    "w" + writer + "-b" + b)) {
                                        assertThat(names.add(n.toString()))
                                                .as(n.toString())
                                                .isTrue();
                                    }
                                    scheduler.trigger();
                                }
                                return null;
                            }));
        }
        for (Future<?> f : futures) {
            f.get(120, TimeUnit.SECONDS);
        }
        scheduler.trigger();
        while (scheduler.busy()) {
            Thread.sleep(50);
        }
        scheduler.close();
        threads.shutdown();
        mergePool.shutdown();
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        assertThat(reopened.totalRows())
                .isEqualTo((long) writers * batchesEach * InsertWorker.ROWS_PER_BATCH);
        assertThat(scheduler.mergesFailed()).isZero();
        assertThat(scheduler.mergesDone()).isPositive();
        // block numbers of all committed parts are distinct
        Set<Long> blocks = ConcurrentHashMap.newKeySet();
        for (String n : names) {
            assertThat(blocks.add(PartName.tryParse(n).orElseThrow().minBlock())).isTrue();
        }
    }
}
