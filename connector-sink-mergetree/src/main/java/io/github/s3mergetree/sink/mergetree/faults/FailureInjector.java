package io.github.s3mergetree.sink.mergetree.faults;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;

/**
 * A test hook: the writer and committer call it at the points where a crash matters, and a test's
 * implementation throws there to prove that no row is lost or written twice. Production sinks use
 * {@link #NONE}.
 */
@Internal
@VisibleForTesting
public interface FailureInjector extends Serializable {
    /** Where the sink is. */
    enum Point {
        /** The writer received a record. */
        WRITER_RECORD,
        /** The writer wrote the temporary parts of an insert block. */
        WRITER_PARTS_WRITTEN,
        /** The writer is about to hand over its committable. */
        WRITER_PREPARE_COMMIT,
        /** The committer is about to publish a committable. */
        COMMITTER_BEFORE_COMMIT,
        /** The committer published a committable and has not yet reported it. */
        COMMITTER_AFTER_COMMIT
    }

    /** Injects nothing. */
    FailureInjector NONE = (point, subtask, attempt) -> {};

    /**
     * Called at {@code point} by subtask {@code subtask} in its attempt {@code attempt}; throws to
     * simulate a crash.
     */
    void at(Point point, int subtask, int attempt) throws Exception;
}
