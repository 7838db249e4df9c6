package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.time.Clock;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every operation on one open table shares (ClickHouse's {@code MergeTreeData} for its
 * operations): the store, the layout, the commit log and the lock that serializes this process's
 * use of it, the publisher, the part log, the clock, and which committed parts this instance knows
 * to be published. The operations ({@link InsertCommits}, {@link Merges}, {@link Cleanup}, {@link
 * BrokenParts}, {@link TableOpener}) hold one and nothing of each other's.
 */
final class TableContext {
    private static final Logger LOG = LoggerFactory.getLogger(TableContext.class);

    /** How often a writer that lost the race for a log entry tries again. */
    static final int MAX_COMMIT_ATTEMPTS = 1000;

    final TableStore store;
    final TableLayout layout;
    final Clock clock;
    final CommitLog log;
    final PartPublisher publisher;
    final PartLog partLog;

    /** Serializes this process's use of {@link #log} (the log object is not thread-safe). */
    final ReentrantLock lock = new ReentrantLock();

    /** This instance's identity in merge claims. */
    final String writerId = UUID.randomUUID().toString();

    /** Committed parts this instance knows to be published (no need to check the store). */
    private final Set<PartName> published = ConcurrentHashMap.newKeySet();

    TableContext(TableStore store, TableLayout layout, Clock clock) {
        this.store = store;
        this.layout = layout;
        this.clock = clock;
        this.log = new CommitLog(store, layout.settings().deduplicationWindow());
        this.publisher = new PartPublisher(store, layout.partFormat().fsync());
        this.partLog = new PartLog(store);
    }

    /** The files of part directory {@code directory} of the table. */
    PartStorage part(String directory) {
        return new PartStorage(store, directory);
    }

    /** A copy of the log's state now. */
    TableState refreshed() throws IOException {
        lock.lock();
        try {
            return log.refresh().copy();
        } finally {
            lock.unlock();
        }
    }

    /** Publishes committed part {@code p} unless this instance knows it is (idempotent). */
    void ensurePublished(CommittedPart p) throws IOException {
        if (published.contains(p.name())) {
            return;
        }
        publisher.complete(p);
        published.add(p.name());
    }

    /** Records that {@code name} is published (its publication was just done). */
    void markPublished(PartName name) {
        published.add(name);
    }

    /** Forgets {@code name} (detached or removed). */
    void forgetPublished(PartName name) {
        published.remove(name);
    }

    /** Whether this instance knows {@code name} to be published. */
    boolean knownPublished(PartName name) {
        return published.contains(name);
    }

    /** Completes the publication of every active part committed after the newest snapshot. */
    void publishSinceSnapshot(TableState s) throws IOException {
        // only active parts: an outdated part may be half removed already (a crash between the
        // removal of its files and the REMOVE entry), and completing its publication would fail
        // for ever ("the part is lost") and keep the table from opening
        for (TableState.PartState p : s.parts().values()) {
            if (p.active() && p.createdSeq() > log.snapshotSequence()) {
                ensurePublished(p.part());
            }
        }
    }

    /**
     * After entry {@code seq}: every {@value CommitLog#SNAPSHOT_INTERVAL} entries, makes sure every
     * publication since the last snapshot is complete and writes a snapshot of the state.
     */
    void afterAppend(long seq) {
        if (seq % CommitLog.SNAPSHOT_INTERVAL != 0) {
            return;
        }
        try {
            // the state now (at seq or later): any sequence makes a valid snapshot
            TableState s = refreshed();
            publishSinceSnapshot(s);
            log.writeSnapshot(s);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Writing the snapshot at {} of {} failed", seq, store.location(), e);
        }
    }

    /** The public view of a part of the state. */
    static ActivePart activePart(TableState.PartState p) {
        CommittedPart c = p.part();
        return new ActivePart(
                c.name(), c.rows(), c.bytesOnDisk(), c.dataUncompressedBytes(), p.created());
    }
}
