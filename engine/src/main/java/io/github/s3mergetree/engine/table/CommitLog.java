package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The table's commit log: sequence-numbered entries {@code s3mergetree_metadata/log/<seq>.json},
 * each created with {@code If-None-Match: *} ({@link TableStore#createIfAbsent}), so that of two
 * writers proposing entry {@code n} exactly one wins and the other re-reads and retries — an
 * optimistic commit protocol without locks and without renames (Iceberg's and Delta's idea, on
 * plain objects). Every {@value #SNAPSHOT_INTERVAL} entries the state is written as a snapshot
 * ({@code s3mergetree_metadata/snapshots/<seq>.json}), so reading the table costs one snapshot and
 * the entries after it.
 *
 * <p>Not thread-safe: the table serializes its threads' use of the log.
 */
final class CommitLog {
    /** Entries between snapshots. */
    static final int SNAPSHOT_INTERVAL = 100;

    private final TableStore store;
    private final int deduplicationWindow;
    private TableState state;
    private long snapshotSequence;

    CommitLog(TableStore store, int deduplicationWindow) {
        this.store = store;
        this.deduplicationWindow = deduplicationWindow;
    }

    /** The sequence of the newest snapshot this log read or wrote (0: none). */
    long snapshotSequence() {
        return snapshotSequence;
    }

    /**
     * The state at the newest entry: reads the entries appended since the last call (and on the
     * first call the newest snapshot). The object is live: callers hold the table's lock.
     */
    TableState refresh() throws IOException {
        if (state == null) {
            load();
            return state;
        }
        List<ObjectSummary> newer =
                store.listAfter(TableKeys.LOG_DIR, TableKeys.logEntry(state.sequence()));
        boolean first = true;
        for (ObjectSummary o : newer) {
            Optional<Long> seq = TableKeys.sequenceOf(o.key());
            if (seq.isEmpty()) {
                continue;
            }
            if (first && seq.get() != state.sequence() + 1) {
                // entries this instance had not read were trimmed: start from a snapshot
                load();
                return state;
            }
            first = false;
            if (seq.get() != state.sequence() + 1) {
                break; // a gap: an entry being created right now; read it next time
            }
            state.apply(read(o.key()));
        }
        return state;
    }

    private void load() throws IOException {
        List<ObjectSummary> snaps = store.list(TableKeys.SNAPSHOT_DIR);
        TableState s = new TableState(deduplicationWindow);
        long snapSeq = 0;
        for (int i = snaps.size() - 1; i >= 0; i--) {
            Optional<Long> seq = TableKeys.sequenceOf(snaps.get(i).key());
            if (seq.isPresent()) {
                byte[] bytes = store.read(snaps.get(i).key());
                s =
                        TableState.fromSnapshot(
                                bytes, store.describe(snaps.get(i).key()), deduplicationWindow);
                snapSeq = seq.get();
                break;
            }
        }
        boolean first = true;
        for (ObjectSummary o :
                store.listAfter(TableKeys.LOG_DIR, TableKeys.logEntry(s.sequence()))) {
            Optional<Long> seq = TableKeys.sequenceOf(o.key());
            if (seq.isEmpty()) {
                continue;
            }
            if (seq.get() != s.sequence() + 1) {
                if (first) {
                    throw new IOException(
                            "the commit log of "
                                    + store.location()
                                    + " continues at entry "
                                    + seq.get()
                                    + " after state "
                                    + s.sequence()
                                    + ": entries are missing");
                }
                break;
            }
            first = false;
            s.apply(read(o.key()));
        }
        state = s;
        snapshotSequence = snapSeq;
    }

    /** Reads entry {@code key}. */
    Commit read(String key) throws IOException {
        byte[] bytes = store.read(key);
        try {
            return Commit.parse(bytes, store.describe(key));
        } catch (IllegalArgumentException e) {
            throw new IOException("unreadable commit log entry " + store.describe(key), e);
        }
    }

    /** Entry {@code seq}, if it exists (and was not trimmed). */
    Optional<Commit> read(long seq) throws IOException {
        try {
            return Optional.of(read(TableKeys.logEntry(seq)));
        } catch (FileNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Appends {@code c} (whose sequence must be the state's + 1) if no other writer created that
     * entry first. A retried create that finds an entry with {@code c}'s id knows it won.
     *
     * @return whether {@code c} is now entry {@code c.sequence()}; false: re-read and retry
     */
    boolean append(Commit c) throws IOException {
        if (c.sequence() != state.sequence() + 1) {
            throw new IllegalStateException(
                    "entry " + c.sequence() + " does not follow state " + state.sequence());
        }
        String key = TableKeys.logEntry(c.sequence());
        boolean created = store.createIfAbsent(key, c.toBytes());
        if (!created) {
            Optional<Commit> existing = read(c.sequence());
            created = existing.isPresent() && c.id().equals(existing.get().id());
        }
        if (created) {
            state.apply(c);
        }
        return created;
    }

    /** Writes the snapshot of {@code s} (a copy of the state) unless one exists. */
    void writeSnapshot(TableState s) throws IOException {
        store.createIfAbsent(TableKeys.snapshot(s.sequence()), s.toSnapshot());
        snapshotSequence = Math.max(snapshotSequence, s.sequence());
    }

    /** The entries after {@code sequence} still in the log, in order. */
    List<Commit> commitsAfter(long sequence) throws IOException {
        List<Commit> out = new ArrayList<>();
        for (ObjectSummary o :
                store.listAfter(TableKeys.LOG_DIR, TableKeys.logEntry(Math.max(0, sequence)))) {
            if (TableKeys.sequenceOf(o.key()).isPresent()) {
                out.add(read(o.key()));
            }
        }
        return out;
    }

    /** Sequence numbers of the snapshots, oldest first. */
    List<Long> snapshots() throws IOException {
        List<Long> out = new ArrayList<>();
        for (ObjectSummary o : store.list(TableKeys.SNAPSHOT_DIR)) {
            TableKeys.sequenceOf(o.key()).ifPresent(out::add);
        }
        return out;
    }

    /** Deletes entries up to and including {@code sequence} and snapshots before it. */
    int trim(long sequence) throws IOException {
        List<String> doomed = new ArrayList<>();
        for (ObjectSummary o : store.list(TableKeys.LOG_DIR)) {
            Optional<Long> seq = TableKeys.sequenceOf(o.key());
            if (seq.isPresent() && seq.get() <= sequence) {
                doomed.add(o.key());
            }
        }
        for (ObjectSummary o : store.list(TableKeys.SNAPSHOT_DIR)) {
            Optional<Long> seq = TableKeys.sequenceOf(o.key());
            if (seq.isPresent() && seq.get() < sequence) {
                doomed.add(o.key());
            }
        }
        store.deleteAll(doomed);
        return doomed.size();
    }
}
