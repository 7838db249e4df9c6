package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGTERM at ten moments spread over a bounded {@code ingest} (a child JVM, as an operator runs
 * it): right after the input is listed, while the MiniCluster starts, just after the job is
 * submitted, at its first commit, at a quarter, half and three quarters of the rows, when every row
 * is committed (the final checkpoint and merges still running) and a quarter second later, and
 * while the command finishes its bookkeeping. Each time the command exits 0 — stopped before the
 * job, stopped with a savepoint, or already finished — and the next run of the same command
 * finishes the ingest with every row exactly once (ClickHouse judges).
 */
class IngestSigtermTest {
    /** Enough objects for commits all through the run; GETs throttled so the run lasts. */
    static final int OBJECTS = 12;

    static final long ROWS_PER_OBJECT = 1500;
    static final int RPS = 4;

    @TempDir Path tmp;

    /** A moment: when {@code at} holds for the child's stderr and committed rows, plus a delay. */
    record Moment(String name, Predicate<State> at, long delayMillis) {}

    record State(String err, long committed, long total) {}

    @Test
    void sigtermAtTenMomentsExitsZeroAndTheNextRunFinishesExactly() throws Exception {
        try (IngestFixture fx = new IngestFixture(tmp)) {
            fx.addFiles(OBJECTS, ROWS_PER_OBJECT);
            long total = fx.rowsWritten();
            List<Moment> moments =
                    List.of(
                            new Moment("input listed", s -> s.err().contains("input: "), 0),
                            new Moment("cluster starting", s -> s.err().contains("input: "), 400),
                            new Moment("job submitted", s -> s.err().contains("job "), 0),
                            new Moment("first commit", s -> s.committed() > 0, 0),
                            new Moment("a quarter", s -> s.committed() >= s.total() / 4, 0),
                            new Moment("half", s -> s.committed() >= s.total() / 2, 0),
                            new Moment(
                                    "three quarters", s -> s.committed() >= s.total() * 3 / 4, 0),
                            new Moment("every row committed", s -> s.committed() >= s.total(), 0),
                            // the case (all rows committed, the final checkpoint or merges
                            // still running): a moment later than the one before
                            new Moment(
                                    "just after every row committed",
                                    s -> s.committed() >= s.total(),
                                    250),
                            new Moment("finishing", s -> s.err().contains("done: "), 0));
            int signalledAlive = 0;
            List<String> outcomes = new ArrayList<>();
            for (int i = 0; i < moments.size(); i++) {
                Moment m = moments.get(i);
                Path table = tmp.resolve("table-" + i);
                List<String> args =
                        fx.ingestArgs(
                                table,
                                "--checkpoint-interval",
                                "1s",
                                "--setting",
                                "s3_max_get_rps=" + RPS);
                String name = "run-" + i;
                Process p = fx.startChild(args, name);
                State at;
                try {
                    at = awaitMoment(fx, p, name, table, total, m);
                    if (at != null) {
                        p.destroy(); // SIGTERM
                    }
                    assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(m.name()).isTrue();
                } finally {
                    p.destroyForcibly();
                }
                String err = fx.childErr(name);
                assertThat(p.exitValue()).as("%s, stderr:\n%s", m.name(), err).isZero();
                assertThat(err).as(m.name()).doesNotContain("\tat ");
                if (at != null) {
                    signalledAlive++;
                    // once the command printed its last lines it may exit before the signal
                    // is handled (nothing to say then); before that it always says what it did
                    if (!at.err().contains("done: ")) {
                        assertThat(err)
                                .as(m.name())
                                .containsAnyOf(
                                        "stopped before the job started",
                                        "savepoint: ",
                                        "already finished its input",
                                        "the job has already ended",
                                        "SIGTERM: noted; the command ends at its next safe point",
                                        "stopped: the job was cancelled after its last checkpoint");
                    }
                }
                outcomes.add(
                        m.name()
                                + (at == null
                                        ? ""
                                        : String.format(
                                                Locale.ROOT,
                                                " (%,d of %,d rows committed)",
                                                at.committed(),
                                                total))
                                + ": "
                                + outcome(err, at != null));

                // the next run of the same command does the right thing
                IngestFixture.Result next = IngestFixture.runInProcess(args);
                assertThat(next.code()).as("%s, rerun:\n%s", m.name(), next.err()).isZero();
                assertThat(next.field("rows")).as(m.name()).isEqualTo(total);
                assertThat(IngestFixture.tableRows(table)).as(m.name()).isEqualTo(total);
                if (i == 2 || i == 5 || i == 8) {
                    fx.assertEqualToClickHouse(table);
                }
            }
            System.out.println("SIGTERM outcomes:\n  " + String.join("\n  ", outcomes));
            // the moments are spread over the run: nearly all of them found it running
            assertThat(signalledAlive).as(String.join("; ", outcomes)).isGreaterThanOrEqualTo(8);
        }
    }

    private static String outcome(String err, boolean alive) {
        if (!alive) {
            return "ended before the moment";
        }
        if (err.contains("stopped before the job started")) {
            return "stopped before the job";
        }
        if (err.contains("savepoint: ")) {
            return "stopped with a savepoint";
        }
        if (err.contains("cancelled after its last checkpoint")) {
            return "cancelled after retries";
        }
        if (err.contains("SIGTERM: noted")) {
            return "noted while the command finished";
        }
        return "already finished";
    }

    /** Waits for the moment; what the child had done then, or null when it ended first. */
    private static State awaitMoment(
            IngestFixture fx, Process p, String name, Path table, long total, Moment m)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (p.isAlive()) {
            State now = state(fx, name, table, total);
            if (m.at().test(now)) {
                if (m.delayMillis() > 0) {
                    Thread.sleep(m.delayMillis());
                    now = state(fx, name, table, total);
                }
                return p.isAlive() ? now : null;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for the moment " + m.name());
            }
            Thread.sleep(20);
        }
        return null;
    }

    private static State state(IngestFixture fx, String name, Path table, long total)
            throws IOException {
        String err = Files.exists(fx.root.resolve(name + ".err")) ? fx.childErr(name) : "";
        return new State(err, committed(table), total);
    }

    private static long committed(Path table) {
        try {
            return new TableProgress(table).snapshot(0).rows();
        } catch (Exception e) {
            return 0;
        }
    }
}
