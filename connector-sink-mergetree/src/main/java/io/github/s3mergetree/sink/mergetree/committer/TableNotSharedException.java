package io.github.s3mergetree.sink.mergetree.committer;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The sink's writers do not write into one table: a local table path the TaskManagers do not share
 * (each host has its own directory of that name), found by the committer before a commit makes
 * anything visible. Restarting cannot help, so the job fails at once.
 */
@PublicEvolving
public final class TableNotSharedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message}, which names the table and the parts not seen. */
    public TableNotSharedException(String message) {
        super(message);
    }
}
