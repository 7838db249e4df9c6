package io.github.s3mergetree.sink.mergetree.writer;

import org.apache.flink.annotation.PublicEvolving;

/**
 * The sink's subtasks do not write into one table: a local table path the TaskManagers do not share
 * (see {@link SharedTableCheck}). Restarting cannot help, so the job fails at once, before anything
 * is committed.
 */
@PublicEvolving
public final class TableNotSharedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public TableNotSharedException(String message) {
        super(message);
    }
}
