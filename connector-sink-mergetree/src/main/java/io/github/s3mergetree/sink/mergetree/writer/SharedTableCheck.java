package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.TableKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.flink.annotation.Internal;

/**
 * Never a silently split table: proves, before a writer hands over its first committable, that
 * every subtask of the sink writes into the same table. Each writer of a job registers in the table
 * at start ({@code s3mergetree_metadata/sinks/<sink id>/subtask-<i>}, holding the job id); the
 * first {@code prepareCommit} of each writer then requires the registrations of all subtasks of
 * this job to be visible in its own table. A local table path that the TaskManagers do not share
 * (each host has its own directory of that name) shows a writer only the subtasks of its own host:
 * the job fails with {@link TableNotSharedException} before anything is committed.
 *
 * <p>Only local tables are checked: an {@code s3://} table is one store for every TaskManager. The
 * registrations are overwritten by the next job of the same sink id (one object per subtask).
 */
@Internal
final class SharedTableCheck {
    /** How long a writer waits for the other subtasks' registrations (they may start later). */
    static final Duration WAIT = Duration.ofSeconds(60);

    private final TableStore store;
    private final String sinkId;
    private final String jobId;
    private final int subtask;
    private final int parallelism;
    private final Duration wait;
    private boolean verified;

    SharedTableCheck(
            TableStore store,
            String sinkId,
            String jobId,
            int subtask,
            int parallelism,
            Duration wait) {
        this.store = store;
        this.sinkId = sinkId;
        this.jobId = jobId;
        this.subtask = subtask;
        this.parallelism = parallelism;
        this.wait = wait;
    }

    static String key(String sinkId, int subtask) {
        return TableKeys.METADATA_DIR + "/sinks/" + sinkId + "/subtask-" + subtask;
    }

    /** Registers this subtask of the job in the table. */
    void register() throws IOException {
        store.put(key(sinkId, subtask), jobId.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Returns once every subtask of this job is registered in this table (at most {@link #wait}
     * after the first call); {@link TableNotSharedException} naming the missing subtasks otherwise.
     * Later calls return at once.
     */
    void verify() throws IOException, InterruptedException {
        if (verified) {
            return;
        }
        long deadline = System.nanoTime() + wait.toNanos();
        List<Integer> missing = missing();
        while (!missing.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(200);
            missing = missing();
        }
        if (!missing.isEmpty()) {
            throw new TableNotSharedException(
                    "the table "
                            + store.location()
                            + " is not shared by the TaskManagers: subtask "
                            + subtask
                            + " of sink "
                            + sinkId
                            + " sees the writers of subtasks "
                            + seen(missing)
                            + " of "
                            + parallelism
                            + " in it, not those of "
                            + missing
                            + " (after "
                            + wait.toSeconds()
                            + " s): each TaskManager writes its own directory of that name, which"
                            + " would split the table. Use an s3:// table path or a directory every"
                            + " TaskManager mounts (NFS, a shared volume). Nothing was committed.");
        }
        verified = true;
    }

    private List<Integer> seen(List<Integer> missing) {
        List<Integer> seen = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            if (!missing.contains(i)) {
                seen.add(i);
            }
        }
        return seen;
    }

    private List<Integer> missing() throws IOException {
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            Optional<byte[]> b = store.readIfExists(key(sinkId, i));
            if (b.isEmpty() || !new String(b.get(), StandardCharsets.UTF_8).equals(jobId)) {
                missing.add(i);
            }
        }
        return missing;
    }
}
