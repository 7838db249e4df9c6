package io.github.s3mergetree.sink.mergetree.committer;

import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import io.github.s3mergetree.sink.mergetree.storage.WriterRegistrations;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;

/**
 * Never a silently split table: before a commit call makes anything visible, proves that the
 * committer sees every temporary part of the committables it is about to publish.
 *
 * <p>The sink routes the committables of all its writers to one committer subtask ({@link
 * io.github.s3mergetree.sink.mergetree.MergeTreeSink#addPreCommitTopology}), so every part becomes
 * visible through that committer's view of the table. Where the writers and the committer share the
 * table, each pending temporary part is there. A local table path that the TaskManagers do not
 * share (each host has its own directory of that name) hides the parts of the other hosts' writers:
 * the job then fails with {@link TableNotSharedException} before any of the call's commits is made,
 * whichever subtasks ran where and whenever they were scheduled (a BATCH job runs its writers one
 * after another when slots are short, so nothing here waits for another subtask). Commits made
 * already (a replay after a failure: their parts are published) are not checked.
 *
 * <p>The parts alone do not prove it at the first commit: a writer without rows yet sends none, and
 * the commit would be made in the committer's host's directory. So before its first commit of its
 * own job's committables the committer also requires every writer of its job to be registered in
 * its view of the table ({@link #verifyWriters}). Committables restored from an earlier job (a job
 * resumed from a savepoint) are committed while the committer restores its state, when this job's
 * writers may not have registered yet: for them the parts are checked, and the writers are checked
 * at the first commit of this job's own committables.
 *
 * <p>Only local tables are checked: an {@code s3://} table is one store for every TaskManager.
 */
@Internal
final class SharedTableCheck {
    /** How many missing parts the message names. */
    private static final int NAMED = 5;

    private SharedTableCheck() {}

    /**
     * Returns when every writer subtask of job {@code jobId} is registered in {@code table}'s store
     * ({@link WriterRegistrations}: a writer without rows at the first checkpoint sends no part, so
     * the parts alone cannot show a directory the other hosts do not share); throws {@link
     * TableNotSharedException} naming the subtasks it does not see otherwise. Called before the
     * first commit of its own job's committables a committer makes.
     */
    static void verifyWriters(MergeTreeTable table, String sinkId, String jobId, int unmade)
            throws IOException {
        List<Integer> missing = WriterRegistrations.missing(table.store(), sinkId, jobId);
        if (missing.isEmpty()) {
            return;
        }
        throw notShared(
                table,
                "the writers of subtasks "
                        + missing
                        + " of job "
                        + jobId
                        + " in it (each writer registers in the table when it starts)",
                "",
                unmade);
    }

    /**
     * The refusal of both checks: what the committer does not see, why that means a split table,
     * what to use instead, and what was (not) committed.
     */
    private static TableNotSharedException notShared(
            MergeTreeTable table, String notSeen, String otherCause, int unmade)
            throws IOException {
        long earlier = table.sequence();
        return new TableNotSharedException(
                "the table "
                        + table.store().location()
                        + " is not shared by the TaskManagers: the committer does not see "
                        + notSeen
                        + ": each TaskManager writes its own directory of that name, which would"
                        + " split the table"
                        + otherCause
                        + ". Use an s3:// table path or a directory every TaskManager mounts (NFS,"
                        + " a shared volume). "
                        + (earlier == 0
                                ? "Nothing was committed."
                                : "None of these "
                                        + unmade
                                        + " commits was made (the table's log keeps its "
                                        + earlier
                                        + " earlier entries)."));
    }

    /**
     * Returns when every temporary part of {@code unmade} (committables whose commit is not made
     * yet) is in {@code table}'s store; throws {@link TableNotSharedException} naming the table and
     * the parts it lacks otherwise.
     */
    static void verify(MergeTreeTable table, String sinkId, Collection<MergeTreeCommittable> unmade)
            throws IOException {
        int expected = 0;
        for (MergeTreeCommittable c : unmade) {
            expected += c.parts().size();
        }
        if (expected == 0) {
            return;
        }
        Set<String> present = new HashSet<>(table.temporaryDirectories());
        List<String> missing = new ArrayList<>();
        Set<Integer> writers = new TreeSet<>();
        for (MergeTreeCommittable c : unmade) {
            for (MergeTreeCommittable.PendingPart p : c.parts()) {
                if (!present.contains(p.directoryName())) {
                    missing.add(p.directoryName());
                    TempPartNames.parse(p.directoryName(), sinkId)
                            .ifPresent(parsed -> writers.add(parsed.subtask()));
                }
            }
        }
        if (missing.isEmpty()) {
            return;
        }
        throw notShared(
                table,
                missing.size()
                        + " of the "
                        + expected
                        + " temporary parts written for this commit"
                        + (writers.isEmpty() ? "" : " by writer subtasks " + writers)
                        + " ("
                        + String.join(", ", missing.subList(0, Math.min(NAMED, missing.size())))
                        + (missing.size() > NAMED ? ", ..." : "")
                        + ")",
                " (or another process removed those parts)",
                unmade.size());
    }
}
