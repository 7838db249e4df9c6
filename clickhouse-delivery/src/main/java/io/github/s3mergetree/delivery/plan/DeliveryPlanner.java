package io.github.s3mergetree.delivery.plan;

import io.github.s3mergetree.delivery.part.PartInventory;
import io.github.s3mergetree.engine.part.PartName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which parts of the written table a target still needs: a pure function of the table's
 * committed parts and the parts the target's ledger says it received.
 *
 * <p>Parts are compared by block ranges, since the written table keeps merging while deliveries go
 * on: a part is received when a received part covers it, or when received parts inside it cover its
 * whole block range (it is a merge of received parts). An active part with nothing received inside
 * it is delivered whole. An active part that merges received and unreceived blocks is delivered
 * through its unreceived sources, which stay on storage for {@code old_parts_lifetime} after the
 * merge: the largest committed parts inside it that touch no received block. Block numbers an
 * aborted commit allocated but never used leave gaps in a range; where merges keep every row (plain
 * MergeTree), equal row counts prove such a gap empty. Anything else is a {@link Plan#problems()
 * problem}: rows the target lacks and that no part on storage holds apart from rows it has, which
 * delivery refuses to guess about.
 */
public final class DeliveryPlanner {
    private DeliveryPlanner() {}

    /** Parts to deliver, and what cannot be delivered without risking duplicates or losses. */
    public record Plan(List<PartName> toDeliver, List<String> problems) {
        public Plan {
            toDeliver = List.copyOf(toDeliver);
            problems = List.copyOf(problems);
        }

        public boolean isEmpty() {
            return toDeliver.isEmpty();
        }
    }

    /**
     * @param committed rows of every committed part of the written table (active or covered)
     * @param received rows of every part the target received
     * @param mergesKeepRows whether merges keep every row (plain MergeTree), so that row counts may
     *     prove a gap in a block range empty
     */
    public static Plan plan(
            Map<PartName, Long> committed, Map<PartName, Long> received, boolean mergesKeepRows) {
        List<PartName> all = new ArrayList<>(committed.keySet());
        all.sort(null);
        List<PartName> deliver = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (PartName p : PartInventory.active(all)) {
            if (coveredByOne(p, received.keySet())) {
                continue;
            }
            List<PartName> inside = maximal(containedIn(p, received.keySet()));
            if (inside.isEmpty()) {
                deliver.add(p);
                continue;
            }
            long receivedRows = rows(inside, received);
            if (covers(inside, p) || (mergesKeepRows && receivedRows == committed.get(p))) {
                continue;
            }
            List<PartName> sources = new ArrayList<>();
            for (PartName s : all) {
                if (!s.equals(p) && p.contains(s) && !intersectsAny(s, inside)) {
                    sources.add(s);
                }
            }
            sources = maximal(sources);
            List<PartName> together = new ArrayList<>(inside);
            together.addAll(sources);
            if (covers(together, p)
                    || (mergesKeepRows
                            && receivedRows + rows(sources, committed) == committed.get(p))) {
                deliver.addAll(sources);
            } else {
                problems.add(
                        "part "
                                + p
                                + " merges blocks the target received ("
                                + inside
                                + ") with blocks it did not receive, and the parts holding only the"
                                + " latter are no longer on storage (outdated parts are removed"
                                + " after old_parts_lifetime)");
            }
        }
        deliver.sort(null);
        return new Plan(deliver, problems);
    }

    private static boolean coveredByOne(PartName p, Set<PartName> parts) {
        for (PartName q : parts) {
            if (q.contains(p) || sameRange(q, p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameRange(PartName a, PartName b) {
        return a.partitionId().equals(b.partitionId())
                && a.minBlock() == b.minBlock()
                && a.maxBlock() == b.maxBlock();
    }

    private static List<PartName> containedIn(PartName p, Set<PartName> parts) {
        List<PartName> out = new ArrayList<>();
        for (PartName q : parts) {
            if (p.partitionId().equals(q.partitionId())
                    && p.minBlock() <= q.minBlock()
                    && q.maxBlock() <= p.maxBlock()) {
                out.add(q);
            } else if (p.partitionId().equals(q.partitionId())
                    && q.minBlock() <= p.maxBlock()
                    && p.minBlock() <= q.maxBlock()) {
                // a received part straddling p's range: count it as inside, so p's remaining
                // blocks are delivered through sources that avoid it
                out.add(q);
            }
        }
        return out;
    }

    /** Those of {@code parts} no other of them contains. */
    private static List<PartName> maximal(List<PartName> parts) {
        List<PartName> out = new ArrayList<>();
        for (PartName p : parts) {
            boolean inner = false;
            for (PartName q : parts) {
                if (!q.equals(p)
                        && q.partitionId().equals(p.partitionId())
                        && q.minBlock() <= p.minBlock()
                        && p.maxBlock() <= q.maxBlock()
                        && (q.minBlock() != p.minBlock()
                                || q.maxBlock() != p.maxBlock()
                                || q.level() > p.level())) {
                    inner = true;
                    break;
                }
            }
            if (!inner) {
                out.add(p);
            }
        }
        out.sort(null);
        return out;
    }

    private static boolean intersectsAny(PartName s, List<PartName> parts) {
        for (PartName q : parts) {
            if (q.minBlock() <= s.maxBlock() && s.minBlock() <= q.maxBlock()) {
                return true;
            }
        }
        return false;
    }

    /** Whether the block ranges of {@code parts} together cover {@code p}'s range. */
    private static boolean covers(List<PartName> parts, PartName p) {
        List<PartName> sorted = new ArrayList<>(parts);
        sorted.sort((a, b) -> Long.compare(a.minBlock(), b.minBlock()));
        long next = p.minBlock();
        for (PartName q : sorted) {
            if (q.minBlock() > next) {
                return false;
            }
            next = Math.max(next, q.maxBlock() + 1);
        }
        return next > p.maxBlock();
    }

    private static long rows(List<PartName> parts, Map<PartName, Long> rows) {
        long r = 0;
        for (PartName p : parts) {
            Long n = rows.get(p);
            r += n == null ? 0 : n;
        }
        return r;
    }
}
