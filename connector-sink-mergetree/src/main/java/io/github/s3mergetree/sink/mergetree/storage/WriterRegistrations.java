package io.github.s3mergetree.sink.mergetree.storage;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.table.TableKeys;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.flink.annotation.Internal;

/**
 * Which writer subtasks of a job have opened a local table, as the committer sees it: every writer
 * registers when it is created ({@code s3mergetree_metadata/sinks/<sink id>/subtask-<i>}, holding
 * the job id and the writers' parallelism), and the committer's first commit of its job's
 * committables requires every subtask of its job to be registered in its own view of the table.
 *
 * <p>Why a registration and not only the committables' parts: a writer that has no rows yet at the
 * first checkpoint sends no part, so the first commit can hold only the parts of the committer's
 * own host and would be made in that host's directory before another host's writer is seen. Every
 * writer is created before its job's first commit, in both execution modes (in STREAMING a
 * checkpoint is triggered only when every task is running, i.e. after each writer's operator state
 * was initialized; in BATCH the committer consumes a blocking exchange, so it starts after every
 * writer finished): nothing waits. The exception, committables restored from an earlier job's
 * savepoint, which the committer commits while it restores its state, are not checked against the
 * registrations. One object per subtask, overwritten by the next job of the same sink id.
 */
@Internal
public final class WriterRegistrations {
    private WriterRegistrations() {}

    private static final String SUBTASK = "subtask-";

    /** The directory of sink {@code sinkId}'s registrations (ends with '/'). */
    private static String dir(String sinkId) {
        return TableKeys.METADATA_DIR + "/sinks/" + TempPartNames.sanitize(sinkId) + "/";
    }

    static String key(String sinkId, int subtask) {
        return dir(sinkId) + SUBTASK + subtask;
    }

    /** Registers writer {@code subtask} of {@code parallelism} of job {@code jobId}. */
    public static void register(
            TableStore store, String sinkId, String jobId, int subtask, int parallelism)
            throws IOException {
        store.put(
                key(sinkId, subtask), (jobId + " " + parallelism).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The writer subtasks of job {@code jobId} (of the parallelism its registrations record) that
     * are not registered in {@code store}: empty when all are, {@code [0]} when none is.
     */
    public static List<Integer> missing(TableStore store, String sinkId, String jobId)
            throws IOException {
        int parallelism = -1;
        Set<Integer> registered = new TreeSet<>();
        String dir = dir(sinkId);
        for (ObjectSummary o : store.list(dir)) {
            Optional<byte[]> b = store.readIfExists(o.key());
            String[] f =
                    b.isEmpty()
                            ? new String[0]
                            : new String(b.get(), StandardCharsets.UTF_8).split(" ");
            if (f.length == 2 && f[0].equals(jobId) && o.key().startsWith(dir + SUBTASK)) {
                try {
                    int subtask =
                            Integer.parseInt(o.key().substring(dir.length() + SUBTASK.length()));
                    parallelism = Integer.parseInt(f[1]);
                    registered.add(subtask);
                } catch (NumberFormatException e) {
                    // not a registration written by this class: ignored
                }
            }
        }
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < Math.max(parallelism, 1); i++) {
            if (!registered.contains(i)) {
                missing.add(i);
            }
        }
        return missing;
    }
}
