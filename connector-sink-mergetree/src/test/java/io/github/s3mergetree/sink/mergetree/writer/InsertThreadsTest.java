package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.InsertSettings;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TooManyPartitionsException;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.sink.mergetree.storage.LocalTableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The insert threads: room, order of harvest, and failures thrown as they were. */
class InsertThreadsTest {
    @TempDir Path tmp;

    private static Block block(long from, long to) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", List.of("id"), List.of(DataTypes.UINT64), ZoneOffset.UTC);
        for (long i = from; i < to; i++) {
            b.addRow(i);
        }
        return b.build();
    }

    private MergeTreeTable table(String name) throws Exception {
        LocalTableStorage storage = new LocalTableStorage(tmp.resolve(name).toString());
        ResolvedTable r =
                ResolvedTable.resolve(
                        "CREATE TABLE t (id UInt64) ENGINE = MergeTree PARTITION BY id % 3 ORDER BY id",
                        storage, new Configuration());
        return storage.open(r.layout(), Clock.systemUTC());
    }

    @Test
    void writesBlocksInTheBackgroundAndHarvestsThemInOrder() throws Exception {
        MergeTreeTable table = table("a");
        InsertThreads threads =
                new InsertThreads(table.insertWriter(InsertSettings.DEFAULTS), 2, "test-insert");
        assertThat(threads.isEmpty()).isTrue();
        assertThat(threads.hasRoom(false)).isTrue();
        threads.submit(BlockChunks.of(block(0, 10)), "s3mt-x-0-0", 80, 100);
        threads.submit(BlockChunks.of(block(10, 11)), "s3mt-x-0-0", 8, 10);
        assertThat(threads.hasRoom(false)).as("max_insert_threads = 2 in flight").isFalse();
        assertThat(threads.hasRoom(true)).as("one more for a flush").isTrue();
        assertThat(threads.heldBytes(1000)).isEqualTo(100 + 80 + 1000 + 10 + 8 + 1000);

        InsertThreads.Written first = threads.harvestOldest();
        assertThat(first.parts()).hasSize(3); // partitions 0, 1, 2
        assertThat(first.parts().stream().mapToLong(p -> p.files().rows()).sum()).isEqualTo(10);
        assertThat(first.bytes()).isEqualTo(80);
        InsertThreads.Written second = threads.harvestOldest();
        assertThat(second.parts())
                .singleElement()
                .satisfies(p -> assertThat(p.files().rows()).isEqualTo(1));
        assertThat(threads.isEmpty()).isTrue();
        assertThatThrownBy(threads::harvestOldest).isInstanceOf(IllegalStateException.class);
        assertThat(threads.stop(10, TimeUnit.SECONDS))
                .isEqualTo(new InsertThreads.Stopped(true, List.of()));
        table.store().close();
    }

    @Test
    void aFailedWriteIsThrownAsItWas() throws Exception {
        MergeTreeTable table = table("f");
        // max_partitions_per_insert_block = 2; the block has 3 partitions
        InsertThreads threads =
                new InsertThreads(
                        table.insertWriter(new InsertSettings(2, true)), 1, "test-insert");
        threads.submit(BlockChunks.of(block(0, 3)), "s3mt-x-0-0", 24, 24);
        assertThatThrownBy(threads::harvestOldest)
                .isInstanceOf(TooManyPartitionsException.class)
                .hasMessageContaining("max_partitions_per_insert_block");
        threads.close();
        table.store().close();
    }
}
