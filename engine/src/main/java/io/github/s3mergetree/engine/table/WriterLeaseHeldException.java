package io.github.s3mergetree.engine.table;

/**
 * A {@link WriterLease} is held by a live writer: another process (on this host or another) writes
 * the same table under the same name now. Its message is one line naming the table, the holder and
 * when the lease expires.
 */
public final class WriterLeaseHeldException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public WriterLeaseHeldException(String message) {
        super(message);
    }
}
