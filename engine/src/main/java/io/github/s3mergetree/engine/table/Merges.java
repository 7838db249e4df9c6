package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.merge.MergeCandidate;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.LocalFileObjectStoreClient;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The merges of a table: the candidates handed to a merge selector, and the execution and commit of
 * one merge — its name claimed, its sources read and merged into files under that name, the merge
 * entry appended while its sources are still the active parts of its range, then {@code
 * checksums.txt} written. A merge that fails on a damaged source hands it to {@link BrokenParts}.
 */
final class Merges {
    private static final Logger LOG = LoggerFactory.getLogger(Merges.class);

    private final TableContext ctx;
    private final BrokenParts brokenParts;
    private final PartWriter writer;

    Merges(TableContext ctx, BrokenParts brokenParts) {
        this.ctx = ctx;
        this.brokenParts = brokenParts;
        this.writer = new PartWriter(ctx.layout.partFormat());
    }

    /** See {@link MergeTreeTable#mergeCandidates}. */
    List<List<MergeCandidate>> candidates(Set<PartName> busy) throws IOException {
        Instant now = ctx.clock.instant();
        List<List<MergeCandidate>> out = new ArrayList<>();
        for (List<TableState.PartState> parts : ctx.refreshed().activeByPartition().values()) {
            List<MergeCandidate> c = new ArrayList<>();
            for (TableState.PartState p : parts) {
                long age = Math.max(0, Duration.between(p.created(), now).getSeconds());
                PartName n = p.part().name();
                c.add(new MergeCandidate(n, p.part().bytesOnDisk(), age, !busy.contains(n)));
            }
            out.add(c);
        }
        return out;
    }

