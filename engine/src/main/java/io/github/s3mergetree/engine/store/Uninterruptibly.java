package io.github.s3mergetree.engine.store;

import java.io.IOException;

/**
 * Runs clean-up I/O (removing an abandoned temporary part, aborting an upload) with the calling
 * thread's interrupt status cleared, and sets it again afterwards.
 *
 * <p>Why: Flink interrupts the threads of a cancelled task, and the S3 client refuses every request
 * of an interrupted thread (its retries back off with an interruptible sleep), so a clean-up on
 * such a thread did nothing and left the abandoned part's {@code tmp_*} objects in the table.
 * Clean-up is short and bounded by the client's own timeouts; the interrupt still reaches the
 * caller afterwards.
 */
public final class Uninterruptibly {
    private Uninterruptibly() {}

    /** An I/O action. */
    @FunctionalInterface
    public interface IoAction {
        /** Does the action. */
        void run() throws IOException;
    }

    /** Runs {@code action} without the interrupt status; the status is restored afterwards. */
    public static void run(IoAction action) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            action.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
