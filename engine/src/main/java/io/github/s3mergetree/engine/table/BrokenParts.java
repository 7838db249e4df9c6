package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.ProjectionParts;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quarantines parts whose content is damaged, as ClickHouse does: a part found broken (by {@link
 * MergeTreeTable#detachBrokenParts}, or when a merge fails reading it) is moved to {@code
 * detached/broken_<name>} by a detach entry of the commit log, the move is recorded in the part log
 * (a {@code RemovePart} event whose {@code exception} says where the part went and why) and
 * counted, and the table goes on without it: inserts and merges of the other parts continue instead
 * of failing on the same part forever.
 *
 * <p>A failed merge alone does not condemn its sources (the failure may be a full disk or a bug):
 * each source still active is checked like {@code CHECK TABLE} ({@link PartReader#verify()}), and
 * only the parts that fail the check are detached. A detached part's rows are no longer in the
 * table; parts it had covered (outdated sources not yet removed) become active again, as in
 * ClickHouse. The operator finds the part in {@code detached/} to inspect or re-attach.
 */
public final class BrokenParts {
    private static final Logger LOG = LoggerFactory.getLogger(BrokenParts.class);

    private final TableContext ctx;
    private final AtomicLong detached = new AtomicLong();

    BrokenParts(TableContext ctx) {
        this.ctx = ctx;
    }

    /** Parts this table instance moved to {@code detached/broken_*}. */
    public long detachedCount() {
        return detached.get();
    }

    /** See {@link MergeTreeTable#detachBroken}. */
    Optional<String> detach(PartName name, String reason) throws IOException {
        TableState.PartState p = ctx.refreshed().parts().get(name);
        return detach(
                name,
                p == null ? 0 : p.part().rows(),
                p == null ? 0 : p.part().bytesOnDisk(),
                reason);
    }

    /**
     * Moves {@code part} to {@code detached/broken_<name>} because of {@code reason}, records it in
     * the part log and counts it.
     *
     * @return where the part went, or empty when it was gone already
     */
    Optional<String> detach(PartName part, long rows, long bytesOnDisk, String reason)
            throws IOException {
        Optional<String> where = detachNow(part, reason);
        if (where.isEmpty()) {
            return where;
        }
        detached.incrementAndGet();
        LOG.warn("Part {} is broken and was moved to {}: {}", part, where.get(), reason);
        ctx.partLog.append(
                new PartLog.Event(
                        PartLog.EventType.RemovePart,
                        ctx.clock.instant(),
                        0,
                        ctx.layout.tableName(),
                        part.toString(),
                        part.partitionId(),
                        rows,
                        bytesOnDisk,
                        List.of(),
                        0,
                        0,
                        0,
                        0,
                        0,
                        "detached as broken to " + where.get() + ": " + reason));
        return where;
    }

    /**
     * A detach entry removes {@code name} from the table (the outdated parts it covered become
     * active again, as ClickHouse reactivates them), then its files are moved.
     */
    private Optional<String> detachNow(PartName name, String reason) throws IOException {
        Commit c = null;
        for (int attempt = 0; attempt < TableContext.MAX_COMMIT_ATTEMPTS && c == null; attempt++) {
            ctx.lock.lock();
            try {
                TableState s = ctx.log.refresh();
                if (!s.parts().containsKey(name)) {
                    return Optional.empty();
                }
                Commit candidate =
                        new Commit(
                                s.sequence() + 1,
                                ctx.clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.DETACH,
                                null,
                                List.of(),
                                List.of(),
                                List.of(name),
                                reactivated(s, name),
                                reason);
                if (ctx.log.append(candidate)) {
                    c = candidate;
                }
            } finally {
                ctx.lock.unlock();
            }
        }
        if (c == null) {
            throw new IOException("could not detach " + name + " from " + ctx.store.location());
        }
        ctx.forgetPublished(name);
        String target = TableKeys.DETACHED_DIR + "/broken_" + name;
        for (int i = 1; !ctx.part(target).list().isEmpty(); i++) {
            target = TableKeys.DETACHED_DIR + "/broken_" + name + "_try" + i;
        }
        // checksums.txt first out of the part, last into detached/: never two live copies
        ctx.part(name.toString())
                .moveTo(
                        ctx.part(target),
                        PartStorage.Handover.TAKE_OUT_FIRST,
                        false,
                        PartStorage.NO_STEPS);
        ctx.store.delete(TableKeys.claim(name));
        LOG.warn(
                "Part {} of {} was detached to {}: {}", name, ctx.store.location(), target, reason);
        return Optional.of(target);
    }

    /** The outdated parts {@code name} covers that no other active part covers, still published. */
    private List<PartName> reactivated(TableState s, PartName name) throws IOException {
        List<PartName> reactivate = new ArrayList<>();
        for (TableState.PartState p : s.parts().values()) {
            PartName n = p.part().name();
            if (!p.active() && !n.equals(name) && name.contains(n)) {
                boolean coveredByOther = false;
                for (TableState.PartState q : s.active()) {
                    if (!q.part().name().equals(name) && q.part().name().contains(n)) {
                        coveredByOther = true;
                    }
                }
                if (!coveredByOther && ctx.publisher.isPublished(p.part())) {
                    reactivate.add(n);
                }
            }
        }
        return reactivate;
    }

    /** See {@link MergeTreeTable#detachBrokenParts}. */
    List<PartName> detachUnloadable() throws IOException {
        List<TableState.PartState> active = ctx.refreshed().active();
        // a committed part whose publication another writer is doing right now (or a crash
        // interrupted) has no checksums.txt yet: it is completed here, not taken for broken
        Map<PartName, String> problems = new LinkedHashMap<>();
        for (TableState.PartState p : active) {
            try {
                ctx.ensurePublished(p.part());
            } catch (IOException | RuntimeException e) {
                problems.put(p.part().name(), e.toString());
            }
        }
        // listed after the state was read and its parts published: every file of a part active
        // in that state is in the listing unless the part is damaged
        Map<String, Long> sizes = new HashMap<>();
        for (ObjectSummary o : ctx.store.list("")) {
            sizes.put(o.key(), o.size());
        }
        for (TableState.PartState p : active) {
            PartName name = p.part().name();
            if (!problems.containsKey(name)) {
                String problem = loadProblem(name.toString(), sizes);
                if (problem != null) {
                    problems.put(name, problem);
                }
            }
        }
        List<PartName> out = new ArrayList<>();
        for (Map.Entry<PartName, String> e : problems.entrySet()) {
            TableState.PartState p = ctx.refreshed().parts().get(e.getKey());
            if (p == null || !p.active()) {
                continue; // merged away or detached meanwhile
            }
            // looked at once more on its own: a problem seen once may have been a moment's
            String problem;
            try {
                ctx.ensurePublished(p.part());
                Map<String, Long> own = new HashMap<>();
                for (ObjectSummary o : ctx.part(e.getKey().toString()).list()) {
                    own.put(o.key(), o.size());
                }
                problem = loadProblem(e.getKey().toString(), own);
            } catch (IOException | RuntimeException x) {
                problem = x.toString();
            }
            if (problem != null
                    && detach(
                                    p.part().name(),
                                    p.part().rows(),
                                    p.part().bytesOnDisk(),
                                    "cannot be loaded: " + problem)
                            .isPresent()) {
                out.add(p.part().name());
            }
        }
        return out;
    }

    /**
     * Why ClickHouse would refuse to load part {@code dir} whose files have the {@code sizes} (by
     * key), or null: its {@code checksums.txt} does not parse, or a file it lists is missing or has
     * another size.
     */
    private String loadProblem(String dir, Map<String, Long> sizes) {
        try {
            Checksums c = PartReader.readChecksums(ctx.store, dir);
            for (var e : c.entries().entrySet()) {
                if (ProjectionParts.isProjection(e.getKey())) {
                    // a projection sub-part (<name>.proj/) is listed as one entry: its own
                    // checksums.txt must be there
                    String inner = PartStorage.fileKey(dir + "/" + e.getKey(), PartFiles.CHECKSUMS);
                    if (!sizes.containsKey(inner)) {
                        return e.getKey() + " (projection part) is missing";
                    }
                    continue;
                }
                Long size = sizes.get(PartStorage.fileKey(dir, e.getKey()));
                if (size == null) {
                    return e.getKey() + " is missing";
                }
                if (size != e.getValue().fileSize()) {
                    return e.getKey()
                            + " has "
                            + size
                            + " bytes, checksums.txt says "
                            + e.getValue().fileSize();
                }
            }
            return null;
        } catch (IOException | RuntimeException e) {
            return e.toString();
        }
    }

    /**
     * After a merge of {@code sources} failed with {@code failure}: checks every source that is
     * still active like {@code CHECK TABLE} and detaches those that fail.
     *
     * @return the parts detached (empty: none is broken, the failure has another cause)
     */
    List<PartName> detachBrokenSources(List<PartName> sources, Throwable failure)
            throws IOException {
        List<PartName> active = new ArrayList<>();
        for (TableState.PartState p : ctx.refreshed().active()) {
            active.add(p.part().name());
        }
        List<PartName> out = new ArrayList<>();
        for (PartName p : sources) {
            if (!active.contains(p)) {
                continue;
            }
            String problem = check(p.toString());
            if (problem != null) {
                long rows = -1;
                try {
                    rows = PartReader.open(ctx.store, p.toString()).rows();
                } catch (IOException | RuntimeException ignored) {
                    // count.txt or checksums.txt itself is damaged: the row count is unknown
                }
                if (detach(
                                p,
                                Math.max(0, rows),
                                0,
                                problem + " (found when a merge failed: " + failure + ")")
                        .isPresent()) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Null when the part passes {@link PartReader#verify()}, else what is wrong. */
    private String check(String part) {
        try {
            PartReader.open(ctx.store, part).verify();
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }
}
