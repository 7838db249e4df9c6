package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertSettings;
import io.github.s3mergetree.engine.table.InsertWriter;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TooManyPartsException;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.LocalTableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's backpressure: the engine's insert delay, and waiting where the table refuses. */
class InsertBackpressureTest {
    @TempDir Path tmp;

    private final List<Long> sleeps = new ArrayList<>();
    private final InsertBackpressure.Sleeper recorder =
            ms -> {
                sleeps.add(ms);
                return ms;
            };

    private static Block block(long id) {
        RowBlockBuilder b =
                new RowBlockBuilder("b", List.of("id"), List.of(DataTypes.UINT64), ZoneOffset.UTC);
        b.addRow(id);
        return b.build();
    }

    @Test
    void sleepsTheTablesInsertDelayForThePartitionsWritten() throws Exception {
        Configuration o = new Configuration();
        o.set(MergeTreeSinkOptions.PARTS_TO_DELAY_INSERT, 2);
        o.set(MergeTreeSinkOptions.PARTS_TO_THROW_INSERT, 4);
        LocalTableStorage storage = new LocalTableStorage(tmp.resolve("t").toString());
        ResolvedTable r =
                ResolvedTable.resolve(
                        "CREATE TABLE b (id UInt64) ENGINE = MergeTree PARTITION BY id % 2 ORDER BY id",
                        storage, o);
        try (MergeTreeTable table = storage.open(r.layout(), Clock.systemUTC())) {
            InsertWriter w = table.insertWriter(InsertSettings.DEFAULTS);
            InsertBackpressure bp = InsertBackpressure.of(table, recorder, "test writer");
            List<TemporaryPart> odd = List.of();
            for (long id : new long[] {1, 3, 5}) {
                odd = w.write(BlockChunks.of(block(id)), "t", new InsertWriter.Timings());
                table.commit(odd, null);
            }
            List<TemporaryPart> even =
                    w.write(BlockChunks.of(block(2)), "t", new InsertWriter.Timings());
            table.commit(even, null);

            assertThat(bp.afterInsert(List.of())).isZero();
            assertThat(bp.afterInsert(even)).as("1 part in partition 0").isZero();
            // 3 parts in partition 1: 1000^((3 - 2 + 1) / (4 - 2)) = 1000 ms
            assertThat(bp.afterInsert(odd)).isEqualTo(1000);
            assertThat(sleeps).containsExactly(1000L);
            assertThat(bp.sleptMillis()).isEqualTo(1000);
            table.store().close();
        }
    }

    @Test
    void waitsForMergesWhereTheTableRefusesInsteadOfFailing() throws Exception {
        int[] refusals = {2};
        InsertBackpressure bp =
                new InsertBackpressure(
                        parts -> {
                            if (refusals[0]-- > 0) {
                                throw new TooManyPartsException("1", 4, 4);
                            }
                            return 7;
                        },
                        50,
                        recorder,
                        "test writer");
        long slept = bp.afterInsert(List.of(dummyPart()));
        // asked again every max(100 ms, max_delay_to_insert), then the delay itself
        assertThat(sleeps).containsExactly(100L, 100L, 7L);
        assertThat(slept).isEqualTo(207);
    }

    private TemporaryPart dummyPart() throws Exception {
        LocalTableStorage storage = new LocalTableStorage(tmp.resolve("d").toString());
        ResolvedTable r =
                ResolvedTable.resolve(
                        "CREATE TABLE b (id UInt64) ENGINE = MergeTree ORDER BY id",
                        storage,
                        new Configuration());
        try (MergeTreeTable table = storage.open(r.layout(), Clock.systemUTC())) {
            List<TemporaryPart> p =
                    table.insertWriter(InsertSettings.DEFAULTS)
                            .write(BlockChunks.of(block(1)), "t", new InsertWriter.Timings());
            table.store().close();
            return p.get(0);
        }
    }
}
