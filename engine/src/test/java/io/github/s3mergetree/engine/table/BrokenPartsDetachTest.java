package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.merge.PartMerger;
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
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link BrokenParts}' own detach, on its own context (no table facade). */
class BrokenPartsDetachTest {
    @TempDir Path tmp;

    private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));

    private static TableLayout layout() {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults(),
                PartWriterOptions.defaults());
    }

    private static Block rows(TableLayout l, long from, int n) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", l.columnNames(), l.columnTypes(), ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(LocalDate.of(2024, 1, 1), i);
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
    void aDetachedMergedPartMovesToDetachedAndItsSourcesBecomeActiveAgain() throws Exception {
        TableLayout l = layout();
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        InsertCommits inserts = new InsertCommits(ctx);
        BrokenParts broken = new BrokenParts(ctx);
        List<PartName> sources = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            sources.addAll(
                    inserts.commitPending(write(l, store, rows(l, i * 10L, 10)), null).names());
        }
        PartName merged = new Merges(ctx, broken).merge(sources, new PartMerger.Progress());
        assertThat(merged).isNotNull();

        Optional<String> where = broken.detach(merged, "damaged on purpose");
        assertThat(where).contains("detached/broken_" + merged);
        Path detached = tmp.resolve("detached").resolve("broken_" + merged);
        assertThat(detached.resolve(PartFiles.CHECKSUMS)).isRegularFile();
        assertThat(detached.resolve(PartFiles.COUNT)).isRegularFile();
        assertThat(tmp.resolve(merged.toString())).doesNotExist();
        assertThat(store.exists(TableKeys.claim(merged))).isFalse();
        assertThat(broken.detachedCount()).isEqualTo(1);
        assertThat(ctx.refreshed().active())
                .extracting(p -> p.part().name())
                .containsExactlyElementsOf(sources);
        assertThat(ctx.partLog.lines())
                .anySatisfy(
                        line ->
                                assertThat(line)
                                        .contains("\"event_type\":\"RemovePart\"")
                                        .contains("detached as broken to detached/broken_" + merged)
                                        .contains("damaged on purpose"));

        // a part that is not in the table any more: nothing to detach, nothing counted
        assertThat(broken.detach(merged, "again")).isEmpty();
        assertThat(broken.detachedCount()).isEqualTo(1);
    }

    @Test
    void aSecondDetachOfTheSameNameGetsATryDirectory() throws Exception {
        TableLayout l = layout();
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        PartName part =
                new InsertCommits(ctx)
                        .commitPending(write(l, store, rows(l, 0, 5)), null)
                        .names()
                        .get(0);
        Path earlier = tmp.resolve("detached").resolve("broken_" + part);
        Files.createDirectories(earlier);
        Files.writeString(earlier.resolve(PartFiles.COUNT), "1");

        assertThat(new BrokenParts(ctx).detach(part, "broken"))
                .contains("detached/broken_" + part + "_try1");
        assertThat(earlier.resolve(PartFiles.COUNT)).hasContent("1");
        assertThat(
                        tmp.resolve("detached")
                                .resolve("broken_" + part + "_try1")
                                .resolve(PartFiles.CHECKSUMS))
                .isRegularFile();
    }
}
