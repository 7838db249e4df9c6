package io.github.s3mergetree.sink.mergetree.committer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.storage.WriterRegistrations;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SharedTableCheck} through the committer that receives every writer's committables: two
 * hosts are two directories of the same table path. The committer refuses a commit whose temporary
 * parts it does not see, before any of the call's commits is made, and restarts are suppressed.
 */
class SharedTableCheckTest {
    static final String JOB = "0123456789abcdef0123456789abcdef";

    @TempDir Path tmp;

    /** Writers {@code subtasks} of two of {@link #JOB} register in {@code table}, as they start. */
    private static void register(MergeTreeTable table, int... subtasks) throws IOException {
        for (int s : subtasks) {
            WriterRegistrations.register(table.store(), "test", JOB, s, 2);
        }
    }

    private static MergeTreeTable open(Path dir) throws IOException {
        return MergeTreeTable.open(
                TableStore.local(dir.toString()),
                ResolvedTable.resolve(MergeTreeCommitterTest.DDL, new Configuration()).layout(),
                Clock.systemUTC());
    }

    private static MergeTreeCommitter committer(MergeTreeTable table) {
        return new MergeTreeCommitter(
                table,
                "test",
                false,
                true,
                JOB,
                FailureInjector.NONE,
                0,
                0,
                new UnregisteredMetricsGroup());
    }

    /** A committable of a writer of {@link #JOB}. */
    private static MergeTreeCommitterTest.FakeRequest request(
            MergeTreeTable table, String token, long from, int n) throws IOException {
        return request(table, token, from, n, JOB);
    }

    private static MergeTreeCommitterTest.FakeRequest request(
            MergeTreeTable table, String token, long from, int n, String jobId) throws IOException {
        return new MergeTreeCommitterTest.FakeRequest(
                MergeTreeCommitterTest.written(table, token, from, n, jobId));
    }

    /**
     * The commit of {@code requests} by a committer on {@code table} fails, restarts suppressed.
     */
    private static AbstractThrowableAssert<?, ? extends Throwable> refused(
            MergeTreeTable table, MergeTreeCommitterTest.FakeRequest... requests) {
        return assertThatThrownBy(() -> committer(table).commit(List.of(requests)))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .isInstanceOf(TableNotSharedException.class);
    }

    private static long rows(MergeTreeTable table) throws IOException {
        long n = 0;
        for (var p : table.activeParts()) {
            n += p.rows();
        }
        return n;
    }

    @Test
    void writersOfOneDirectoryCommit() throws Exception {
        MergeTreeTable table = open(tmp.resolve("t"));
        register(table, 0, 1);
        var a = request(table, "test-0-1", 0, 100);
        var b = request(table, "test-1-1", 100, 50);
        committer(table).commit(List.of(a, b));
        assertThat(a.outcome).isEqualTo("committed");
        assertThat(b.outcome).isEqualTo("committed");
        assertThat(rows(table)).isEqualTo(150);
    }

    @Test
    void directoriesOfTheSamePathOnOtherHostsFailBeforeAnyCommit() throws Exception {
        // two hosts: the same table path, a directory each; the committer runs on host A
        MergeTreeTable hostA = open(tmp.resolve("a/t"));
        MergeTreeTable hostB = open(tmp.resolve("b/t"));
        register(hostA, 0);
        register(hostB, 1);
        // the first commit holds parts of both hosts: the other host's writer is missed first
        var ownHost = request(hostA, "test-0-1", 0, 100);
        var otherHost = request(hostB, "test-1-1", 100, 50);
        refused(hostA, ownHost, otherHost)
                .hasMessageContaining(tmp.resolve("a/t").toString())
                .hasMessageContaining("is not shared by the TaskManagers")
                .hasMessageContaining("does not see the writers of subtasks [1] of job " + JOB)
                .hasMessageContaining("Nothing was committed");
        // not even host A's own commit was made
        assertThat(rows(hostA)).isZero();
        assertThat(rows(hostB)).isZero();
        assertThat(hostA.sequence()).isZero();
    }

    @Test
    void aFirstCommitOfOnlyTheCommittersOwnHostIsRefusedWhenAnotherHostsWriterIsNotSeen()
            throws Exception {
        // writer 1 on host B has no rows at the first checkpoint: the commit holds host A's parts
        MergeTreeTable hostA = open(tmp.resolve("a/t"));
        MergeTreeTable hostB = open(tmp.resolve("b/t"));
        register(hostA, 0);
        register(hostB, 1);
        var ownHost = request(hostA, "test-0-1", 0, 100);
        refused(hostA, ownHost)
                .hasMessageContaining(tmp.resolve("a/t").toString())
                .hasMessageContaining("does not see the writers of subtasks [1] of job " + JOB)
                .hasMessageContaining("Nothing was committed");
        assertThat(rows(hostA)).isZero();
        assertThat(hostA.sequence()).isZero();
    }

