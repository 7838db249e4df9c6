package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;

/**
 * A writer's bookkeeping of what it hands the committer: the temporary parts written since the last
 * committable, the epoch (the checkpoint last snapshotted, or the restored one) that names new
 * temporary directories ({@link TempPartNames}), and the dedup tokens {@code
 * <sink-id>-<job>-<subtask>-<epoch>-<seq>}: unique within a job, and the same on a deterministic
 * re-execution of a bounded job, so its replayed commits are no-ops. After the end of the input one
 * last committable is made even without parts: it tells the committer this writer is done.
 */
@Internal
final class WriterCommittables {
    private final String sinkId;
    private final String jobId;
    private final int subtask;
    private final boolean deduplicate;
    private final List<TemporaryPart> pending = new ArrayList<>();
    private long epoch;
    private int seq;
    private boolean endOfInput;
    private boolean endOfInputCommitted;

    /**
     * The bookkeeping of writer {@code subtask} of sink {@code sinkId} (sanitized) in job {@code
     * jobId}, starting in epoch {@code epoch}; tokens only with {@code deduplicate}.
     */
    WriterCommittables(String sinkId, String jobId, int subtask, long epoch, boolean deduplicate) {
        this.sinkId = sinkId;
        this.jobId = jobId;
        this.subtask = subtask;
        this.epoch = epoch;
        this.deduplicate = deduplicate;
    }

    /** The purpose of the temporary parts written now ({@link TempPartNames#purpose}). */
    String purpose() {
        return TempPartNames.purpose(sinkId, subtask, epoch);
    }

    /** Records parts written, for the next committable. */
    void add(List<TemporaryPart> parts) {
        pending.addAll(parts);
    }

    /** Parts written since the last committable. */
    int pendingParts() {
        return pending.size();
    }

    /** Records the end of the input: the next committable is the writer's last. */
    void endOfInput() {
        endOfInput = true;
    }

    /** Whether {@link #next} has something to send: parts, or the end of the input. */
    boolean hasCommittable() {
        return !pending.isEmpty() || (endOfInput && !endOfInputCommitted);
    }

    /** The committable of the parts written since the last one; empty when there is none. */
    List<MergeTreeCommittable> next() {
        if (!hasCommittable()) {
            return List.of();
        }
        boolean last = endOfInput && !endOfInputCommitted;
        List<MergeTreeCommittable.PendingPart> parts = new ArrayList<>(pending.size());
        for (TemporaryPart p : pending) {
            parts.add(
                    new MergeTreeCommittable.PendingPart(
                            p.directory(),
                            p.partition().partitionId(),
                            p.files().rows(),
                            p.files().marks(),
                            p.files().bytesOnDisk(),
                            p.files().dataUncompressedBytes(),
                            p.files().bytesUncompressedInMemory()));
        }
        String token =
                deduplicate
                        ? sinkId + "-" + jobId + "-" + subtask + "-" + epoch + "-" + seq++
                        : null;
        pending.clear();
        endOfInputCommitted |= last;
        return List.of(new MergeTreeCommittable(token, parts, last, jobId));
    }

    /**
     * Starts epoch {@code checkpointId} (tokens count from 0 again in a new epoch) and returns the
     * writer's state, with {@code rowsWritten}.
     */
    MergeTreeWriterState snapshot(long checkpointId, long rowsWritten) {
        if (checkpointId != epoch) {
            epoch = checkpointId;
            seq = 0;
        }
        return new MergeTreeWriterState(sinkId, subtask, checkpointId, rowsWritten);
    }

    /** The parts never handed to the committer (at close: nobody will commit them). */
    List<TemporaryPart> uncommitted() {
        return List.copyOf(pending);
    }
}