    /** See {@link MergeTreeTable#merge}. */
    PartName merge(List<PartName> sources, PartMerger.Progress progress) throws IOException {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("no parts to merge");
        }
        String partition = sources.get(0).partitionId();
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int level = 0;
        for (PartName p : sources) {
            if (!p.partitionId().equals(partition)) {
                throw new IllegalArgumentException("parts of different partitions: " + sources);
            }
            min = Math.min(min, p.minBlock());
            max = Math.max(max, p.maxBlock());
            level = Math.max(level, p.level());
        }
        TableState s = ctx.refreshed();
        PartName probe = new PartName(partition, min, max, level + 1, 0);
        if (!s.canMerge(probe, sources)) {
            return null;
        }
        for (PartName p : sources) {
            ctx.ensurePublished(s.parts().get(p).part());
        }
        PartName target = claim(partition, min, max, level + 1, sources);
        Instant start = ctx.clock.instant();
        long startNanos = System.nanoTime();
        String dir = target.toString();
        WrittenPartFiles files;
        try {
            List<PartReader> readers = new ArrayList<>();
            for (PartName p : sources) {
                PartReader r = PartReader.open(ctx.store, p.toString());
                // marks, primary.idx, ...: a damaged one is found here, not merged away
                r.verifyUncompressedFiles();
                readers.add(r);
            }
            PartitionData partitionData = partitionDataOf(readers.get(0));
            files = mergeWithScratch(readers, partitionData, dir, progress);
        } catch (IOException | RuntimeException e) {
            abandon(target);
            ctx.partLog.append(
                    mergeEvent(target, sources, start, startNanos, progress, null, e.toString()));
            if (e instanceof PartMerger.MergeCancelledException) {
                throw e;
            }
            if (!ctx.refreshed().canMerge(target, sources)) {
                LOG.info("Merge into {} abandoned: its sources changed meanwhile ({})", target, e);
                return null;
            }
            // a damaged source fails every merge that includes it: quarantine it, go on without
            if (!brokenParts.detachBrokenSources(sources, e).isEmpty()) {
                return null;
            }
            throw e;
        }
        FaultPoints.reach("merge.before-lock");
        byte[] checksums = files.checksums().serialize();
        CommittedPart merged =
                new CommittedPart(
                        target,
                        null,
                        files.rows(),
                        files.bytesOnDisk(),
                        files.dataUncompressedBytes(),
                        checksums);
        Commit c = appendMerge(merged, sources);
        if (c == null) {
            abandon(target);
            LOG.info("Merge into {} abandoned: its sources changed meanwhile", target);
            return null;
        }
        FaultPoints.reach("merge.after-publish");
        ctx.part(dir).writeChecksums(checksums, ctx.layout.partFormat().fsync());
        ctx.markPublished(target);
        ctx.afterAppend(c.sequence());
        ctx.partLog.append(mergeEvent(target, sources, start, startNanos, progress, files, null));
        return target;
    }

    /** Appends the merge entry while {@code sources} are still mergeable; null if they are not. */
    private Commit appendMerge(CommittedPart merged, List<PartName> sources) throws IOException {
        for (int attempt = 0; attempt < TableContext.MAX_COMMIT_ATTEMPTS; attempt++) {
            ctx.lock.lock();
            try {
                TableState now = ctx.log.refresh();
                if (!now.canMerge(merged.name(), sources)) {
                    return null;
                }
                Commit candidate =
                        new Commit(
                                now.sequence() + 1,
                                ctx.clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.MERGE,
                                null,
                                List.of(merged),
                                sources,
                                List.of(),
                                List.of(),
                                null);
                FaultPoints.reach("merge.before-publish");
                if (ctx.log.append(candidate)) {
                    return candidate;
                }
            } finally {
                ctx.lock.unlock();
            }
        }
        return null;
    }

    /**
     * Claims the name of a merged part: the first free level from {@code level} on. The claim makes
     * the writer the only one to write files under that name.
     */
    private PartName claim(String partition, long min, long max, int level, List<PartName> sources)
            throws IOException {
        TableState s = ctx.refreshed();
        for (int l = level; l < level + 100; l++) {
            PartName name = new PartName(partition, min, max, l, 0);
            if (s.parts().containsKey(name)) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("writer", ctx.writerId);
            m.put("time", ctx.clock.millis());
            List<Object> src = new ArrayList<>();
            for (PartName p : sources) {
                src.add(p.toString());
            }
            m.put("sources", src);
            if (ctx.store.createIfAbsent(
                    TableKeys.claim(name), Json.write(m).getBytes(StandardCharsets.UTF_8))) {
                return name;
            }
        }
        throw new IOException(
                "no free name for a merge of " + sources + " in " + ctx.store.location());
    }

    /** Removes an unpublished merged part's files, then its claim. */
    private void abandon(PartName target) {
        try {
            ctx.part(target.toString()).deleteAll();
            ctx.store.delete(TableKeys.claim(target));
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not remove the abandoned merged part {}: {}", target, e.toString());
        }
    }

    private PartLog.Event mergeEvent(
            PartName target,
            List<PartName> sources,
            Instant start,
            long startNanos,
            PartMerger.Progress progress,
            WrittenPartFiles files,
            String error) {
        return new PartLog.Event(
                PartLog.EventType.MergeParts,
                error == null ? start : ctx.clock.instant(),
                (System.nanoTime() - startNanos) / 1_000_000,
                ctx.layout.tableName(),
                target.toString(),
                target.partitionId(),
                files == null ? 0 : files.rows(),
                files == null ? 0 : files.bytesOnDisk(),
                sources.stream().map(PartName::toString).toList(),
                files == null ? 0 : files.dataUncompressedBytes(),
                progress.rowsRead(),
                progress.bytesReadUncompressed(),
                0,
                error == null ? 0 : 1,
                error);
    }

    /**
     * Runs one merge with its own local scratch directory (the vertical algorithm's row sources),
     * removed when the merge ends, so that no directory outlives its merge, whether or not the
     * table is closed.
     */
    private WrittenPartFiles mergeWithScratch(
            List<PartReader> readers,
            PartitionData partitionData,
            String dir,
            PartMerger.Progress progress)
            throws IOException {
        LocalFileObjectStoreClient c = LocalFileObjectStoreClient.temporary("s3mergetree-merge-");
        try {
            return new PartMerger(writer, TableStore.of(c, "", c.root()))
                    .merge(
                            readers,
                            ctx.layout.mergeSpec(ctx.clock.instant().getEpochSecond()),
                            partitionData,
                            ctx.store,
                            dir,
                            progress);
        } finally {
            try {
                c.deleteRoot();
            } catch (IOException e) {
                LOG.warn("could not remove the merge scratch directory {}", c.root(), e);
            }
        }
    }

    private PartitionData partitionDataOf(PartReader part) throws IOException {
        TableLayout layout = ctx.layout;
        if (layout.partitionKey().isEmpty()) {
            return PartitionData.UNPARTITIONED;
        }
        byte[] keyBytes = part.readFile(PartFiles.PARTITION);
        return new PartitionData(
                part.name().substring(0, part.name().indexOf('_')),
                keyBytes,
                layout.minmaxColumns(),
                layout.partitionKey().types());
    }
}
