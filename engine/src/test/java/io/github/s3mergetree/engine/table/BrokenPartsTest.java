package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.merge.MergeScheduler;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A part whose content is damaged (one byte flipped in a compressed block, a mark file, {@code
 * primary.idx} or {@code checksums.txt}) fails the merges that include it; it is then moved to
 * {@code detached/broken_<name>} with a part log record, and the merges of the other parts go on:
 * the table keeps exactly the rows of its intact parts.
 */
class BrokenPartsTest {
    @TempDir Path tmp;

    private static final String STRUCTURE = "d Date, id UInt64, s String";

    private static TableLayout layout() {
        return TestLayouts.of(
                "t",
                STRUCTURE,
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults(),
                PartWriterOptions.defaults());
    }

    /** {@code n} rows of one partition (January 2024). */
    private static Block rows(TableLayout l, long from, int n) {
        RowBlockBuilder b =
                new RowBlockBuilder("t", l.columnNames(), l.columnTypes(), ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(LocalDate.of(2024, 1, 1 + (int) (i % 28)), i, "value-" + i * 7919);
        }
        return b.build();
    }

    /** The ids of every active part, read and verified. */
    private static List<Long> ids(MergeTreeTable t) throws Exception {
        List<Long> out = new ArrayList<>();
        for (ActivePart p : t.activeParts()) {
            PartReader r = PartReader.open(t.store(), p.name().toString());
            r.verify();
            Block b = r.readAll();
            for (int i = 0; i < b.rows(); i++) {
                out.add(((io.github.s3mergetree.engine.column.LongColumn) b.column(1)).get(i));
            }
        }
        out.sort(Long::compare);
        return out;
    }

    /** The file of the part that the flip damages: a suffix picks it among the part's files. */
    /** The file of the part that the flip damages ({@code "marks"}: the marks of column s). */
    private static Path victimFile(Path part, String which) throws Exception {
        try (Stream<Path> s = Files.list(part)) {
            return s.filter(
                            p -> {
                                String n = p.getFileName().toString();
                                return which.equals("marks")
                                        ? n.startsWith("s.") && n.contains("mrk")
                                        : n.equals(which);
                            })
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + which + " in " + part));
        }
    }

    private static void flipByte(Path f) throws Exception {
        byte[] b = Files.readAllBytes(f);
        int at = b.length / 2;
        b[at] ^= 0x5A;
        Files.write(f, b);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s.bin", "marks", "primary.idx", "checksums.txt"})
    void aDamagedPartIsDetachedAndTheOtherPartsMergeOn(String which) throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        List<PartName> parts = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            parts.addAll(t.insert(rows(l, k * 1000L, 1000)));
        }
        assertThat(parts).hasSize(3);
        PartName victim = parts.get(1);
        Path victimDir = tmp.resolve(victim.toString());
        flipByte(victimFile(victimDir, which));

        // the merge of all three fails on the damaged one, which is detached: nothing published
        assertThat(t.merge(parts, new PartMerger.Progress())).isNull();
        assertThat(victimDir).doesNotExist();
        assertThat(tmp.resolve("detached").resolve("broken_" + victim)).isDirectory();
        assertThat(t.partsDetachedBroken()).isEqualTo(1);
        assertThat(t.partLog().lines())
                .anySatisfy(
                        line ->
                                assertThat(line)
                                        .contains("\"event_type\":\"RemovePart\"")
                                        .contains("\"part_name\":\"" + victim + "\"")
                                        .contains(
                                                "detached as broken to detached/broken_" + victim));
        assertThat(t.activeParts())
                .extracting(ActivePart::name)
                .containsExactly(parts.get(0), parts.get(2));

        // inserts go on, and the scheduler merges the intact parts with the new one
        t.insert(rows(l, 3000, 1000));
        assertThat(t.optimizeFinal(false)).hasSize(1);
        assertThat(t.activeParts()).hasSize(1);
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 4000; i++) {
            if (i < 1000 || i >= 2000) {
                expected.add(i);
            }
        }
        assertThat(ids(t)).isEqualTo(expected);

        // reopening finds nothing more to detach and the same rows
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        assertThat(reopened.partsDetachedBroken()).isZero();
        assertThat(ids(reopened)).isEqualTo(expected);
    }

    /** The background merges find the damaged part, detach it and keep the part count low. */
    @org.junit.jupiter.api.Test
    void theMergeSchedulerDetachesADamagedPartAndMergesOn() throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        List<PartName> parts = new ArrayList<>();
        for (int k = 0; k < 5; k++) {
            parts.addAll(t.insert(rows(l, k * 100L, 100)));
        }
        flipByte(victimFile(tmp.resolve(parts.get(2).toString()), "s.bin"));
        MergeScheduler scheduler =
                new MergeScheduler(
                        t,
                        new SimpleMergeSelector(SimpleMergeSelector.Settings.defaults()),
                        Runnable::run,
                        1,
                        Clock.systemUTC());
        for (int k = 5; k < 40; k++) {
            t.insert(rows(l, k * 100L, 100));
        }
        assertThat(t.partsDetachedBroken()).isEqualTo(1);
        assertThat(tmp.resolve("detached").resolve("broken_" + parts.get(2))).isDirectory();
        assertThat(scheduler.mergesDone()).isGreaterThan(3);
        assertThat(t.activeParts()).hasSizeLessThan(15);
        List<Long> ids = ids(t);
        assertThat(ids).hasSize(3900).doesNotContain(200L, 299L).contains(199L, 300L, 3999L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"s.bin"})
    void aDamagedPartFoundByOptimizeFinalIsDetachedAndTheRestMerged(String which) throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        List<PartName> parts = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
            parts.addAll(t.insert(rows(l, k * 500L, 500)));
        }
        flipByte(victimFile(tmp.resolve(parts.get(0).toString()), which));
        assertThat(t.optimizeFinal(false)).isEmpty(); // the broken part was found and detached
        assertThat(t.optimizeFinal(false)).hasSize(1);
        assertThat(t.activeParts()).hasSize(1);
        assertThat(ids(t)).hasSize(1500).doesNotContain(0L, 499L).contains(500L, 1999L);
    }

    /**
     * A part whose commit entry is in the log while its publication is not done (another writer is
     * copying it, or crashed in between) has no {@code checksums.txt} yet: the check completes the
     * publication instead of detaching it as broken (which lost the rows of such commits when a
     * restarted job's merge coordinator ran the check while a committer published).
     */
    @org.junit.jupiter.api.Test
    void aCommittedPartWhosePublicationIsNotDoneIsCompletedNotDetached() throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        t.insert(rows(l, 0, 500));
        MergeTreeTable other = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        FaultPoints.install(
                point -> {
                    if (point.equals("commit.after-record")) {
                        throw new IllegalStateException("crash after the commit entry");
                    }
                });
        try {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                            () -> other.insert(rows(l, 500, 500)))
                    .hasMessageContaining("crash after the commit entry");
        } finally {
            FaultPoints.install(null);
        }
        assertThat(t.activeParts()).hasSize(2);
        PartName unpublished = t.activeParts().get(1).name();
        assertThat(tmp.resolve(unpublished.toString()).resolve("checksums.txt")).doesNotExist();

        assertThat(t.detachBrokenParts()).isEmpty();
        assertThat(tmp.resolve(unpublished.toString()).resolve("checksums.txt")).exists();
        assertThat(tmp.resolve("detached")).doesNotExist();
        assertThat(ids(t)).hasSize(1000).contains(0L, 999L);
    }
}
