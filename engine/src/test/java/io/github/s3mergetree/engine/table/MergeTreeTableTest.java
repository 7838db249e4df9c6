package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MergeTreeTableTest {
    @TempDir Path tmp;

    private static final String STRUCTURE = "d Date, id UInt64, s String";

    private TableLayout layout(TableSettings settings) {
        return TestLayouts.of(
                "t",
                STRUCTURE,
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                settings,
                PartWriterOptions.defaults());
    }

    private static Block rows(TableLayout l, long from, int n) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", l.columnNames(), l.columnTypes(), ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(java.time.LocalDate.of(2024, 1 + (int) (i % 2), 1), i, "v" + i);
        }
        return b.build();
    }

    private static long rowsOnDisk(MergeTreeTable t) throws Exception {
        long sum = 0;
        for (ActivePart p : t.activeParts()) {
            PartReader r = LocalParts.open(LocalParts.root(t).resolve(p.name().toString()));
            r.verify();
            sum += r.readAll().rows();
        }
        return sum;
    }

    @Test
    void insertsBecomePartsPerPartitionAndTheSchedulerKeepsThePartCountLow() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        MergeScheduler scheduler =
                new MergeScheduler(
                        t,
                        new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults()),
                        Runnable::run,
                        2,
                        Clock.systemUTC());
        for (int i = 0; i < 60; i++) {
            assertThat(t.insert(rows(l, i * 100L, 100))).hasSize(2);
        }
        assertThat(t.totalRows()).isEqualTo(6000);
        assertThat(rowsOnDisk(t)).isEqualTo(6000);
        // 120 parts were inserted; merges of ~5 similar parts keep each partition small
        assertThat(t.activeParts()).hasSizeLessThan(30);
        assertThat(scheduler.mergesDone()).isGreaterThan(10);
        assertThat(t.partLog().lines())
                .anyMatch(line -> line.contains("\"event_type\":\"MergeParts\""))
                .anyMatch(line -> line.contains("\"event_type\":\"NewPart\""));
        t.optimizeFinal(false);
        assertThat(t.activeParts()).hasSize(2);
        assertThat(rowsOnDisk(t)).isEqualTo(6000);
        scheduler.close();
    }

    @Test
    void aReplayedCommitIsANoOpAndUncommittedPartsAreInvisible() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        List<TemporaryPart> parts = t.writeTemporaryParts(rows(l, 0, 10));
        assertThat(t.activeParts()).isEmpty();
        List<PartName> names = t.commit(parts, "checkpoint-1-subtask-0");
        assertThat(names).hasSize(2);
        // the same commit again (a replay after a failure): nothing new
        List<TemporaryPart> again = t.writeTemporaryParts(rows(l, 0, 10));
        assertThat(t.commit(again, "checkpoint-1-subtask-0")).isEqualTo(names);
        assertThat(t.totalRows()).isEqualTo(10);
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("tmp_"));
        }
    }

    @Test
    void anInterruptedCommitIsCompletedOnOpen() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        t.insert(rows(l, 100, 3));
        List<TemporaryPart> parts = t.writeTemporaryParts(rows(l, 0, 10));
        // a crash after the commit log entry was written, before the parts were published
        FaultPoints.install(
                p -> {
                    if (p.equals("commit.after-record")) {
                        throw new IllegalStateException("crash at " + p);
                    }
                });
        try {
            assertThatThrownBy(() -> t.commit(parts, "crashed"))
                    .hasMessageContaining("crash at commit.after-record");
        } finally {
            FaultPoints.install(null);
        }
        assertThat(partDirectories()).doesNotContain("202401_3_3_0", "202402_4_4_0");
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        assertThat(partDirectories()).contains("202401_3_3_0", "202402_4_4_0");
        assertThat(reopened.activeParts())
                .extracting(p -> p.name().toString())
                .contains("202401_3_3_0", "202402_4_4_0");
        assertThat(reopened.totalRows()).isEqualTo(13);
        assertThat(reopened.isCommitted("crashed")).isTrue();
        try (Stream<Path> s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("tmp_"));
        }
        // new block numbers continue after the recovered ones
        assertThat(reopened.insert(rows(l, 10, 2)).get(0).minBlock()).isGreaterThan(4);
    }

    private List<String> partDirectories() throws Exception {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> PartName.tryParse(n).isPresent())
                    .filter(n -> Files.exists(tmp.resolve(n).resolve("checksums.txt")))
                    .sorted()
                    .toList();
        }
    }

    @Test
    void mergedAwayPartsAreDeletedAfterOldPartsLifetime() throws Exception {
        MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
        TableLayout l =
                layout(TableSettings.defaults().withOldPartsLifetime(Duration.ofSeconds(480)));
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, clock);
        for (int i = 0; i < 3; i++) {
            t.insert(rows(l, i * 10L, 10));
        }
        t.optimizeFinal(false);
        assertThat(partDirectories()).hasSize(8);
        // lifetimes count from the merge's time in the commit log, on the table's clock
        Instant merged = clock.now;
        clock.now = merged.plusSeconds(10);
        assertThat(t.cleanup()).isEmpty();
        clock.now = merged.plusSeconds(481);
        assertThat(t.cleanup()).hasSize(6);
        assertThat(partDirectories()).hasSize(2);
        assertThat(t.totalRows()).isEqualTo(30);
    }

    @Test
    void tooManyPartsDelaysThenRefusesInserts() throws Exception {
        TableLayout l = layout(TableSettings.defaults().withPartsLimits(2, 4));
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        for (int i = 0; i < 4; i++) {
            t.insert(rows(l, i * 2L, 1));
        }
        assertThat(t.activePartsByPartition().get("202401")).hasSize(4);
        List<TemporaryPart> more = t.writeTemporaryParts(rows(l, 100, 1));
        assertThatThrownBy(() -> t.insertDelayMillis(more))
                .isInstanceOf(TooManyPartsException.class)
                .hasMessageContaining("Too many parts (4)")
                .hasMessageContaining("202401");
        assertThatThrownBy(() -> t.insert(rows(l, 100, 1)))
                .isInstanceOf(TooManyPartsException.class);
        assertThat(t.totalRows()).isEqualTo(4);
    }

    @Test
    void aTableDirectoryCreatedWithAnotherDdlIsRefused() throws Exception {
        MergeTreeTable.open(
                LocalParts.store(tmp), layout(TableSettings.defaults()), Clock.systemUTC());
        TableLayout other =
                TestLayouts.of(
                        "t",
                        "d Date, id UInt64, s String, x UInt8",
                        "id",
                        null,
                        MergingMode.ORDINARY,
                        TableSettings.defaults(),
                        PartWriterOptions.defaults());
        assertThatThrownBy(
                        () -> MergeTreeTable.open(LocalParts.store(tmp), other, Clock.systemUTC()))
                .hasMessageContaining("different DDL");
    }

    @Test
    void aBrokenPartIsDetachedWhenPartsAreChecked() throws Exception {
        TableLayout l = layout(TableSettings.defaults());
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        List<PartName> names = t.insert(rows(l, 0, 10));
        Path victim = tmp.resolve(names.get(0).toString()).resolve("id.bin");
        Files.write(victim, new byte[] {1, 2, 3});
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        assertThat(reopened.detachBrokenParts()).containsExactly(names.get(0));
        assertThat(reopened.activeParts()).hasSize(1);
        assertThat(tmp.resolve("detached").resolve("broken_" + names.get(0))).isDirectory();
        assertThat(
                        tmp.resolve("detached")
                                .resolve("broken_" + names.get(0))
                                .resolve("checksums.txt"))
                .isRegularFile();
        assertThat(tmp.resolve(names.get(0).toString())).doesNotExist();
        assertThat(reopened.detachBrokenParts()).isEmpty();
    }

    static final class MutableClock extends Clock {
        Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
