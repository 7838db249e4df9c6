package io.github.s3mergetree.sink.mergetree.committer;

import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.sink.mergetree.FailureInjector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Publishes committables: {@link MergeTreeTable#commit} allocates block numbers under the table's
 * lock, writes a commit record naming the token, and renames the temporary parts into place. A
 * committable whose token the table already recorded (a replay after a failure) is a no-op, and its
 * temporary directories, if a replayed writer recreated them, are removed.
 *
 * <p>Failures: an I/O error is retried by Flink ({@code retryLater}, up to {@code
 * sink.committer.retries}); a committable whose temporary parts are gone although the table has no
 * record of its token means parts were lost, and fails the job loudly.
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

    /**
     * A committer of {@code table}.
     *
     * @param sinkId the sink's id (names its temporary parts)
     * @param optimizeFinal whether the committer that commits the last end-of-input committable
     *     runs OPTIMIZE FINAL
     */
    public MergeTreeCommitter(
            MergeTreeTable table,
            String sinkId,
            boolean optimizeFinal,
            FailureInjector failures,
            int subtask,
            int attempt,
            MetricGroup metrics) {
        this.table = table;
        this.sinkId = sinkId;
        this.optimizeFinal = optimizeFinal;
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
        for (CommitRequest<MergeTreeCommittable> request : requests) {
            MergeTreeCommittable c = request.getCommittable();
            try {
                inject(FailureInjector.Point.COMMITTER_BEFORE_COMMIT);
                if (c.token() != null && table.directory().isCommitted(c.token())) {
                    removeLeftovers(c);
                    commitsReplayed.inc();
                    LOG.info("Commit {} was already made; replay is a no-op", c.token());
                    request.signalAlreadyCommitted();
                    if (c.endOfInput()) {
                        finishIfLast();
                    }
                    continue;
                }
                List<TemporaryPart> parts = temporaryParts(c);
                List<PartName> names = table.commit(parts, c.token());
                partsCommitted.inc(names.size());
                rowsCommitted.inc(c.rows());
                LOG.debug("Committed {} as {}", c.token(), names);
                inject(FailureInjector.Point.COMMITTER_AFTER_COMMIT);
                if (c.endOfInput()) {
                    finishIfLast();
                }
            } catch (MissingPartException e) {
                request.signalFailedWithUnknownReason(e);
            } catch (IOException e) {
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
        try (java.util.stream.Stream<Path> s = Files.list(table.directory().root())) {
            for (Path p : s.toList()) {
                if (io.github.s3mergetree.sink.mergetree.writer.TempPartNames.parse(
                                p.getFileName().toString(), sinkId)
                        .isPresent()) {
                    return;
                }
            }
        }
        for (int round = 0; round < 10; round++) {
            boolean needed = false;
            for (List<io.github.s3mergetree.engine.table.ActivePart> parts :
                    table.activePartsByPartition().values()) {
                needed |= parts.size() > 1;
            }
            if (!needed) {
                break;
            }
            List<PartName> merged = table.optimizeFinal(false);
            LOG.info("OPTIMIZE FINAL after the last commit merged into {}", merged);
        }
    }

    private void removeLeftovers(MergeTreeCommittable c) throws IOException {
        for (MergeTreeCommittable.PendingPart p : c.parts()) {
            Path dir = table.directory().root().resolve(p.directoryName());
            if (Files.exists(dir)) {
                Parts.deleteRecursively(dir);
            }
        }
    }

    /** The engine's view of the committable's parts, read back from their directories. */
    private List<TemporaryPart> temporaryParts(MergeTreeCommittable c) throws IOException {
        TableLayout layout = table.layout();
        List<TemporaryPart> out = new ArrayList<>(c.parts().size());
        for (MergeTreeCommittable.PendingPart p : c.parts()) {
            Path dir = table.directory().root().resolve(p.directoryName());
            Path checksumsFile = dir.resolve("checksums.txt");
            if (!Files.isRegularFile(checksumsFile)) {
                throw new MissingPartException(
                        "temporary part "
                                + dir
                                + " of commit "
                                + c.token()
                                + " is missing and the table has no record of that commit: parts"
                                + " were removed by someone else (another sink with the same"
                                + " sink-id?)");
            }
            Checksums checksums =
                    Checksums.parse(Files.readAllBytes(checksumsFile), checksumsFile.toString());
            PartitionData partition;
            if (layout.partitionKey().isEmpty()) {
                partition = PartitionData.UNPARTITIONED;
            } else {
                partition =
                        new PartitionData(
                                p.partitionId(),
                                Files.readAllBytes(dir.resolve("partition.dat")),
                                layout.minmaxColumns(),
                                layout.partitionKey().types());
            }
            out.add(
                    new TemporaryPart(
                            dir,
                            partition,
                            new WrittenPartFiles(
                                    (int) p.rows(), p.marks(), checksums, p.bytesInMemory())));
        }
        return out;
    }

    @Override
    public void close() {}

    /** Parts of an uncommitted committable are gone. */
    static final class MissingPartException extends IOException {
        private static final long serialVersionUID = 1L;

        MissingPartException(String message) {
            super(message);
        }
    }
}
