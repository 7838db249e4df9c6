package io.github.s3mergetree.sink.mergetree.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.PendingInsert;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.input.BlockInput;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.LocalTableStorage;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink writer on its own, on a real local table: write, flush, prepareCommit and snapshotState
 * as Flink calls them, the committables it hands over (parts, tokens, the last one), its state, the
 * insert block sizes it chooses, and the rows ClickHouse reads from the committed parts.
 */
class MergeTreeSinkWriterTest {
    private static final long MIB = 1L << 20;
    private static final String DDL =
            "CREATE TABLE w (id UInt64, s String) ENGINE = MergeTree PARTITION BY id % 2 ORDER BY id";

    @TempDir Path tmp;
    @ChDbSession static ChDb ch;

    private static Block block(long from, long to) {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "w",
                        List.of("id", "s"),
                        List.of(DataTypes.UINT64, DataTypes.STRING_TYPE),
                        ZoneOffset.UTC);
        for (long i = from; i < to; i++) {
            b.addRow(i, "s" + i);
        }
        return b.build();
    }

    private MergeTreeSinkWriter<Block> writer(
            Path dir, Configuration options, TestWriterContext context) throws Exception {
        LocalTableStorage storage = new LocalTableStorage(dir.toString());
        return new MergeTreeSinkWriter<>(
                context.context(),
                "sink-a",
                ResolvedTable.resolve(DDL, storage, options),
                storage,
                BlockInput.byName(),
                options,
                FailureInjector.NONE,
                List.of());
    }

    private static void commit(MergeTreeTable table, Collection<MergeTreeCommittable> cs)
            throws Exception {
        for (MergeTreeCommittable c : cs) {
            List<PendingInsert> pending = new ArrayList<>();
            for (MergeTreeCommittable.PendingPart p : c.parts()) {
                pending.add(
                        new PendingInsert(
                                p.directoryName(),
                                p.partitionId(),
                                p.rows(),
                                p.bytesOnDisk(),
                                p.dataUncompressedBytes()));
            }
            table.commitPending(pending, c.token());
        }
    }

    @Test
    void writesFlushesCommitsAndSnapshotsLikeFlinkCallsIt() throws Exception {
        Path dir = tmp.resolve("w");
        TestWriterContext ctx = TestWriterContext.fresh();
        String job = ctx.jobId.toHexString();
        try (MergeTreeSinkWriter<Block> w = writer(dir, new Configuration(), ctx)) {
            w.write(block(0, 100), null);
            w.write(block(100, 250), null);
            assertThat(ctx.counter("rowsIn")).isEqualTo(250);
            // nothing flushed yet: nothing to commit
            assertThat(w.prepareCommit()).isEmpty();

            w.flush(false);
            Collection<MergeTreeCommittable> first = w.prepareCommit();
            assertThat(first).hasSize(1);
            MergeTreeCommittable c1 = first.iterator().next();
            assertThat(c1.token()).isEqualTo("sink.a-" + job + "-0-0-0");
            assertThat(c1.rows()).isEqualTo(250);
            assertThat(c1.parts()).hasSize(2); // one part per partition
            assertThat(c1.endOfInput()).isFalse();
            assertThat(c1.jobId()).isEqualTo(job);
            assertThat(w.snapshotState(1))
                    .containsExactly(new MergeTreeWriterState("sink.a", 0, 1, 250));
            commit(w.table(), first);

            w.write(block(250, 300), null);
            w.flush(true);
            Collection<MergeTreeCommittable> last = w.prepareCommit();
            assertThat(last).hasSize(1);
            MergeTreeCommittable c2 = last.iterator().next();
            assertThat(c2.token()).isEqualTo("sink.a-" + job + "-0-1-0");
            assertThat(c2.rows()).isEqualTo(50);
            assertThat(c2.endOfInput()).isTrue();
            commit(w.table(), last);
            // the end of the input was told once
            assertThat(w.prepareCommit()).isEmpty();
            assertThat(w.snapshotState(2))
                    .containsExactly(new MergeTreeWriterState("sink.a", 0, 2, 300));
            assertThat(ctx.counter("blocksFlushed")).isEqualTo(2);
            assertThat(ctx.counter("partsWritten")).isEqualTo(4);
        }
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
        ch.execute(DDL.replace("TABLE w", "TABLE ours"));
        TableChecks.attachAll(ch, "ours", dir);
        ch.assertCheckTablePasses("ours");
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(300);
        assertThat(ch.queryLong("SELECT sum(id) FROM ours WHERE s = concat('s', toString(id))"))
                .isEqualTo(299L * 300 / 2);
    }

    @Test
    void anEndOfInputWithoutRowsStillSendsTheLastCommittable() throws Exception {
        TestWriterContext ctx = TestWriterContext.fresh();
        try (MergeTreeSinkWriter<Block> w = writer(tmp.resolve("e"), new Configuration(), ctx)) {
            w.flush(true);
            Collection<MergeTreeCommittable> last = w.prepareCommit();
            assertThat(last).singleElement().satisfies(c -> assertThat(c.parts()).isEmpty());
            assertThat(last.iterator().next().endOfInput()).isTrue();
        }
    }

    @Test
    void flushesAtMinInsertBlockSizeRowsWithoutACheckpoint() throws Exception {
        Configuration o = new Configuration();
        o.set(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS, 150L);
        TestWriterContext ctx = TestWriterContext.fresh();
        try (MergeTreeSinkWriter<Block> w = writer(tmp.resolve("r"), o, ctx)) {
            w.write(block(0, 100), null);
            assertThat(ctx.counter("blocksFlushed")).isZero();
            w.write(block(100, 200), null); // 200 >= 150: this block is written
            assertThat(ctx.counter("blocksFlushed")).isEqualTo(1);
            w.write(block(200, 210), null);
            w.flush(false);
            List<MergeTreeCommittable> cs = new ArrayList<>(w.prepareCommit());
            assertThat(cs).singleElement().satisfies(c -> assertThat(c.rows()).isEqualTo(210));
            assertThat(ctx.counter("blocksFlushed")).isEqualTo(2);
        }
    }

    @Test
    void uncommittedPartsAreRemovedAtClose() throws Exception {
        Path dir = tmp.resolve("c");
        TestWriterContext ctx = TestWriterContext.fresh();
        MergeTreeSinkWriter<Block> w = writer(dir, new Configuration(), ctx);
        w.write(block(0, 10), null);
        w.flush(false);
        assertThat(TableChecks.temporaryDirectories(dir)).hasSize(2);
        w.close();
        assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
    }

    @Test
    void aRestoredWriterRemovesWhatAnAbortedAttemptWrote() throws Exception {
        Path dir = tmp.resolve("a");
        MergeTreeSinkWriter<Block> aborted =
                writer(dir, new Configuration(), TestWriterContext.fresh());
        aborted.snapshotState(7);
        aborted.write(block(0, 10), null);
        aborted.flush(false);
        // the attempt dies without closing (a killed TaskManager): its parts stay
        List<String> left = TableChecks.temporaryDirectories(dir);
        assertThat(left).hasSize(2).allMatch(n -> n.startsWith("tmp_s3mt-sink.a-0-7_"));

        TestWriterContext restored = new TestWriterContext(0, 1, 1, OptionalLong.of(7));
        try (MergeTreeSinkWriter<Block> w = writer(dir, new Configuration(), restored)) {
            assertThat(TableChecks.temporaryDirectories(dir)).isEmpty();
        }
        aborted.close(); // its threads; its parts are gone already
    }

    /**
     * {@code auto} and the default block size come from one memory model: with {@code
     * max_memory_usage} M and one insert thread a writer holds about 4 blocks, so {@code auto} is M
     * / 4, the default 256 MiB is lowered to M / 4 when it does not fit, and an explicit size is
     * kept as set.
     */
    @Test
    void autoAndTheDefaultBlockSizeShareOneMemoryModel() throws Exception {
        long budget = 400 * MIB;
        Configuration auto = new Configuration();
        auto.set(MergeTreeSinkOptions.MAX_MEMORY_USAGE, budget);
        auto.set(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES, "auto");
        assertThat(blockSizeAfterOneRecord(auto, "auto")).isEqualTo(budget / 4);

        Configuration byDefault = new Configuration();
        byDefault.set(MergeTreeSinkOptions.MAX_MEMORY_USAGE, budget);
        assertThat(blockSizeAfterOneRecord(byDefault, "default")).isEqualTo(budget / 4);

        Configuration explicit = new Configuration(byDefault);
        explicit.set(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES, "268435456");
        assertThat(blockSizeAfterOneRecord(explicit, "explicit")).isEqualTo(256 * MIB);
    }

    private long blockSizeAfterOneRecord(Configuration o, String name) throws Exception {
        TestWriterContext ctx = TestWriterContext.fresh();
        try (MergeTreeSinkWriter<Block> w = writer(tmp.resolve(name), o, ctx)) {
            w.write(block(0, 1), null);
            assertThat(ctx.counter("memoryBudgetBytes"))
                    .isEqualTo(o.get(MergeTreeSinkOptions.MAX_MEMORY_USAGE));
            return ctx.counter("insertBlockSizeBytes");
        }
    }
}
