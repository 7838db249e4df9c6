package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.TemporaryPart;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Insert commits of a table: the insert delay ({@link InsertDelay}, the one policy, also the
 * sink's), the commit of temporary parts as one commit log entry with block numbers, the replay of
 * a commit already made (by its dedup token), the {@code NewPart} events of the part log, and the
 * listeners told of new parts (the merge scheduler).
 */
final class InsertCommits {
    private final TableContext ctx;
    private final List<Consumer<List<PartName>>> newPartListeners = new CopyOnWriteArrayList<>();
    private volatile CommitFence commitFence = CommitFence.NONE;

    InsertCommits(TableContext ctx) {
        this.ctx = ctx;
    }

    /** See {@link MergeTreeTable#onNewParts}. */
    void onNewParts(Consumer<List<PartName>> listener) {
        newPartListeners.add(listener);
    }

    /** See {@link MergeTreeTable#setCommitFence}. */
    void setCommitFence(CommitFence fence) {
        this.commitFence = Objects.requireNonNull(fence, "fence");
    }

    /** How many active parts each partition has. */
    Map<String, Integer> activePartCounts() throws IOException {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (TableState.PartState p : ctx.refreshed().active()) {
            out.merge(p.part().name().partitionId(), 1, Integer::sum);
        }
        return out;
    }

    /** See {@link MergeTreeTable#insertDelayMillis(Set)}. */
    long insertDelayMillis(Set<String> partitionIds) throws IOException {
        Map<String, Integer> counts = activePartCounts();
        long delay = 0;
        TableSettings s = ctx.layout.settings();
        for (String id : partitionIds) {
            int n = counts.getOrDefault(id, 0);
            if (InsertDelay.refuses(s, n)) {
                throw new TooManyPartsException(id, n, s.partsToThrowInsert());
            }
            delay = Math.max(delay, InsertDelay.millis(s, n));
        }
        return delay;
    }

    /** The partitions of {@code parts}. */
    static Set<String> partitionsOf(List<TemporaryPart> parts) {
        Set<String> ids = new HashSet<>();
        for (TemporaryPart p : parts) {
            ids.add(p.partition().partitionId());
        }
        return ids;
    }

    /** See {@link MergeTreeTable#commit(List, String)}. */
    List<PartName> commit(List<TemporaryPart> parts, String dedupToken) throws IOException {
        List<PendingInsert> pending = new ArrayList<>(parts.size());
        for (TemporaryPart p : parts) {
            pending.add(PendingInsert.of(p));
        }
        return commitPending(pending, dedupToken).names();
    }

    /**
     * Waits the insert delay of the partitions of {@code parts}, then commits them (no dedup
     * token); aborts them if the insert is refused or interrupted.
     */
    List<PartName> delayAndCommit(List<TemporaryPart> parts) throws IOException {
        try {
            long delay = insertDelayMillis(partitionsOf(parts));
            if (delay > 0) {
                Thread.sleep(delay);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            for (TemporaryPart p : parts) {
                p.abort();
            }
            throw new IOException("interrupted while delaying an insert", e);
        } catch (RuntimeException e) {
            for (TemporaryPart p : parts) {
                p.abort();
            }
            throw e;
        }
        return commit(parts, null);
    }

    /** See {@link MergeTreeTable#commitPending}. */
    CommitResult commitPending(List<PendingInsert> parts, String dedupToken) throws IOException {
        Instant start = ctx.clock.instant();
        checkTemporaryPartsExist(parts, dedupToken);
        for (int attempt = 0; attempt < TableContext.MAX_COMMIT_ATTEMPTS; attempt++) {
            Commit c;
            ctx.lock.lock();
            try {
                TableState s = ctx.log.refresh();
                TableState.TokenRecord known = dedupToken == null ? null : s.token(dedupToken);
                if (known != null) {
                    Optional<Commit> recorded = ctx.log.read(known.sequence());
                    ctx.lock.unlock();
                    try {
                        finishReplay(parts, recorded.orElse(null), start);
                    } finally {
                        ctx.lock.lock();
                    }
                    return new CommitResult(known.names(), known.sequence(), true);
                }
                if (parts.isEmpty()) {
                    return new CommitResult(List.of(), 0, false);
                }
                c = insertEntry(s, parts, dedupToken);
                FaultPoints.reach("commit.before-record");
                commitFence.check();
                if (!ctx.log.append(c)) {
                    continue;
                }
            } finally {
                ctx.lock.unlock();
            }
            // the commit is made: its events go to the part log even if publishing is
            // interrupted (the next opener or a replay completes it)
            FaultPoints.reach("commit.before-part-log");
            logNewParts(c, Duration.between(start, ctx.clock.instant()).toMillis());
            FaultPoints.reach("commit.after-record");
            List<PartName> names = new ArrayList<>();
            for (CommittedPart p : c.parts()) {
                ctx.publisher.complete(p);
                ctx.markPublished(p.name());
                names.add(p.name());
                FaultPoints.reach("commit.after-rename");
            }
            ctx.afterAppend(c.sequence());
            for (Consumer<List<PartName>> l : newPartListeners) {
                l.accept(names);
            }
            return new CommitResult(names, c.sequence(), false);
        }
        throw new IOException(
                "gave up committing to "
                        + ctx.store.location()
                        + " after "
                        + TableContext.MAX_COMMIT_ATTEMPTS
                        + " lost races for the next commit log entry");
    }

    /** The insert entry after state {@code s}: one block number per part, from the state's next. */
    private Commit insertEntry(TableState s, List<PendingInsert> parts, String dedupToken) {
        long first = s.nextBlockNumber();
        List<CommittedPart> committed = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
            PendingInsert p = parts.get(i);
            committed.add(
                    new CommittedPart(
                            PartName.inserted(p.partitionId(), first + i),
                            p.temporaryDirectory(),
                            p.rows(),
                            p.bytesOnDisk(),
                            p.dataUncompressedBytes(),
                            null));
        }
        return new Commit(
                s.sequence() + 1,
                ctx.clock.instant(),
                UUID.randomUUID().toString(),
                Commit.Kind.INSERT,
                dedupToken,
                committed,
                List.of(),
                List.of(),
                List.of(),
                null);
    }

    private void checkTemporaryPartsExist(List<PendingInsert> parts, String token)
            throws IOException {
        for (PendingInsert p : parts) {
            if (ctx.part(p.temporaryDirectory()).hasChecksums()) {
                continue;
            }
            if (token != null && ctx.refreshed().token(token) != null) {
                return; // a replay: the committed parts were published, the directories removed
            }
            throw new MissingTemporaryPartException(
                    "temporary part "
                            + ctx.store.describe(p.temporaryDirectory())
                            + (token == null ? "" : " of commit " + token)
                            + " is missing and the table has no record of that commit. If the"
                            + " table path is a local directory, the writers (TaskManagers) do not"
                            + " share it with the committer: use a path every TaskManager sees"
                            + " (s3://bucket/prefix, or a shared file system). Otherwise the"
                            + " temporary parts were removed by someone else (another sink with"
                            + " the same sink-id?). Nothing of this commit was made visible.");
        }
    }

    /**
     * A replayed commit: completes its publication, writes its part log events again (the writer
     * that made it may have died before it wrote them; the object replaces the first one), removes
     * directories it did not use.
     */
    private void finishReplay(List<PendingInsert> parts, Commit recorded, Instant start)
            throws IOException {
        Set<String> used = new HashSet<>();
        if (recorded != null) {
            TableState now = ctx.refreshed();
            for (CommittedPart p : recorded.parts()) {
                TableState.PartState state = now.parts().get(p.name());
                // a part of the recorded commit merged (and perhaps removed) since is not
                // published again
                if (state != null && state.active()) {
                    ctx.ensurePublished(p);
                }
                if (p.temporaryDirectory() != null) {
                    used.add(p.temporaryDirectory());
                }
            }
            if (recorded.kind() == Commit.Kind.INSERT) {
                logNewParts(recorded, Duration.between(start, ctx.clock.instant()).toMillis());
            }
        }
        for (PendingInsert p : parts) {
            if (!used.contains(p.temporaryDirectory())) {
                ctx.part(p.temporaryDirectory()).deleteAll();
            }
        }
    }

    /**
     * The NewPart events of insert commit {@code c}, as the part log object of its sequence number
     * (written again, not added, by a replay of the commit).
     */
    private void logNewParts(Commit c, long ms) {
        List<PartLog.Event> events = new ArrayList<>();
        for (CommittedPart p : c.parts()) {
            events.add(
                    new PartLog.Event(
                            PartLog.EventType.NewPart,
                            c.time(),
                            ms,
                            ctx.layout.tableName(),
                            p.name().toString(),
                            p.name().partitionId(),
                            p.rows(),
                            p.bytesOnDisk(),
                            List.of(),
                            p.dataUncompressedBytes(),
                            0,
                            0,
                            0,
                            0,
                            null));
        }
        ctx.partLog.append(events, "insert-" + c.sequence());
    }
}
