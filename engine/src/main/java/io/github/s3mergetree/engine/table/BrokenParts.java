package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Quarantines parts whose content is damaged, as ClickHouse does: a part found broken (when the
 * table loads it, or when a merge fails reading it) is moved to {@code detached/broken_<name>}, the
 * move is recorded in the part log (a {@code RemovePart} event whose {@code exception} says where
 * the part went and why) and counted, and the table goes on without it: inserts and merges of the
 * other parts continue instead of failing on the same part forever.
 *
 * <p>A failed merge alone does not condemn its sources (the failure may be a full disk or a bug):
 * each source still active is checked like {@code CHECK TABLE} ({@link PartReader#verify()}), and
 * only the parts that fail the check are detached. A detached part's rows are no longer in the
 * table; parts it had covered (outdated sources not yet removed) become visible again, as in
 * ClickHouse. The operator finds the part in {@code detached/} to inspect or re-attach.
 */
public final class BrokenParts {
    private static final Logger LOG = LoggerFactory.getLogger(BrokenParts.class);

    private final TableDirectory dir;
    private final PartLog partLog;
    private final String tableName;
    private final Clock clock;
    private final AtomicLong detached = new AtomicLong();

    BrokenParts(TableDirectory dir, PartLog partLog, String tableName, Clock clock) {
        this.dir = dir;
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
     * @return where the part went, or null when it was gone already
     */
    Path detach(PartName part, long rows, long bytesOnDisk, String reason) throws IOException {
        if (!Files.isDirectory(dir.root().resolve(part.toString()))) {
            return null;
        }
        Path target = dir.detachBroken(part);
        detached.incrementAndGet();
        String where = dir.root().relativize(target).toString();
        LOG.warn("Part {} is broken and was moved to {}: {}", part, where, reason);
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
                        "detached as broken to " + where + ": " + reason));
        return target;
    }

    /**
     * After a merge of {@code sources} failed with {@code failure}: checks every source that is
     * still active like {@code CHECK TABLE} and detaches those that fail.
     *
     * @return the parts detached (empty: none is broken, the failure has another cause)
     */
    List<PartName> detachBrokenSources(List<PartName> sources, Throwable failure)
            throws IOException {
        List<PartName> active = dir.activeParts();
        List<PartName> out = new ArrayList<>();
        for (PartName p : sources) {
            if (!active.contains(p)) {
                continue;
            }
            String problem = check(dir.root().resolve(p.toString()));
            if (problem != null) {
                long rows = -1;
                try {
                    rows = PartReader.open(dir.root().resolve(p.toString())).rows();
                } catch (IOException | RuntimeException ignored) {
                    // count.txt or checksums.txt itself is damaged: the row count is unknown
                }
                if (detach(
                                p,
                                Math.max(0, rows),
                                0,
                                problem + " (found when a merge failed: " + failure + ")")
                        != null) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    /** Null when the part passes {@link PartReader#verify()}, else what is wrong. */
    static String check(Path partDir) {
        try {
            PartReader.open(partDir).verify();
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }
}