    @Test
    void noWriterOfThisJobSeenIsRefusedAndAnEarlierJobsRegistrationsDoNotCount() throws Exception {
        MergeTreeTable table = open(tmp.resolve("t"));
        WriterRegistrations.register(table.store(), "test", "an-earlier-job", 0, 2);
        WriterRegistrations.register(table.store(), "test", "an-earlier-job", 1, 2);
        var c = request(table, "test-0-1", 0, 10);
        refused(table, c)
                .hasMessageContaining("does not see the writers of subtasks [0] of job " + JOB);
        assertThat(rows(table)).isZero();
    }

    @Test
    void committablesRestoredFromAnEarlierJobAreCommittedBeforeThisJobsWritersRegister()
            throws Exception {
        // a job resumed from a savepoint: its committer commits the earlier job's committables
        // while it restores its state, before this job's writers have registered
        MergeTreeTable table = open(tmp.resolve("t"));
        WriterRegistrations.register(table.store(), "test", "an-earlier-job", 0, 2);
        var restored = request(table, "test-0-1", 0, 10, "an-earlier-job");
        var restoredOfAnOlderVersion = request(table, "test-1-1", 10, 5, null);
        MergeTreeCommitter committer = committer(table);
        committer.commit(List.of(restored, restoredOfAnOlderVersion));
        assertThat(restored.outcome).isEqualTo("committed");
        assertThat(restoredOfAnOlderVersion.outcome).isEqualTo("committed");
        assertThat(rows(table)).isEqualTo(15);
        // the first committable of this job is still checked against this job's writers
        register(table, 0);
        var own = request(table, "test-0-2", 15, 10);
        assertThatThrownBy(() -> committer.commit(List.of(own)))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessageContaining("does not see the writers of subtasks [1] of job " + JOB)
                .hasMessageContaining("None of these 1 commits was made");
        assertThat(rows(table)).isEqualTo(15);
        register(table, 1);
        committer.commit(List.of(own));
        assertThat(own.outcome).isEqualTo("committed");
        assertThat(rows(table)).isEqualTo(25);
    }

    @Test
    void restoredCommittablesWhosePartsAreOnAnotherHostAreRefused() throws Exception {
        MergeTreeTable hostA = open(tmp.resolve("a/t"));
        MergeTreeTable hostB = open(tmp.resolve("b/t"));
        var otherHost = request(hostB, "test-1-1", 0, 50, "an-earlier-job");
        refused(hostA, otherHost)
                .hasMessageContaining("does not see 2 of the 2 temporary parts")
                .hasMessageContaining("Nothing was committed");
        assertThat(rows(hostA)).isZero();
    }

    @Test
    void theTemporaryPartsOfOtherHostsAreRefusedWhenTheWritersAreSeen() throws Exception {
        // registrations visible (e.g. written before the directories diverged), parts not
        MergeTreeTable hostA = open(tmp.resolve("a/t"));
        MergeTreeTable hostB = open(tmp.resolve("b/t"));
        register(hostA, 0, 1);
        var ownHost = request(hostA, "test-0-1", 0, 100);
        var otherHost = request(hostB, "test-1-1", 100, 50);
        refused(hostA, ownHost, otherHost)
                .hasMessageContaining("does not see 2 of the 4 temporary parts")
                .hasMessageContaining(otherHost.committable.parts().get(0).directoryName())
                .hasMessageContaining("Nothing was committed");
        assertThat(rows(hostA)).isZero();
    }

    @Test
    void aLaterCommitNamesTheEarlierEntriesItKeeps() throws Exception {
        MergeTreeTable hostA = open(tmp.resolve("a/t"));
        MergeTreeTable hostB = open(tmp.resolve("b/t"));
        register(hostA, 0, 1);
        committer(hostA).commit(List.of(request(hostA, "test-0-1", 0, 10)));
        var otherHost = request(hostB, "test-1-2", 10, 10);
        refused(hostA, otherHost).hasMessageContaining("None of these 1 commits was made");
        assertThat(rows(hostA)).isEqualTo(10);
    }

    @Test
    void aReplayOfAMadeCommitIsNotChecked() throws Exception {
        MergeTreeTable table = open(tmp.resolve("t"));
        register(table, 0, 1);
        MergeTreeCommittable c = MergeTreeCommitterTest.written(table, "test-0-1", 0, 100);
        committer(table).commit(List.of(new MergeTreeCommitterTest.FakeRequest(c)));
        // the replay's temporary parts are published (gone as tmp_*): it is a no-op, not a split
        var replay = new MergeTreeCommitterTest.FakeRequest(c);
        committer(table).commit(List.of(replay));
        assertThat(replay.outcome).isEqualTo("alreadyCommitted");
        assertThat(rows(table)).isEqualTo(100);
    }
}
