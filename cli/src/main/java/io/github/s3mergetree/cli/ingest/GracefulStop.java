package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.command.FailureMessages;
import java.io.PrintStream;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGTERM and SIGINT during one {@code ingest} run: whenever the signal comes, the command ends
 * with exit code 0 and the next run does the right thing.
 *
 * <ul>
 *   <li>before the job is submitted: the command stops there (nothing of a job was written);
 *   <li>while it is being submitted: the stop waits for the submission, then as below;
 *   <li>while the job runs: it is stopped with a savepoint (a last commit), from which the next run
 *       resumes. A stop-with-savepoint that fails (a checkpoint in progress, a task finishing or
 *       restarting, tasks of a bounded job already finished) is tried again every {@value
 *       #RETRY_SECONDS} s while the job runs, up to {@value #ATTEMPTS} times; a job that finishes
 *       meanwhile simply finished ("already finished"); only then is it cancelled, which keeps its
 *       checkpoints, and the next run resumes from the last one;
 *   <li>after the job ended: ignored; the command finishes its bookkeeping and exits.
 * </ul>
 *
 * <p>The handlers are installed for the run and the previous ones restored after it ({@link
 * #close}), so an in-process caller keeps its own. The command's own process installs {@link
 * #installForProcess process-wide handlers} first, so a signal just before a run installs its
 * handlers or just after it restored them is not fatal either.
 */
final class GracefulStop implements AutoCloseable {
    static final int ATTEMPTS = 10;
    static final int RETRY_SECONDS = 2;

    private enum Phase {
        PREPARING,
        SUBMITTING,
        RUNNING,
        ENDED
    }

    private final PrintStream err;
    private final AtomicBoolean requested = new AtomicBoolean();
    private final Map<String, SignalHandler> previous = new LinkedHashMap<>();
    private final CompletableFuture<Optional<String>> savepoint = new CompletableFuture<>();
    private Phase phase = Phase.PREPARING;
    private String signal = "TERM";
    private String savepointDirectory;
    private JobClient client;
    private CompletableFuture<?> result;
    private volatile boolean cancelled;

    /** A signal that came while no run's handlers were installed (process-wide handlers only). */
    private static final AtomicReference<String> pending = new AtomicReference<>();

    private GracefulStop(PrintStream err) {
        this.err = err;
    }

    /**
     * For the command's own process, from its start to its exit: SIGTERM and SIGINT outside a run's
     * handlers are noted instead of ending the JVM (exit code 143). One that comes before a run
     * installs its handlers stops that run before its job; one after the run lets the command
     * finish its bookkeeping and exit with the run's code.
     */
    static void installForProcess(PrintStream err) {
        for (String sig : List.of("TERM", "INT")) {
            try {
                Signal.handle(
                        new Signal(sig),
                        s -> {
                            if (pending.compareAndSet(null, s.getName())) {
                                err.println(
                                        "SIG"
                                                + s.getName()
                                                + ": noted; the command ends at its next safe"
                                                + " point");
                            }
                        });
            } catch (IllegalArgumentException e) {
                // not supported on this platform: the default handling applies
            }
        }
    }

    /** Installs the handlers of SIGTERM and SIGINT for this run. */
    static GracefulStop install(PrintStream err) {
        GracefulStop stop = new GracefulStop(err);
        String early = pending.getAndSet(null);
        if (early != null) {
            stop.requested.set(true);
            stop.signal = early;
        }
        for (String sig : List.of("TERM", "INT")) {
            try {
                stop.previous.put(sig, Signal.handle(new Signal(sig), stop::onSignal));
            } catch (IllegalArgumentException e) {
                // not supported on this platform: the default handling applies
            }
        }
        return stop;
    }

    /** Whether a stop was requested. */
    boolean requested() {
        return requested.get();
    }

    /** Which signal asked for the stop ({@code TERM} or {@code INT}). */
    String signalName() {
        return "SIG" + signal;
    }

    /** Where stop-with-savepoint writes (set once the ingest's state is known). */
    synchronized void setSavepointDirectory(String uri) {
        this.savepointDirectory = uri;
    }

    /**
     * Called before the job is submitted: false if a stop was requested (then nothing is
     * submitted); otherwise a stop requested from now on waits for {@link #submitted}.
     */
    synchronized boolean beginSubmit() {
        if (requested.get()) {
            return false;
        }
        phase = Phase.SUBMITTING;
        return true;
    }

    /** The job was submitted; a stop requested meanwhile starts now. */
    synchronized void submitted(JobClient client, CompletableFuture<?> result) {
        this.client = client;
        this.result = result;
        phase = Phase.RUNNING;
        if (requested.get()) {
            startStop();
        }
    }

    /** The job ended: later signals are ignored. */
    synchronized void ended() {
        phase = Phase.ENDED;
    }

    /** Whether the stop had to cancel the job (its savepoints kept failing). */
    boolean cancelled() {
        return cancelled;
    }

    /**
     * After the job ended: the savepoint a requested stop took, if any (empty: no stop was
     * requested, the job finished by itself before it could be stopped, or it was cancelled).
     */
    Optional<String> savepoint(Duration wait) throws InterruptedException {
        synchronized (this) {
            if (!requested.get() || client == null) {
                return Optional.empty();
            }
        }
        try {
            return savepoint.get(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            return Optional.empty();
        }
    }

    private synchronized void onSignal(Signal sig) {
        if (!requested.compareAndSet(false, true)) {
            return;
        }
        signal = sig.getName();
        switch (phase) {
            case PREPARING -> err.println(signalName() + ": stopping before the job starts");
            case SUBMITTING ->
                    err.println(
                            signalName()
                                    + ": the job is being submitted; stopping it with a savepoint"
                                    + " once it runs...");
            case RUNNING -> startStop();
            case ENDED -> err.println(signalName() + ": the job has already ended; finishing up");
        }
    }

    /** Stops the job with a savepoint, retrying, on a thread of its own. */
    private void startStop() {
        err.println(signalName() + ": stopping with a savepoint...");
        JobClient c = client;
        CompletableFuture<?> r = result;
        String dir = savepointDirectory;
        Thread t = new Thread(() -> stop(c, r, dir), "s3-mergetree-stop");
        t.setDaemon(true);
        t.start();
    }

    private void stop(JobClient c, CompletableFuture<?> r, String dir) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            if (r.isDone()) {
                savepoint.complete(Optional.empty());
                return;
            }
            try {
                String path =
                        c.stopWithSavepoint(false, dir, SavepointFormatType.CANONICAL)
                                .get(5, TimeUnit.MINUTES);
                err.println("savepoint: " + path);
                savepoint.complete(Optional.of(path));
                return;
            } catch (Exception e) {
                if (r.isDone() || awaitDone(r, Duration.ofMillis(200))) {
                    // the job ended meanwhile: finished, or failed on its own
                    savepoint.complete(Optional.empty());
                    return;
                }
                err.println(
                        "stop with savepoint failed (attempt "
                                + attempt
                                + " of "
                                + ATTEMPTS
                                + "): "
                                + FailureMessages.innermostMessage(e)
                                + (attempt < ATTEMPTS
                                        ? "; trying again in " + RETRY_SECONDS + " s"
                                        : ""));
                if (awaitDone(r, Duration.ofSeconds(RETRY_SECONDS))) {
                    savepoint.complete(Optional.empty());
                    return;
                }
            }
        }
        err.println(
                "cancelling the job instead; its checkpoints are kept and the next run resumes"
                        + " from the last one");
        cancelled = true;
        c.cancel();
        savepoint.complete(Optional.empty());
    }

    private static boolean awaitDone(CompletableFuture<?> r, Duration d) {
        try {
            r.get(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // ended with a failure: done all the same
        }
        return r.isDone();
    }

    /** Restores the previous handlers. */
    @Override
    public void close() {
        for (Map.Entry<String, SignalHandler> e : previous.entrySet()) {
            try {
                Signal.handle(new Signal(e.getKey()), e.getValue());
            } catch (IllegalArgumentException ex) {
                // as at install
            }
        }
    }
}
