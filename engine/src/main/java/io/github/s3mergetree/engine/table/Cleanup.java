package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;

/**
 * The table's cleanup (ClickHouse's {@code clearOldPartsFromFilesystem}, {@code
 * clearOldTemporaryDirectories}): parts outdated for longer than {@code old_parts_lifetime} removed
 * ({@code checksums.txt} first) and recorded by a remove entry, temporary directories of dead
 * writers and files of merges that never won removed after {@code temporary_directories_lifetime},
 * publications a dead writer left completed, and the commit log and part log trimmed. Every age is
 * measured on the table's clock.
 */
final class Cleanup {
    /** Publications younger than this are left to their writer by other processes' cleanup. */
    private static final Duration PUBLICATION_GRACE = Duration.ofSeconds(60);

    private final TableContext ctx;

    Cleanup(TableContext ctx) {
        this.ctx = ctx;
    }

    /** See {@link MergeTreeTable#cleanup}. */
    List<PartName> run() throws IOException {
        Instant now = ctx.clock.instant();
        List<PartName> removed = removeOutdatedParts(now);
        removeOrphans(now);
        trimLog();
        ctx.partLog.trim();
        return removed;
    }

    private List<PartName> removeOutdatedParts(Instant now) throws IOException {
        TableState s = ctx.refreshed();
        List<TableState.PartState> doomed = new ArrayList<>();
        for (TableState.PartState p : s.parts().values()) {
            if (p.outdatedSince() != null
                    && !p.outdatedSince()
                            .plus(ctx.layout.settings().oldPartsLifetime())
                            .isAfter(now)) {
                doomed.add(p);
            }
        }
        if (doomed.isEmpty()) {
            return List.of();
        }
        for (TableState.PartState p : doomed) {
            FaultPoints.reach("remove.before-part");
            // checksums.txt first: from then on ClickHouse does not see the part
            ctx.part(p.part().name().toString())
                    .remove(() -> FaultPoints.reach("remove.after-checksums"));
        }
        FaultPoints.reach("remove.before-record");
        List<PartName> names = recordRemoval(doomed, now);
        List<PartLog.Event> events = new ArrayList<>();
        for (TableState.PartState p : doomed) {
            if (!names.contains(p.part().name())) {
                continue;
            }
            ctx.store.delete(TableKeys.claim(p.part().name()));
            ctx.forgetPublished(p.part().name());
            events.add(
                    new PartLog.Event(
                            PartLog.EventType.RemovePart,
                            now,
                            0,
                            ctx.layout.tableName(),
                            p.part().name().toString(),
                            p.part().name().partitionId(),
                            p.part().rows(),
                            p.part().bytesOnDisk(),
                            List.of(),
                            0,
                            0,
                            0,
                            0,
                            0,
                            null));
        }
        ctx.partLog.append(events);
        return names;
    }

    /**
     * Appends the remove entry of those of {@code doomed} that are still outdated parts of the
     * table; returns their names (empty: none is left to record).
     */
    private List<PartName> recordRemoval(List<TableState.PartState> doomed, Instant now)
            throws IOException {
        List<PartName> names = new ArrayList<>();
        for (int attempt = 0; attempt < TableContext.MAX_COMMIT_ATTEMPTS; attempt++) {
            ctx.lock.lock();
            try {
                TableState cur = ctx.log.refresh();
                names.clear();
                for (TableState.PartState p : doomed) {
                    TableState.PartState still = cur.parts().get(p.part().name());
                    if (still != null && !still.active()) {
                        names.add(p.part().name());
                    }
                }
                if (names.isEmpty()) {
                    return List.of();
                }
                Commit c =
                        new Commit(
                                cur.sequence() + 1,
                                now,
                                UUID.randomUUID().toString(),
                                Commit.Kind.REMOVE,
                                null,
                                List.of(),
                                List.of(),
                                names,
                                List.of(),
                                null);
                if (ctx.log.append(c)) {
                    ctx.lock.unlock();
                    try {
                        ctx.afterAppend(c.sequence());
                    } finally {
                        ctx.lock.lock();
                    }
                    break;
                }
            } finally {
                ctx.lock.unlock();
            }
        }
        return new ArrayList<>(names);
    }

