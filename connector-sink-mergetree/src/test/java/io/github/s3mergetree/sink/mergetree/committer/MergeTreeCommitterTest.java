package io.github.s3mergetree.sink.mergetree.committer;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The committer alone, with fake commit requests (as {@code KafkaCommitterTest}): a commit
 * publishes the parts; a replay of a committed token is signalled as already committed and removes
 * the recreated temporary directories; a committable whose parts are gone although its token was
 * never committed fails loudly; an I/O error asks Flink to retry.
 */
class MergeTreeCommitterTest {
    static final String DDL =
            "CREATE TABLE t (id Int64, p UInt8) ENGINE = MergeTree PARTITION BY p ORDER BY id";

    @TempDir Path dir;
    MergeTreeTable table;

    @BeforeEach
    void open() throws IOException {
        table =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(dir.toString()),
                        ResolvedTable.resolve(DDL, new Configuration()).layout(),
                        Clock.systemUTC());
    }

    /** Writes rows {@code [from, from + n)} (two partitions) as temporary parts. */
    private MergeTreeCommittable written(String token, long from, int n) throws IOException {
        return written(table, token, from, n);
    }

    /**
     * Writes rows {@code [from, from + n)} (two partitions) as temporary parts of {@code table}.
     */
    static MergeTreeCommittable written(MergeTreeTable table, String token, long from, int n)
            throws IOException {
        return written(table, token, from, n, null);
    }

    /** As above, a committable of job {@code jobId}'s writer. */
    static MergeTreeCommittable written(
            MergeTreeTable table, String token, long from, int n, String jobId) throws IOException {
        Block b = Block.empty(List.of("id", "p"), table.layout().columnTypes(), n);
        for (long i = from; i < from + n; i++) {
            ((LongColumn) b.column(0)).add(i);
            ((io.github.s3mergetree.engine.column.ByteColumn) b.column(1)).add((byte) (i % 2));
        }
        List<TemporaryPart> parts = table.writeTemporaryParts(b);
        List<MergeTreeCommittable.PendingPart> pending =
                parts.stream()
                        .map(
                                p ->
                                        new MergeTreeCommittable.PendingPart(
                                                p.directory(),
                                                p.partition().partitionId(),
                                                p.files().rows(),
                                                p.files().marks(),
                                                p.files().bytesOnDisk(),
                                                p.files().dataUncompressedBytes(),
                                                p.files().bytesUncompressedInMemory()))
                        .toList();
        return new MergeTreeCommittable(token, pending, false, jobId);
    }

    private MergeTreeCommitter committer(FailureInjector failures) {
        return new MergeTreeCommitter(
                table, "test", false, false, null, failures, 0, 0, new UnregisteredMetricsGroup());
    }

    private long rows() throws IOException {
        long n = 0;
        for (var p : table.activeParts()) {
            n += p.rows();
        }
        return n;
    }

    @Test
    void aCommitPublishesThePartsAndAReplayIsANoOp() throws Exception {
        MergeTreeCommittable c = written("test-0-1", 0, 100);
        FakeRequest first = new FakeRequest(c);
        committer(FailureInjector.NONE).commit(List.of(first));
        assertThat(first.outcome).isEqualTo("committed");
        assertThat(rows()).isEqualTo(100);
        assertThat(table.activeParts()).hasSize(2);

        // the same committable again (a replay after a failure): nothing is committed twice
        FakeRequest replay = new FakeRequest(c);
        committer(FailureInjector.NONE).commit(List.of(replay));
        assertThat(replay.outcome).isEqualTo("alreadyCommitted");
        assertThat(table.activeParts()).hasSize(2);
        assertThat(rows()).isEqualTo(100);
    }

    @Test
    void partsLostWithoutACommitFailTheCommitLoudly() throws Exception {
        MergeTreeCommittable c = written("test-0-2", 0, 10);
        for (MergeTreeCommittable.PendingPart p : c.parts()) {
            io.github.s3mergetree.engine.part.Parts.deleteRecursively(
                    dir.resolve(p.directoryName()));
        }
        FakeRequest r = new FakeRequest(c);
        committer(FailureInjector.NONE).commit(List.of(r));
        assertThat(r.outcome).isEqualTo("failedWithUnknownReason");
        assertThat(r.failure).hasMessageContaining("is missing").hasMessageContaining("test-0-2");
        assertThat(rows()).isZero();
    }

    @Test
    void anIoErrorIsRetriedLaterAndThenCommitsOnce() throws Exception {
        MergeTreeCommittable c = written("test-0-3", 0, 50);
        FakeRequest r = new FakeRequest(c);
        committer(
                        (point, subtask, attempt) -> {
                            if (point == FailureInjector.Point.COMMITTER_BEFORE_COMMIT) {
                                throw new IOException("the store is away");
                            }
                        })
                .commit(List.of(r));
        assertThat(r.outcome).isEqualTo("retryLater");
        assertThat(rows()).isZero();
        FakeRequest retry = new FakeRequest(c);
        committer(FailureInjector.NONE).commit(List.of(retry));
        assertThat(retry.outcome).isEqualTo("committed");
        assertThat(rows()).isEqualTo(50);
    }

    /** A commit request that records how the committer answered it. */
    static final class FakeRequest implements Committer.CommitRequest<MergeTreeCommittable> {
        final MergeTreeCommittable committable;
        String outcome = "committed";
        Throwable failure;

        FakeRequest(MergeTreeCommittable committable) {
            this.committable = committable;
        }

        @Override
        public MergeTreeCommittable getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return 0;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            outcome = "failedWithKnownReason";
            failure = t;
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            outcome = "failedWithUnknownReason";
            failure = t;
        }

        @Override
        public void retryLater() {
            outcome = "retryLater";
        }

        @Override
        public void updateAndRetryLater(MergeTreeCommittable committable) {
            outcome = "updateAndRetryLater";
        }

        @Override
        public void signalAlreadyCommitted() {
            outcome = "alreadyCommitted";
        }
    }
}
