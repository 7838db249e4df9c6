package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.TtlInfos;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * ClickHouse's TTL merge selection ({@code TTLDeleteMergeSelector}) over the table's active parts,
 * with the {@code ttl.txt} times of each part read once and the {@code merge_with_ttl_timeout} of
 * each partition remembered.
 */
final class TtlMergeSelector {
    private final TableContext ctx;

    /** Partition → the earliest time (epoch seconds) of its next TTL merge. */
    private final Map<String, Long> nextTtlMerge = new ConcurrentHashMap<>();

    /** The {@code ttl.txt} times of active parts, read once per part (empty: no ttl.txt). */
    private final Map<PartName, Optional<TtlInfos>> ttlInfos = new ConcurrentHashMap<>();

    TtlMergeSelector(TableContext ctx) {
        this.ctx = ctx;
    }

    /** See {@link MergeTreeTable#ttlMerge}. */
    List<PartName> select(Set<PartName> busy) throws IOException {
        TableLayout layout = ctx.layout;
        if (layout.ttl().isEmpty()) {
            return List.of();
        }
        long now = ctx.clock.instant().getEpochSecond();
        boolean onlyWholeParts = layout.ttl().onlyDropParts();
        List<TableState.PartState> best = null;
        int bestIndex = -1;
        long bestTime = Long.MAX_VALUE;
        for (Map.Entry<String, List<TableState.PartState>> e :
                ctx.refreshed().activeByPartition().entrySet()) {
            if (nextTtlMerge.getOrDefault(e.getKey(), Long.MIN_VALUE) > now) {
                continue;
            }
            List<TableState.PartState> parts = e.getValue();
            for (int i = 0; i < parts.size(); i++) {
                long t = ttlTime(parts.get(i), busy, now, onlyWholeParts);
                if (t != 0 && t < bestTime) {
                    bestTime = t;
                    best = parts;
                    bestIndex = i;
                }
            }
        }
        if (best == null) {
            return List.of();
        }
        long maxBytes = layout.settings().maxBytesToMergeAtMaxSpaceInPool();
        long bytes = best.get(bestIndex).part().bytesOnDisk();
        int from = bestIndex;
        int to = bestIndex;
        while (from > 0
                && ttlTime(best.get(from - 1), busy, now, onlyWholeParts) != 0
                && (maxBytes == 0 || bytes + best.get(from - 1).part().bytesOnDisk() <= maxBytes)) {
            from--;
            bytes += best.get(from).part().bytesOnDisk();
        }
        while (to + 1 < best.size()
                && ttlTime(best.get(to + 1), busy, now, onlyWholeParts) != 0
                && (maxBytes == 0 || bytes + best.get(to + 1).part().bytesOnDisk() <= maxBytes)) {
            to++;
            bytes += best.get(to).part().bytesOnDisk();
        }
        List<PartName> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(best.get(i).part().name());
        }
        nextTtlMerge.put(out.get(0).partitionId(), now + layout.ttl().mergeWithTtlTimeoutSeconds());
        return out;
    }

    /**
     * The expired TTL time that makes {@code p} a TTL merge candidate (its smallest TTL time, or
     * its largest when only whole parts are dropped), or 0 if it is busy or nothing expired.
     */
    private long ttlTime(TableState.PartState p, Set<PartName> busy, long now, boolean whole)
            throws IOException {
        PartName name = p.part().name();
        if (busy.contains(name) || p.part().rows() == 0) {
            return 0;
        }
        Optional<TtlInfos> infos = ttlInfos.get(name);
        if (infos == null) {
            ctx.ensurePublished(p.part());
            infos = Optional.ofNullable(PartReader.open(ctx.store, name.toString()).ttlInfos());
            ttlInfos.put(name, infos);
        }
        if (infos.isEmpty()) {
            return 0;
        }
        long t = whole ? infos.get().partMaxTtl() : infos.get().partMinTtl();
        return t != 0 && t <= now ? t : 0;
    }
}