    /** See {@link MergeTreeTable#temporaryDirectories}. */
    List<String> temporaryDirectories() throws IOException {
        List<String> dirs = ctx.store.listDirectories("");
        Set<String> referenced = referencedTemporaryDirectories(ctx.refreshed());
        List<String> out = new ArrayList<>();
        for (String d : dirs) {
            if (d.startsWith(TableKeys.TMP_PREFIX) && !referenced.contains(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /** See {@link MergeTreeTable#removeTemporaryDirectories}. */
    int removeTemporaryDirectories(Predicate<String> doomed) throws IOException {
        int n = 0;
        for (String d : temporaryDirectories()) {
            if (doomed.test(d)) {
                ctx.part(d).deleteAll();
                n++;
            }
        }
        return n;
    }

    private Set<String> referencedTemporaryDirectories(TableState s) {
        Set<String> out = new HashSet<>();
        for (TableState.PartState p : s.parts().values()) {
            // an outdated part's temporary directory is nobody's any more (left by a crash
            // after its publication): removed as an orphan after its lifetime
            if (p.active()
                    && p.part().temporaryDirectory() != null
                    && !ctx.knownPublished(p.part().name())) {
                out.add(p.part().temporaryDirectory());
            }
        }
        return out;
    }

    private void removeOrphans(Instant now) throws IOException {
        // list first, then read the log: a directory listed belongs to an entry already readable
        List<String> dirs = ctx.store.listDirectories("");
        TableState s = ctx.refreshed();
        Duration lifetime = ctx.layout.settings().temporaryDirectoriesLifetime();
        for (TableState.PartState p : s.parts().values()) {
            if (p.active()
                    && !ctx.knownPublished(p.part().name())
                    && p.created().plus(PUBLICATION_GRACE).isBefore(now)) {
                ctx.ensurePublished(p.part()); // a writer died between its commit and publication
            }
        }
        Set<String> referenced = referencedTemporaryDirectories(s);
        for (String d : dirs) {
            if (d.startsWith(TableKeys.TMP_PREFIX)) {
                if (referenced.contains(d)) {
                    continue;
                }
                Instant started = startedAt(d);
                if (started != null && started.plus(lifetime).isBefore(now)) {
                    ctx.part(d).deleteAll();
                }
                continue;
            }
            Optional<PartName> name = PartName.tryParse(d);
            if (name.isEmpty() || s.parts().containsKey(name.get())) {
                continue;
            }
            // a merge that never won (or is running): keep it while its claim is young
            Optional<byte[]> claim = ctx.store.readIfExists(TableKeys.claim(name.get()));
            if (claim.isPresent() && claimTime(claim.get()).plus(lifetime).isAfter(now)) {
                continue;
            }
            ctx.part(d).deleteAll();
            ctx.store.delete(TableKeys.claim(name.get()));
        }
    }

    /** The time a merge claim was made (its {@code time}, epoch milliseconds). */
    private static Instant claimTime(byte[] claim) {
        Object json = Json.parse(new String(claim, StandardCharsets.UTF_8), "claim");
        return Instant.ofEpochMilli(Json.number(Json.object(json, "claim"), "time", 0));
    }

    /** When a temporary directory was started: from its name, else its files' times. */
    private Instant startedAt(String dir) throws IOException {
        OptionalLong fromName = InsertWriter.startedMillis(dir);
        if (fromName.isPresent() && fromName.getAsLong() > 1_000_000_000_000L) {
            return Instant.ofEpochMilli(fromName.getAsLong());
        }
        long newest = 0;
        for (ObjectSummary o : ctx.part(dir).list()) {
            newest = Math.max(newest, o.lastModifiedMillis());
        }
        return newest == 0 ? null : Instant.ofEpochMilli(newest);
    }

    /** Keeps the log from the second-newest snapshot on, and at least the last 1000 entries. */
    private void trimLog() throws IOException {
        List<Long> snaps = ctx.log.snapshots();
        if (snaps.size() < 2) {
            return;
        }
        long keepFrom = snaps.get(snaps.size() - 2);
        long last = ctx.refreshed().sequence();
        long upTo = Math.min(keepFrom, last - 1000);
        if (upTo > 0) {
            ctx.log.trim(upTo);
        }
    }
}
