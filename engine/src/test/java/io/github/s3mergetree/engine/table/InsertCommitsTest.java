package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link InsertCommits} on its own context: commit, replay by token, missing parts, delay. */
class InsertCommitsTest {
    @TempDir Path tmp;

    private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));

    private static TableLayout layout(TableSettings settings) {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                settings,
                PartWriterOptions.defaults());
    }

    private static Block rows(TableLayout l, int month, long from, int n) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", l.columnNames(), l.columnTypes(), ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(LocalDate.of(2024, month, 1), i);
        }
        return b.build();
    }

    private List<PendingInsert> write(TableLayout l, TableStore store, Block block)
            throws Exception {
        List<PendingInsert> out = new ArrayList<>();
        for (TemporaryPart p :
                new InsertWriter(l, store, clock)
                        .write(block, "insert", new InsertWriter.Timings())) {
            out.add(PendingInsert.of(p));
        }
        return out;
    }

    @Test
    void aCommitNumbersBlocksPublishesAndAReplayReturnsTheRecordedNames() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        InsertCommits inserts = new InsertCommits(ctx);
        List<List<PartName>> told = new ArrayList<>();
        inserts.onNewParts(told::add);

        List<PendingInsert> first = write(l, store, rows(l, 1, 0, 10));
        CommitResult made = inserts.commitPending(first, "token-1");
        assertThat(made.replayed()).isFalse();
        assertThat(made.sequence()).isEqualTo(1);
        assertThat(made.names()).containsExactly(PartName.inserted("202401", 1));
        assertThat(tmp.resolve("202401_1_1_0").resolve(PartFiles.CHECKSUMS)).isRegularFile();
        assertThat(tmp.resolve(first.get(0).temporaryDirectory())).doesNotExist();
        assertThat(told).containsExactly(made.names());

        // the same token again, with other temporary parts (a retried attempt): nothing new is
        // committed, the recorded names come back and the new directories are removed
        List<PendingInsert> retried = write(l, store, rows(l, 1, 0, 10));
        CommitResult replay = inserts.commitPending(retried, "token-1");
        assertThat(replay.replayed()).isTrue();
        assertThat(replay.sequence()).isEqualTo(1);
        assertThat(replay.names()).isEqualTo(made.names());
        assertThat(tmp.resolve(retried.get(0).temporaryDirectory())).doesNotExist();
        assertThat(ctx.refreshed().sequence()).isEqualTo(1);
        assertThat(told).hasSize(1);
        // its part log events were written again as the same object, not added
        assertThat(ctx.partLog.lines())
                .filteredOn(line -> line.contains("\"event_type\":\"NewPart\""))
                .hasSize(1);

        // another token gets the next block number
        CommitResult next = inserts.commitPending(write(l, store, rows(l, 1, 10, 5)), "token-2");
        assertThat(next.names()).containsExactly(PartName.inserted("202401", 2));
    }

    @Test
    void aMissingTemporaryPartWithoutARecordCommitsNothingAndNamesTheDirectory() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        InsertCommits inserts = new InsertCommits(ctx);
        List<PendingInsert> parts = write(l, store, rows(l, 2, 0, 3));
        String dir = parts.get(0).temporaryDirectory();
        Files.delete(tmp.resolve(dir).resolve(PartFiles.CHECKSUMS));

        assertThatThrownBy(() -> inserts.commitPending(parts, "token-x"))
                .isInstanceOf(MissingTemporaryPartException.class)
                .hasMessageContaining(dir)
                .hasMessageContaining("of commit token-x");
        assertThat(ctx.refreshed().sequence()).isZero();
    }

    @Test
    void theInsertDelayGrowsWithThePartCountAndRefusesAtTheLimit() throws Exception {
        TableLayout l = layout(TableSettings.defaults().withPartsLimits(2, 4));
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        InsertCommits inserts = new InsertCommits(new TableContext(store, l, clock));
        assertThat(inserts.insertDelayMillis(Set.of("202401"))).isZero();
        for (int i = 0; i < 3; i++) {
            inserts.commitPending(write(l, store, rows(l, 1, i * 10L, 10)), null);
        }
        assertThat(inserts.activePartCounts()).containsEntry("202401", 3);
        assertThat(inserts.insertDelayMillis(Set.of("202401")))
                .isEqualTo(InsertDelay.millis(l.settings(), 3))
                .isPositive();
        assertThat(inserts.insertDelayMillis(Set.of("202402"))).isZero();
        inserts.commitPending(write(l, store, rows(l, 1, 30, 10)), null);
        assertThatThrownBy(() -> inserts.insertDelayMillis(Set.of("202401")))
                .isInstanceOf(TooManyPartsException.class)
                .hasMessageContaining("202401");
    }
}
