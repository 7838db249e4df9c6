package io.github.s3mergetree.cli.ingest;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Optional;

/**
 * The job a previous run of this ingest submitted to the same cluster ({@code --jobmanager}), which
 * may still run after its client was killed: this run waits for it instead of submitting a second
 * job from the same checkpoint (which would write rows twice), and adopts the previous run's writer
 * lease, under which that job commits.
 */
final class PreviousRemoteJob {
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

    private PreviousRemoteJob() {}

    /**
     * Whether this run may continue the job a previous run submitted to the same cluster: that job
     * commits under the previous run's lease, which this run then adopts.
     */
    static boolean continuedBy(IngestOptions o, IngestState state) {
        return o.jobmanager() != null && o.jobmanager().equals(state.lastJobManager().orElse(null));
    }

    /**
     * Waits for the previous job of this ingest on {@code o.jobmanager()} while it runs, printing
     * progress. Returns whether it finished the work.
     *
     * @throws StoppedWhileWaiting when a stop is requested while it waits (the job runs on; the
     *     next run waits for it again)
     */
    static boolean await(
            IngestOptions o,
            IngestState state,
            GracefulStop stop,
            IngestReport report,
            TableProgress progress,
            long logStart,
            PrintStream err)
            throws Exception {
        if (state.lastJobId().isEmpty() || !continuedBy(o, state)) {
            return false;
        }
        String id = state.lastJobId().get();
        RemoteJobs jobs = new RemoteJobs(o.jobmanager());
        Optional<String> st = jobs.state(id);
        if (st.isEmpty() || RemoteJobs.TERMINAL.contains(st.get())) {
            return false;
        }
        err.println(
                "the previous job of this ingest, "
                        + id
                        + ", is still "
                        + st.get()
                        + " on "
                        + o.jobmanager()
                        + ": waiting for it instead of starting another");
        long nextProgress = 0;
        report.readFrom(new RestReadProgress(o.jobmanager(), id));
        while (st.isPresent() && !RemoteJobs.TERMINAL.contains(st.get())) {
            if (stop.requested()) {
                err.println(
                        "stopped waiting ("
                                + stop.signalName()
                                + "); job "
                                + id
                                + " still runs on "
                                + o.jobmanager()
                                + ", and the next run waits for it again");
                throw new StoppedWhileWaiting();
            }
            Thread.sleep(POLL.toMillis());
            if (System.nanoTime() >= nextProgress) {
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
                report.progress(progress.snapshot(logStart), null, java.time.Instant.now());
            }
            st = jobs.state(id);
        }
        err.println("job " + id + " ended " + st.orElse("(unknown to the cluster)"));
        return st.isPresent() && st.get().equals("FINISHED");
    }
}
