package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.merge.MergeCandidate;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.CorruptPartException;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MergeTree table in a directory: inserts become parts (split by partition, sorted, reduced per
 * engine when {@code optimize_on_insert}, written to a temporary directory, then committed with
 * block numbers), merges replace contiguous parts by one, and the directory always holds a
 * consistent table — whatever crashes — because a part becomes visible only by an atomic rename and
 * a merged part hides its sources by covering their block range.
 *
 * <p>Thread-safe: several threads (and processes) may insert and merge concurrently; the metadata
 * lock of {@link TableDirectory} orders publications.
 */
public final class MergeTreeTable {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeTable.class);

    private final TableDirectory dir;
    private final TableLayout layout;
    private final Clock clock;
    private final PartWriter writer;
    private final InsertWriter insertWriter;
    private final PartLog partLog;
    private final BrokenParts brokenParts;
    private final Map<PartName, ActivePart> partInfo = new ConcurrentHashMap<>();
    private final List<Consumer<List<PartName>>> newPartListeners = new CopyOnWriteArrayList<>();

    private MergeTreeTable(TableDirectory dir, TableLayout layout, Clock clock) {
        this.dir = dir;
        this.layout = layout;
        this.clock = clock;
        this.writer = new PartWriter(layout.partFormat());
        this.insertWriter = new InsertWriter(layout, dir);
        this.partLog =
                new PartLog(
                        dir.root().resolve(TableDirectory.METADATA_DIR).resolve("part_log.jsonl"));
        this.brokenParts = new BrokenParts(dir, partLog, layout.tableName(), clock);
    }

    /**
     * Opens (creating if needed) the table at {@code root}. A directory created with another DDL is
     * refused. Interrupted commits are completed; parts that cannot be loaded are moved to {@code
     * detached/broken_*} with a logged reason.
     */
    public static MergeTreeTable open(Path root, TableLayout layout, Clock clock)
            throws IOException {
        TableDirectory dir = TableDirectory.createOrOpen(root, layout.ddl());
        String stored = dir.storedDdl().orElse(layout.ddl());
        if (!stored.strip().equals(layout.ddl().strip())) {
            throw new IllegalStateException(
                    "table directory "
                            + root
                            + " was created with a different DDL:\n"
                            + stored.strip()
                            + "\nnot:\n"
                            + layout.ddl().strip());
        }
        dir.recover();
        MergeTreeTable t = new MergeTreeTable(dir, layout, clock);
        t.loadParts();
        return t;
    }

    public TableLayout layout() {
        return layout;
    }

    public TableDirectory directory() {
        return dir;
    }

    public PartLog partLog() {
        return partLog;
    }

    /**
     * Parts this instance found broken and moved to {@code detached/broken_*} (when loading, or
     * when a merge failed on them).
     */
    public long partsDetachedBroken() {
        return brokenParts.detachedCount();
    }

    /** Called with the names of newly committed parts (the merge scheduler listens). */
    public void onNewParts(Consumer<List<PartName>> listener) {
        newPartListeners.add(listener);
    }

    private void loadParts() throws IOException {
        for (PartName p : dir.activeParts()) {
            try {
                info(p);
            } catch (IOException | RuntimeException e) {
                brokenParts.detach(p, 0, 0, "cannot be loaded: " + e);
            }
        }
    }

    private ActivePart info(PartName p) throws IOException {
        ActivePart known = partInfo.get(p);
        if (known != null) {
            return known;
        }
        Path partDir = dir.root().resolve(p.toString());
        Path checksumsFile = partDir.resolve("checksums.txt");
        Checksums c = Checksums.parse(Files.readAllBytes(checksumsFile), checksumsFile.toString());
        for (var e : c.entries().entrySet()) {
            Path f = partDir.resolve(e.getKey());
            long size = Files.size(f);
            if (size != e.getValue().fileSize()) {
                throw new CorruptPartException(
                        f.toString(), size, "size " + e.getValue().fileSize(), "size " + size);
            }
        }
        long rows =
                Long.parseLong(
                        Files.readString(partDir.resolve("count.txt"), StandardCharsets.US_ASCII));
        long uncompressed = 0;
        for (var e : c.entries().entrySet()) {
            if (e.getKey().endsWith(".bin")) {
                uncompressed += e.getValue().uncompressedSize();
            }
        }
        ActivePart a =
                new ActivePart(
                        p,
                        rows,
                        c.totalBytes(),
                        uncompressed,
                        Files.getLastModifiedTime(partDir).toInstant());
        partInfo.put(p, a);
        return a;
    }

    /** The active parts, ordered by partition and block number. */
    public List<ActivePart> activeParts() throws IOException {
        List<PartName> active = dir.activeParts();
        List<ActivePart> out = new ArrayList<>();
        for (PartName p : active) {
            out.add(info(p));
        }
        // forget parts merged away meanwhile, so a long-lived instance does not grow
        partInfo.keySet().retainAll(new java.util.HashSet<>(active));
        return out;
    }

    /** Active parts per partition id. */
    public Map<String, List<ActivePart>> activePartsByPartition() throws IOException {
        Map<String, List<ActivePart>> out = new LinkedHashMap<>();
        for (ActivePart p : activeParts()) {
            out.computeIfAbsent(p.name().partitionId(), k -> new ArrayList<>()).add(p);
        }
        return out;
    }

    /**
     * Splits, sorts and writes {@code block} (the table's columns, in order) as one temporary part
     * per partition. Nothing is visible until {@link #commit}.
     */
    public List<TemporaryPart> writeTemporaryParts(Block block) throws IOException {
        checkColumns(block);
        return insertWriter.write(block, "insert", new InsertWriter.Timings());
    }

    private void checkColumns(Block block) {
        if (!block.names().equals(layout.columnNames())
                || !block.types().equals(layout.columnTypes())) {
            throw new IllegalArgumentException(
                    "block columns "
                            + describe(block.names(), block.types())
                            + " do not match table "
                            + layout.tableName()
                            + " "
                            + describe(layout.columnNames(), layout.columnTypes()));
        }
    }

    private static String describe(List<String> names, List<?> types) {
        StringBuilder s = new StringBuilder("(");
        for (int i = 0; i < names.size(); i++) {
            s.append(i > 0 ? ", " : "").append(names.get(i)).append(' ').append(types.get(i));
        }
        return s.append(')').toString();
    }

    /**
     * How long an insert into the partitions of {@code parts} should wait first, and refuses it
     * when a partition has {@code parts_to_throw_insert} active parts (ClickHouse's {@code
     * delayInsertOrThrowIfNeeded}): the delay grows from 0 at {@code parts_to_delay_insert} to
     * {@code max_delay_to_insert} at the limit.
     *
     * @return the delay in milliseconds (0 = insert now)
     * @throws TooManyPartsException at the limit
     */
    public long insertDelayMillis(List<TemporaryPart> parts) throws IOException {
        Map<String, List<ActivePart>> byPartition = activePartsByPartition();
        long delay = 0;
        TableSettings s = layout.settings();
        for (TemporaryPart p : parts) {
            String id = p.partition().partitionId();
            int n = byPartition.getOrDefault(id, List.of()).size();
            if (n >= s.partsToThrowInsert()) {
                throw new TooManyPartsException(id, n, s.partsToThrowInsert());
            }
            if (n >= s.partsToDelayInsert()) {
                double k =
                        (double) (n - s.partsToDelayInsert() + 1)
                                / (s.partsToThrowInsert() - s.partsToDelayInsert());
                long d = (long) Math.pow(s.maxDelayToInsert().toMillis(), Math.min(1.0, k));
                delay = Math.max(delay, d);
            }
        }
        return delay;
    }

    /**
     * Commits temporary parts (see {@link TableDirectory#commit}); with a dedup token a replayed
     * commit is a no-op.
     */
    public List<PartName> commit(List<TemporaryPart> parts, String dedupToken) throws IOException {
        Instant start = clock.instant();
        boolean replay = dedupToken != null && dir.isCommitted(dedupToken);
        List<PartName> names = dir.commit(parts, dedupToken);
        if (!replay) {
            long ms = java.time.Duration.between(start, clock.instant()).toMillis();
            for (int i = 0; i < names.size() && i < parts.size(); i++) {
                TemporaryPart p = parts.get(i);
                partLog.append(
                        new PartLog.Event(
                                PartLog.EventType.NewPart,
                                clock.instant(),
                                ms,
                                layout.tableName(),
                                names.get(i).toString(),
                                names.get(i).partitionId(),
                                p.files().rows(),
                                p.files().bytesOnDisk(),
                                List.of(),
                                p.files().dataUncompressedBytes(),
                                0,
                                0,
                                0,
                                0,
                                null));
            }
            if (layout.settings().deduplicationWindow() > 0 && names.size() > 0) {
                dir.trimCommitRecords(layout.settings().deduplicationWindow());
            }
        }
        for (Consumer<List<PartName>> l : newPartListeners) {
            l.accept(names);
        }
        return names;
    }

    /** Writes and commits {@code block} at once (no dedup token). */
    public List<PartName> insert(Block block) throws IOException {
        List<TemporaryPart> parts = writeTemporaryParts(block);
        try {
            long delay = insertDelayMillis(parts);
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

    /** The candidates the merge selector sees, per partition, with {@code busy} parts marked. */
    public List<List<MergeCandidate>> mergeCandidates(java.util.Set<PartName> busy)
            throws IOException {
        Instant now = clock.instant();
        List<List<MergeCandidate>> out = new ArrayList<>();
        for (List<ActivePart> parts : activePartsByPartition().values()) {
            List<MergeCandidate> c = new ArrayList<>();
            for (ActivePart p : parts) {
                long age = Math.max(0, java.time.Duration.between(p.created(), now).getSeconds());
                c.add(new MergeCandidate(p.name(), p.bytesOnDisk(), age, !busy.contains(p.name())));
            }
            out.add(c);
        }
        return out;
    }

    /**
     * Merges {@code sources} (contiguous active parts of one partition, in block order) into one
     * part and publishes it.
     *
     * <p>When the merge fails because a source is damaged (its files contradict {@code
     * checksums.txt}), that source is moved to {@code detached/broken_<name>} ({@link BrokenParts})
     * and null is returned: a later merge goes on without it.
     *
     * @return the merged part's name, or null if the sources changed meanwhile or a broken source
     *     was detached (no merged part was published)
     */
    public PartName merge(List<PartName> sources, PartMerger.Progress progress) throws IOException {
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
        PartName target = new PartName(partition, min, max, level + 1, 0);
        Instant start = clock.instant();
        long startNanos = System.nanoTime();
        Path tmp = null;
        WrittenPartFiles files;
        try {
            List<PartReader> readers = new ArrayList<>();
            for (PartName p : sources) {
                PartReader r = PartReader.open(dir.root().resolve(p.toString()));
                // marks, primary.idx, ...: a damaged one is found here, not merged away
                r.verifyUncompressedFiles();
                readers.add(r);
            }
            PartitionData partitionData = partitionDataOf(readers.get(0));
            tmp = dir.newTemporaryPartDirectory("merge", partition);
            files =
                    new PartMerger(writer)
                            .merge(readers, layout.mergeSpec(), partitionData, tmp, progress);
        } catch (IOException | RuntimeException e) {
            if (tmp != null) {
                Parts.deleteRecursively(tmp);
            }
            partLog.append(
                    new PartLog.Event(
                            PartLog.EventType.MergeParts,
                            clock.instant(),
                            (System.nanoTime() - startNanos) / 1_000_000,
                            layout.tableName(),
                            target.toString(),
                            partition,
                            0,
                            0,
                            sources.stream().map(PartName::toString).toList(),
                            0,
                            progress.rowsRead(),
                            progress.bytesReadUncompressed(),
                            0,
                            1,
                            e.toString()));
            if (e instanceof PartMerger.MergeCancelledException) {
                throw e;
            }
            if (!dir.activeParts().containsAll(sources)) {
                LOG.info("Merge into {} abandoned: its sources changed meanwhile ({})", target, e);
                return null;
            }
            // a damaged source fails every merge that includes it: quarantine it, go on without
            if (!brokenParts.detachBrokenSources(sources, e).isEmpty()) {
                return null;
            }
            throw e;
        }
        if (!dir.publishMerge(tmp, target, sources)) {
            LOG.info("Merge into {} abandoned: its sources changed meanwhile", target);
            return null;
        }
        partLog.append(
                new PartLog.Event(
                        PartLog.EventType.MergeParts,
                        start,
                        (System.nanoTime() - startNanos) / 1_000_000,
                        layout.tableName(),
                        target.toString(),
                        partition,
                        files.rows(),
                        files.bytesOnDisk(),
                        sources.stream().map(PartName::toString).toList(),
                        files.dataUncompressedBytes(),
                        progress.rowsRead(),
                        progress.bytesReadUncompressed(),
                        0,
                        0,
                        null));
        return target;
    }

    private PartitionData partitionDataOf(PartReader part) throws IOException {
        if (layout.partitionKey().isEmpty()) {
            return PartitionData.UNPARTITIONED;
        }
        byte[] keyBytes = Files.readAllBytes(part.directory().resolve("partition.dat"));
        return new PartitionData(
                part.name().substring(0, part.name().indexOf('_')),
                keyBytes,
                layout.minmaxColumns(),
                layout.partitionKey().types());
    }

    /**
     * ClickHouse's {@code OPTIMIZE TABLE … FINAL}: merges every partition to one part (a partition
     * that already has one part is rewritten only if {@code rewriteSingleParts}).
     *
     * @return the parts created
     */
    public List<PartName> optimizeFinal(boolean rewriteSingleParts) throws IOException {
        List<PartName> created = new ArrayList<>();
        for (List<ActivePart> parts : activePartsByPartition().values()) {
            if (parts.size() < 2 && !rewriteSingleParts) {
                continue;
            }
            PartName merged =
                    merge(parts.stream().map(ActivePart::name).toList(), new PartMerger.Progress());
            if (merged != null) {
                created.add(merged);
            }
        }
        return created;
    }

    /**
     * Removes parts outdated for longer than {@code old_parts_lifetime} and temporary directories
     * of dead writers, logging {@code RemovePart} events.
     */
    public List<PartName> cleanup() throws IOException {
        Instant now = clock.instant();
        List<PartName> removed = dir.removeOutdatedParts(layout.settings().oldPartsLifetime(), now);
        for (PartName p : removed) {
            ActivePart info = partInfo.remove(p);
            partLog.append(
                    new PartLog.Event(
                            PartLog.EventType.RemovePart,
                            now,
                            0,
                            layout.tableName(),
                            p.toString(),
                            p.partitionId(),
                            info == null ? 0 : info.rows(),
                            info == null ? 0 : info.bytesOnDisk(),
                            List.of(),
                            0,
                            0,
                            0,
                            0,
                            0,
                            null));
        }
        dir.removeStaleTemporaryDirectories(layout.settings().temporaryDirectoriesLifetime(), now);
        return removed;
    }

    /** Reads all rows of the active parts (for tests and the {@code check} command). */
    public long totalRows() throws IOException {
        long n = 0;
        for (ActivePart p : activeParts()) {
            n += p.rows();
        }
        return n;
    }
}
