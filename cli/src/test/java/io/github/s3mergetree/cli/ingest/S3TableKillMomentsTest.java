package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.FaultPoints;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest} into an {@code s3://} table killed dead at 14 moments, each followed
 * by a rerun of the same ingest that must end exact: once with SIGKILL while the first insert's
 * temporary part is being written, then at every point of the table's protocol {@link
 * FaultPoints#POINTS} — the commit record, the part log, each step of a publication (copy,
 * checksums.txt, clean-up), a merge before its lock, before and after its publication, and the
 * removal of outdated parts before, during and after their files go — by halting the JVM there
 * ({@code Runtime.halt}: no finally blocks, no shutdown hooks, as kill -9). Each round ingests new
 * objects; after each rerun the table's active parts hold every row written so far once, and at the
 * end ClickHouse (chDB) attaches the table in place from the S3 server: CHECK TABLE passes and
 * count, uniqExact(Id) and RowsHash equal its own insert of the same files.
 *
 * <p>Tagged heavy (about 6 minutes): run by {@code mvn -Pheavy-tests verify -pl cli}, which CI
 * runs.
 */
@Tag("heavy")
class S3TableKillMomentsTest {
    private static final String PREFIX = "tables/kill";
    private static final String TABLE = "s3://" + IngestFixture.BUCKET + "/" + PREFIX;

    /** Outdated parts removed at the next clean-up: the removal points are reached in one run. */
    private static final String DDL = PostsGenerator.DDL + " SETTINGS old_parts_lifetime = 0";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path tmp;

    @Test
    void everyRerunAfterAKillEndsExact() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            Files.writeString(fx.ddlFile, DDL);
            List<String> moments = new ArrayList<>();
            moments.add("sigkill-while-inserting");
            moments.addAll(FaultPoints.POINTS);
            int round = 0;
            for (String moment : moments) {
                String prefix = "r" + round;
                fx.addFiles(prefix, 4, 1000);
                List<String> args = args(fx, prefix, moment.startsWith("remove."));
                String name = "killed-" + round;
                if (moment.equals("sigkill-while-inserting")) {
                    killWhileInserting(fx, args, name);
                } else {
                    Process killed =
                            fx.startChild(
                                    args,
                                    name,
                                    List.of(
                                            "-D" + FaultPoints.HALT_AT_PROPERTY + "=" + moment,
                                            "-Ds3mergetree.log.file="
                                                    + tmp.resolve(name + ".log")));
                    try {
                        assertThat(killed.waitFor(4, TimeUnit.MINUTES)).as(name).isTrue();
                    } finally {
                        killed.destroyForcibly();
                    }
                    assertThat(killed.exitValue())
                            .as("ingest halted at %s: %s", moment, fx.childErr(name))
                            .isEqualTo(137);
                    assertThat(fx.childErr(name)).contains("halting at " + moment);
                }
                IngestFixture.Result rerun = IngestFixture.runInProcess(args);
                assertThat(rerun.code())
                        .as("rerun after a kill at %s: %s", moment, rerun.err())
                        .isZero();
                assertThat(activeRows(fx))
                        .as("rows in the table after a kill at %s and a rerun", moment)
                        .isEqualTo(fx.rowsWritten());
                round++;
            }
            fx.assertS3TableEqualToClickHouse(PREFIX);
        }
    }

    /**
     * The round's ingest: its own objects, small insert blocks (many parts, so merges run), merges
     * looked for every 100 ms, OPTIMIZE FINAL at the end; for the removal points objects read
     * slowly so that the run outlives its first merges' clean-up.
     */
    private static List<String> args(IngestFixture fx, String prefix, boolean slow) {
        List<String> extra =
                new ArrayList<>(
                        List.of(
                                "--checkpoint-interval",
                                "1s",
                                "--setting",
                                "min_insert_block_size_rows=250",
                                "--setting",
                                "merge_selecting_sleep_ms=100",
                                "--optimize-final"));
        if (slow) {
            extra.addAll(List.of("--setting", "s3_max_get_rps=2"));
        }
        List<String> a = new ArrayList<>(fx.ingestArgs(TABLE, extra.toArray(String[]::new)));
        a.set(
                a.indexOf("--source") + 1,
                "s3://" + IngestFixture.BUCKET + "/" + prefix + "/*.parquet");
        return a;
    }

    /** SIGKILL as soon as an object of a temporary insert part is in the bucket. */
    private static void killWhileInserting(IngestFixture fx, List<String> args, String name)
            throws Exception {
        List<String> slow = new ArrayList<>(args);
        slow.addAll(List.of("--setting", "s3_max_get_rps=1"));
        Process p = fx.startChild(slow, name);
        Path table = fx.store.resolve(IngestFixture.BUCKET).resolve(PREFIX);
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
        try {
            while (!temporaryPartObjectExists(table)) {
                assertThat(p.isAlive()).as("still running: %s", fx.childErr(name)).isTrue();
                assertThat(System.nanoTime())
                        .as("a temporary part's object: %s", fx.childErr(name))
                        .isLessThan(deadline);
                Thread.sleep(5);
            }
        } finally {
            p.destroyForcibly(); // SIGKILL
            p.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(p.exitValue()).isEqualTo(137);
    }

    private static boolean temporaryPartObjectExists(Path table) throws IOException {
        if (!Files.isDirectory(table)) {
            return false;
        }
        try (Stream<Path> dirs = Files.list(table)) {
            for (Path d : dirs.toList()) {
                if (d.getFileName().toString().startsWith("tmp_")) {
                    try (Stream<Path> files = Files.list(d)) {
                        if (files.findAny().isPresent()) {
                            return true;
                        }
                    } catch (java.nio.file.NoSuchFileException gone) {
                        // published or removed meanwhile
                    }
                }
            }
        }
        return false;
    }

    /** Rows in the table's active parts, read through the S3 server. */
    private static long activeRows(IngestFixture fx) throws IOException {
        try (TableStore s = fx.s3TableStore(TABLE)) {
            MergeTreeTable t = MergeTreeTable.open(s, TableLayouts.fromDdl(DDL), Clock.systemUTC());
            long rows = 0;
            for (ActivePart p : t.activeParts()) {
                rows += p.rows();
            }
            return rows;
        }
    }
}
