package io.github.s3mergetree.sink.mergetree.writer;

import org.apache.flink.annotation.Internal;

/**
 * A writer's checkpointed state. The writer turns all its rows into temporary parts at every
 * checkpoint and hands them to the committer, so no rows live in state: this records who the writer
 * was (for diagnostics after a restore and for cleanup of a changed parallelism) and how much it
 * wrote.
 *
 * @param sinkId the sink id
 * @param subtask the writer's subtask index
 * @param checkpointId the checkpoint of this snapshot
 * @param rowsWritten rows the writer turned into parts so far (in this attempt)
 */
@Internal
public record MergeTreeWriterState(
        String sinkId, int subtask, long checkpointId, long rowsWritten) {}
