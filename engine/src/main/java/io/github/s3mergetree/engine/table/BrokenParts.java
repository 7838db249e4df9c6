package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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

    private final MergeTreeTable table;
    private final PartLog partLog;
    private final String tableName;
    private final Clock clock;
    private final AtomicLong detached = new AtomicLong();

    BrokenParts(MergeTreeTable table, PartLog partLog, String tableName, Clock clock) {
        this.table = table;
        this.partLog = partLog;
        this.tableName = tableName;
        this.clock = clock;
    }

    /** Parts this table instance moved to {@code detached/broken_*}. */
    public long detachedCount() {
        return detached.get();
    }

    /**
     * Moves {@code part} to {@code detached/broken_<name>} because of {@code reason}, records it in
     * the part log and counts it.
     *
     * @return where the part went, or empty when it was gone already
     */
    Optional<String> detach(PartName part, long rows, long bytesOnDisk, String reason)
            throws IOException {
        Optional<String> where = table.detachBrokenNow(part, reason);
        if (where.isEmpty()) {
            return where;
        }
        detached.incrementAndGet();
        LOG.warn("Part {} is broken and was moved to {}: {}", part, where.get(), reason);
        partLog.append(
                new PartLog.Event(
                        PartLog.EventType.RemovePart,
                        clock.instant(),
                        0,
                        tableName,
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
     * After a merge of {@code sources} failed with {@code failure}: checks every source that is
     * still active like {@code CHECK TABLE} and detaches those that fail.
     *
     * @return the parts detached (empty: none is broken, the failure has another cause)
     */
    List<PartName> detachBrokenSources(List<PartName> sources, Throwable failure)
            throws IOException {
        TableStore store = table.store();
        List<PartName> active = new ArrayList<>();
        for (ActivePart p : table.activeParts()) {
            active.add(p.name());
        }
        List<PartName> out = new ArrayList<>();
        for (PartName p : sources) {
            if (!active.contains(p)) {
                continue;
            }
            String problem = check(store, p.toString());
            if (problem != null) {
                long rows = -1;
                try {
                    rows = PartReader.open(store, p.toString()).rows();
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
    static String check(TableStore store, String part) {
        try {
            PartReader.open(store, part).verify();
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }
}
