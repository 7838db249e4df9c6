package io.github.s3mergetree.sink.mergetree.committer;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.CommitResult;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.MissingTemporaryPartException;
import io.github.s3mergetree.engine.table.PendingInsert;
import io.github.s3mergetree.engine.table.WriterFencedException;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes committables through the engine alone: {@link MergeTreeTable#commitPending} appends the
 * commit to the table's log (block numbers, the dedup token) and publishes the temporary parts. The
 * engine checks, in the same attempt as the append, whether the token was committed already (a
 * replay after a failure is then a no-op, and temporary directories a replayed writer recreated are
 * removed) and whether every temporary part is in the table's store.
 *
 * <p>Failures: an I/O error is retried by Flink ({@code retryLater}, up to {@code
 * sink.committer.retries}); a committable whose temporary parts are not in the store although the
 * table has no record of its token ({@link MissingTemporaryPartException}: a local table path the
 * TaskManagers do not share, or parts removed by someone else) fails the job loudly before anything
 * of it becomes visible.
 */
@Internal
public final class MergeTreeCommitter implements Committer<MergeTreeCommittable> {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeCommitter.class);

    private final MergeTreeTable table;
    private final FailureInjector failures;
    private final int subtask;
    private final int attempt;
    private final Counter partsCommitted;
    private final Counter rowsCommitted;
    private final Counter commitsReplayed;
    private final String sinkId;
    private final boolean optimizeFinal;
    private final boolean checkShared;

    /** The job whose writers must be registered before the first commit (checked once). */
    private final String jobId;

    private boolean writersVerified;

    /**
     * A committer of {@code table}.
     *
     * @param sinkId the sink's id (names its temporary parts)
     * @param optimizeFinal whether the committer that commits the last end-of-input committable
     *     runs OPTIMIZE FINAL
     * @param checkShared whether to prove, before each commit call, that this committer sees every
     *     temporary part to publish, and before the first of job {@code jobId}'s committables,
     *     every writer of that job ({@link SharedTableCheck}; for local tables)
     * @param jobId the job's id (the writers register under it; used when {@code checkShared})
     */
    public MergeTreeCommitter(
            MergeTreeTable table,
            String sinkId,
            boolean optimizeFinal,
            boolean checkShared,
            String jobId,
            FailureInjector failures,
            int subtask,
            int attempt,
            MetricGroup metrics) {
        this.table = table;
        this.sinkId = sinkId;
        this.optimizeFinal = optimizeFinal;
        this.checkShared = checkShared;
        this.jobId = jobId;
        this.failures = failures;
        this.subtask = subtask;
        this.attempt = attempt;
        this.partsCommitted = metrics.counter("partsCommitted");
        this.rowsCommitted = metrics.counter("rowsCommitted");
        this.commitsReplayed = metrics.counter("commitsReplayed");
    }

    @Override
    public void commit(Collection<CommitRequest<MergeTreeCommittable>> requests)
            throws IOException, InterruptedException {
        if (checkShared) {
            verifyShared(requests);
        }
        for (CommitRequest<MergeTreeCommittable> request : requests) {
            MergeTreeCommittable c = request.getCommittable();
            try {
                inject(FailureInjector.Point.COMMITTER_BEFORE_COMMIT);
                CommitResult result = table.commitPending(pending(c), c.token());
                if (result.replayed()) {
                    commitsReplayed.inc();
                    LOG.info("Commit {} was already made; replay is a no-op", c.token());
                    request.signalAlreadyCommitted();
                } else {
                    partsCommitted.inc(result.names().size());
                    rowsCommitted.inc(c.rows());
                    LOG.debug(
                            "Committed {} as {} (log entry {})",
                            c.token(),
                            result.names(),
                            result.sequence());
                    inject(FailureInjector.Point.COMMITTER_AFTER_COMMIT);
                }
                if (c.endOfInput()) {
                    finishIfLast();
                }
            } catch (MissingTemporaryPartException e) {
                request.signalFailedWithUnknownReason(e);
            } catch (WriterFencedException e) {
                // another writer took the lease over and resumes this work: never retried
                throw new org.apache.flink.runtime.execution.SuppressRestartsException(e);
            } catch (IOException e) {
                if (Thread.currentThread().isInterrupted()
                        || e instanceof java.nio.channels.ClosedByInterruptException
                        || e instanceof java.io.InterruptedIOException) {
                    // the task is being cancelled: the commit is retried after the restore
                    InterruptedException ie =
                            new InterruptedException("interrupted while committing " + c.token());
                    ie.initCause(e);
                    throw ie;
                }
                LOG.warn("Commit {} failed, retrying later", c.token(), e);
                request.retryLater();
            } catch (InterruptedException e) {
                throw e;
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            }
        }
    }

    /**
     * Fails the job, restarts suppressed, when this committer does not see the temporary parts of
     * the commits not made yet: restarting cannot make the directory shared.
     */
    private void verifyShared(Collection<CommitRequest<MergeTreeCommittable>> requests)
            throws IOException {
        List<MergeTreeCommittable> unmade = new ArrayList<>(requests.size());
        for (CommitRequest<MergeTreeCommittable> request : requests) {
            MergeTreeCommittable c = request.getCommittable();
            if (c.token() == null || !table.isCommitted(c.token())) {
                unmade.add(c);
            }
        }
        if (unmade.isEmpty()) {
            return;
        }
        try {
            if (!writersVerified && ofThisJob(unmade)) {
                SharedTableCheck.verifyWriters(table, sinkId, jobId, unmade.size());
                writersVerified = true;
            }
            SharedTableCheck.verify(table, sinkId, unmade);
        } catch (TableNotSharedException e) {
            throw new org.apache.flink.runtime.execution.SuppressRestartsException(e);
        }
    }

    /**
     * Whether one of {@code unmade} was made by this job's writers. Committables restored from an
     * earlier job's checkpoint or savepoint are committed (at the committer's state restore) before
     * this job's writers may have registered, and that job's registrations may be overwritten
     * already: for them only the parts are checked.
     */
    private boolean ofThisJob(List<MergeTreeCommittable> unmade) {
        for (MergeTreeCommittable c : unmade) {
            if (jobId != null && jobId.equals(c.jobId())) {
                return true;
            }
        }
        return false;
    }

    private static List<PendingInsert> pending(MergeTreeCommittable c) {
        List<PendingInsert> out = new ArrayList<>(c.parts().size());
        for (MergeTreeCommittable.PendingPart p : c.parts()) {
            out.add(
                    new PendingInsert(
                            p.directoryName(),
                            p.partitionId(),
                            p.rows(),
                            p.bytesOnDisk(),
                            p.dataUncompressedBytes()));
        }
        return out;
    }

    private void inject(FailureInjector.Point p) throws Exception {
        failures.at(p, subtask, attempt);
    }

    /**
     * After an end-of-input commit: if no temporary part of this sink is left (every writer's input
     * ended and everything is committed), this is the last commit of the job, and with {@code
     * optimize_final} every partition is merged into one part. It runs here, not in the merge
     * coordinator, because in STREAMING execution the last commits happen at the final checkpoint,
     * after the coordinator's input ended. A merge the coordinator publishes meanwhile makes the
     * engine abandon the overlapping OPTIMIZE merge, which is then retried.
     */
    private void finishIfLast() throws IOException {
        if (!optimizeFinal) {
            return;
        }
        for (String dir : table.temporaryDirectories()) {
            if (TempPartNames.parse(dir, sinkId).isPresent()) {
                return;
            }
        }
        for (int round = 0; round < 10; round++) {
            boolean needed = false;
            for (List<ActivePart> parts : table.activePartsByPartition().values()) {
                needed |= parts.size() > 1;
            }
            if (!needed) {
                break;
            }
            List<PartName> merged = table.optimizeFinal(false);
            LOG.info("OPTIMIZE FINAL after the last commit merged into {}", merged);
        }
    }

    @Override
    public void close() throws IOException {
        table.close();
        table.store().close();
    }
}
