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
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Cleanup} on its own context, its ages measured on an injected clock. */
class CleanupTest {
    @TempDir Path tmp;

    private final ManualClock clock = new ManualClock(Instant.parse("2030-01-01T00:00:00Z"));

    private static TableLayout layout() {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults().withOldPartsLifetime(Duration.ofSeconds(480)),
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
    void outdatedPartsGoAfterOldPartsLifetimeChecksumsFirstAndAreRecorded() throws Exception {
        TableLayout l = layout();
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        InsertCommits inserts = new InsertCommits(ctx);
        Merges merges = new Merges(ctx, new BrokenParts(ctx));
        Cleanup cleanup = new Cleanup(ctx);
        List<PartName> sources = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sources.addAll(
                    inserts.commitPending(write(l, store, rows(l, i * 10L, 10)), null).names());
        }
        PartName merged = merges.merge(sources, new PartMerger.Progress());
        assertThat(merged).isEqualTo(new PartName("202401", 1, 3, 1, 0));

        clock.advance(Duration.ofSeconds(479));
        assertThat(cleanup.run()).isEmpty();
        assertThat(tmp.resolve(sources.get(0).toString()).resolve(PartFiles.CHECKSUMS))
                .isRegularFile();

        List<String> order = new ArrayList<>();
        FaultPoints.install(
                point -> {
                    if (point.equals("remove.after-checksums")) {
                        // the part being removed still has its files, but no checksums.txt
                        long halfRemoved =
                                sources.stream()
                                        .map(n -> tmp.resolve(n.toString()))
                                        .filter(d -> Files.exists(d.resolve(PartFiles.COUNT)))
                                        .filter(d -> !Files.exists(d.resolve(PartFiles.CHECKSUMS)))
                                        .count();
                        order.add(halfRemoved == 1 ? "checksums gone first" : "not so");
                    }
                });
        try {
            clock.advance(Duration.ofSeconds(1));
            assertThat(cleanup.run()).containsExactlyInAnyOrderElementsOf(sources);
        } finally {
            FaultPoints.install(null);
        }
        assertThat(order).containsOnly("checksums gone first").hasSize(3);
        for (PartName p : sources) {
            assertThat(tmp.resolve(p.toString())).doesNotExist();
            assertThat(ctx.refreshed().parts()).doesNotContainKey(p);
        }
        assertThat(ctx.refreshed().active()).hasSize(1);
        assertThat(ctx.partLog.lines())
                .filteredOn(line -> line.contains("\"event_type\":\"RemovePart\""))
                .hasSize(3);
    }

    @Test
    void aDeadWritersTemporaryDirectoryGoesAfterItsLifetimeAndAYoungClaimKeepsAMerge()
            throws Exception {
        TableLayout l = layout();
        TableStore store = LocalParts.store(tmp);
        TableOpener.checkOrCreate(store, l);
        TableContext ctx = new TableContext(store, l, clock);
        Cleanup cleanup = new Cleanup(ctx);
        // a writer that died after writing its temporary part, never committed
        String dead = write(l, store, rows(l, 0, 5)).get(0).temporaryDirectory();
        assertThat(cleanup.temporaryDirectories()).containsExactly(dead);

        // a merge that is running: files under its claimed name, no checksums.txt yet
        PartName running = new PartName("202401", 7, 9, 1, 0);
        Files.createDirectories(tmp.resolve(running.toString()));
        Files.writeString(tmp.resolve(running.toString()).resolve(PartFiles.COUNT), "3");
        store.createIfAbsent(
                TableKeys.claim(running),
                ("{\"writer\":\"w\",\"time\":" + clock.millis() + ",\"sources\":[]}")
                        .getBytes(StandardCharsets.UTF_8));

        clock.advance(Duration.ofHours(23));
        cleanup.run();
        assertThat(tmp.resolve(dead)).isDirectory();
        assertThat(tmp.resolve(running.toString())).isDirectory();

        clock.advance(Duration.ofHours(1).plusSeconds(1));
        cleanup.run();
        assertThat(tmp.resolve(dead)).doesNotExist();
        assertThat(tmp.resolve(running.toString())).doesNotExist();
        assertThat(store.exists(TableKeys.claim(running))).isFalse();
        assertThat(cleanup.temporaryDirectories()).isEmpty();
    }
}
