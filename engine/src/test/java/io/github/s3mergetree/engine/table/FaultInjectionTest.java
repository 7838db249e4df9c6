package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash injected at every step of insert, merge and removal: after reopening the table (and
 * replaying the interrupted insert with its dedup token, as a restarted writer does), every row is
 * there exactly once and every active part verifies.
 */
class FaultInjectionTest {
    @TempDir Path tmp;

    @AfterEach
    void uninstall() {
        FaultPoints.install(null);
    }

    private static final class Crash extends RuntimeException {
        Crash(String point) {
            super("injected crash at " + point);
        }
    }

    private static TableLayout layout() {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64, s String",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults().withOldPartsLifetime(Duration.ZERO),
                PartWriterOptions.defaults());
    }

    /** Every point of the engine's commit, publication, merge and removal paths. */
    private static final List<String> POINTS = FaultPoints.POINTS;

    private static S3ProxyServer server;
    private static int tables;

    @BeforeAll
    static void startS3() throws Exception {
        server = new S3ProxyServer();
        server.createBucket("faults");
    }

    @AfterAll
    static void stopS3() throws Exception {
        server.close();
    }

    static Stream<Arguments> storesAndPoints() {
        return Stream.of("posix", "s3")
                .flatMap(store -> POINTS.stream().map(point -> Arguments.of(store, point)));
    }

    @ParameterizedTest(name = "{0}: crash at {1}")
    @MethodSource("storesAndPoints")
    void theTableReloadsConsistentlyAfterACrashAt(String store, String point) throws Exception {
        String name = "t" + tables++;
        TableLayout l = layout();
        MergeTreeTable t =
                MergeTreeTable.open(
                        TestStores.of(store, tmp, server, "faults", name), l, Clock.systemUTC());
        for (int b = 0; b < 3; b++) {
            t.commit(t.writeTemporaryParts(InsertWorker.batch(l, b)), "batch-" + b);
        }
        int[] hits = {0};
        FaultPoints.install(
                p -> {
                    if (p.equals(point) && hits[0]++ == 0) {
                        throw new Crash(p);
                    }
                });
        // the step that crashes: an insert, a merge of everything, or the cleanup after it
        try {
            List<TemporaryPart> parts = t.writeTemporaryParts(InsertWorker.batch(l, 3));
            t.commit(parts, "batch-3");
            t.optimizeFinal(false);
            t.cleanup();
        } catch (Crash expected) {
            // the process "dies" here
        }
        assertThat(hits[0]).as("the fault point was reached").isEqualTo(1);
        FaultPoints.install(null);

        MergeTreeTable reopened =
                MergeTreeTable.open(
                        TestStores.of(store, tmp, server, "faults", name), l, Clock.systemUTC());
        // a restarted writer replays its last insert with the same token
        reopened.commit(reopened.writeTemporaryParts(InsertWorker.batch(l, 3)), "batch-3");
        assertExactlyOnce(reopened, 4);
        // and the table keeps working: merges and cleanup after the crash
        reopened.optimizeFinal(false);
        reopened.cleanup();
        assertExactlyOnce(reopened, 4);
        assertThat(reopened.activeParts()).hasSize(3);
        // what ClickHouse sees: exactly the active parts have checksums.txt
        List<String> visible = new ArrayList<>();
        for (String dir : reopened.store().listDirectories("")) {
            if (PartName.tryParse(dir).isPresent()
                    && reopened.store().exists(dir + "/checksums.txt")) {
                visible.add(dir);
            }
        }
        assertThat(visible)
                .containsExactlyInAnyOrderElementsOf(
                        reopened.activeParts().stream().map(p -> p.name().toString()).toList());
    }

    private static void assertExactlyOnce(MergeTreeTable t, int batches) throws Exception {
        BitSet seen = new BitSet();
        long rows = 0;
        for (ActivePart p : t.activeParts()) {
            PartReader r = PartReader.open(t.store(), p.name().toString());
            r.verify();
            Block b = r.read(List.of("id"));
            for (int i = 0; i < b.rows(); i++) {
                int id = (int) ((LongColumn) b.column(0)).get(i);
                assertThat(seen.get(id)).as("id %d twice", id).isFalse();
                seen.set(id);
                rows++;
            }
        }
        assertThat(rows).isEqualTo((long) batches * InsertWorker.ROWS_PER_BATCH);
    }

    @ParameterizedTest
    @ValueSource(strings = {"commit.after-record"})
    void aCrashedCommitIsNotCommittedTwiceByAReplay(String point) throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        FaultPoints.install(
                p -> {
                    if (p.equals(point)) {
                        throw new Crash(p);
                    }
                });
        assertThatThrownBy(() -> t.commit(t.writeTemporaryParts(InsertWorker.batch(l, 0)), "b0"))
                .isInstanceOf(Crash.class);
        FaultPoints.install(null);
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        assertThat(reopened.totalRows()).isEqualTo(InsertWorker.ROWS_PER_BATCH);
        reopened.commit(reopened.writeTemporaryParts(InsertWorker.batch(l, 0)), "b0");
        assertThat(reopened.totalRows()).isEqualTo(InsertWorker.ROWS_PER_BATCH);
    }

    /**
     * A writer killed after its commit was recorded but before its part log events were written:
     * the replay of the commit writes them, once — a second replay replaces them, it does not add
     * them again (an ingest's summary counts its rows from the part log).
     */
    @ParameterizedTest
    @ValueSource(strings = {"commit.before-part-log", "commit.after-record"})
    void theEventsOfACrashedCommitAreLoggedOnceByItsReplay(String point) throws Exception {
        TableLayout l = layout();
        MergeTreeTable t = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        t.commit(t.writeTemporaryParts(InsertWorker.batch(l, 0)), "b0");
        FaultPoints.install(
                p -> {
                    if (p.equals(point)) {
                        throw new Crash(p);
                    }
                });
        assertThatThrownBy(() -> t.commit(t.writeTemporaryParts(InsertWorker.batch(l, 1)), "b1"))
                .isInstanceOf(Crash.class);
        FaultPoints.install(null);
        long logged = newPartRows(t);
        assertThat(logged)
                .isEqualTo(
                        point.equals("commit.before-part-log")
                                ? InsertWorker.ROWS_PER_BATCH
                                : 2L * InsertWorker.ROWS_PER_BATCH);
        MergeTreeTable reopened = MergeTreeTable.open(LocalParts.store(tmp), l, Clock.systemUTC());
        for (int replay = 0; replay < 2; replay++) {
            reopened.commit(reopened.writeTemporaryParts(InsertWorker.batch(l, 1)), "b1");
            assertThat(newPartRows(reopened)).isEqualTo(2L * InsertWorker.ROWS_PER_BATCH);
        }
        assertThat(reopened.totalRows()).isEqualTo(2L * InsertWorker.ROWS_PER_BATCH);
    }

    private static long newPartRows(MergeTreeTable t) throws Exception {
        long rows = 0;
        for (String line : PartLog.of(t.store()).lines()) {
            if (line.contains("\"event_type\":\"NewPart\"")) {
                java.util.regex.Matcher m =
                        java.util.regex.Pattern.compile("\"rows\":(\\d+)").matcher(line);
                assertThat(m.find()).isTrue();
                rows += Long.parseLong(m.group(1));
            }
        }
        return rows;
    }
}
