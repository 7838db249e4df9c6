package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.command.FailureMessages;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;

/**
 * Waits for a submitted ingest job to end, noting when it started reading (the summary's zero) and
 * asking for a progress line every 2 s; a job that fails ends the wait with {@link JobFailed}.
 */
final class JobCompletion {
    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration POLL_UNTIL_RUNNING = Duration.ofMillis(10);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

    private JobCompletion() {}

    /** Prints a progress line, given when the job started reading (null: not yet). */
    @FunctionalInterface
    interface Progress {
        void print(Instant readingStart) throws IOException;
    }

    /** The job ended with a failure (not a stop); the message names the innermost cause. */
    static final class JobFailed extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        JobFailed(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Waits for {@code result}, the job's end; returns when the job started reading (when it ended,
     * if it never was seen running).
     *
     * @param progress called every 2 s with the reading start (null until the job runs)
     * @throws JobFailed if the job failed, seen when its end is noticed between two polls
     * @throws ExecutionException if the job failed, seen while a poll waited for its end
     */
    static Instant await(JobClient client, CompletableFuture<?> result, Progress progress)
            throws InterruptedException, ExecutionException, IOException {
        Instant readingStart = null;
        long nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
        while (!result.isDone()) {
            try {
                // until the job runs, poll often: its start of reading is the summary's
                // zero, and a late one would shorten the measured seconds (by up to POLL)
                Duration wait = readingStart == null ? POLL_UNTIL_RUNNING : POLL;
                result.get(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // poll
            }
            if (readingStart == null && !result.isDone()) {
                try {
                    JobStatus st = client.getJobStatus().get(10, TimeUnit.SECONDS);
                    if (st == JobStatus.RUNNING) {
                        readingStart = Instant.now();
                    }
                } catch (Exception e) {
                    // the status is best effort; the result decides
                }
            }
            if (System.nanoTime() >= nextProgress) {
                nextProgress = System.nanoTime() + PROGRESS_EVERY.toNanos();
                progress.print(readingStart);
            }
        }
        try {
            result.get();
        } catch (ExecutionException e) {
            throw new JobFailed(
                    "the job failed: " + FailureMessages.innermostMessage(e.getCause()),
                    e.getCause());
        }
        return readingStart == null ? Instant.now() : readingStart;
    }
}
