package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.merge.MergeCandidate;
import io.github.s3mergetree.engine.merge.MergingTable;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.part.TtlInfos;
import io.github.s3mergetree.engine.part.WrittenPartFiles;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.LocalFileObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A MergeTree table on a {@link TableStore} (S3, or a local directory) in ClickHouse's plain
 * layout: inserts become parts (split by partition, sorted, reduced per engine when {@code
 * optimize_on_insert}, written to a temporary directory, then committed with block numbers), merges
 * replace contiguous parts by one, and the store always holds a consistent table — whatever crashes
 * — because every change is one entry of the {@link CommitLog commit log}, created with a
 * conditional write, and made visible afterwards by idempotent steps that the next opener completes
 * ({@link PartPublisher}). No locks and no renames are needed: several threads, processes and hosts
 * may insert and merge concurrently. See {@code engine/README.md} for the protocol.
 */
public final class MergeTreeTable implements MergingTable, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeTable.class);

    /** How often a writer that lost the race for a log entry tries again. */
    private static final int MAX_COMMIT_ATTEMPTS = 1000;

    /** Publications younger than this are left to their writer by other processes' cleanup. */
    private static final Duration PUBLICATION_GRACE = Duration.ofSeconds(60);

    private final TableStore store;
    private final TableLayout layout;
    private final Clock clock;
    private volatile CommitFence commitFence = CommitFence.NONE;
    private final PartWriter writer;
    private final InsertWriter insertWriter;
    private final PartLog partLog;
    private final CommitLog log;
    private final PartPublisher publisher;
    private final BrokenParts brokenParts;
    private final ReentrantLock lock = new ReentrantLock();
    private final Set<PartName> published = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final List<Consumer<List<PartName>>> newPartListeners = new CopyOnWriteArrayList<>();
    private final String writerId = UUID.randomUUID().toString();

    /** Partition → the earliest time (epoch seconds) of its next TTL merge. */
    private final Map<String, Long> nextTtlMerge = new java.util.concurrent.ConcurrentHashMap<>();

    /** The {@code ttl.txt} times of active parts, read once per part (empty: no ttl.txt). */
    private final Map<PartName, Optional<TtlInfos>> ttlInfos =
            new java.util.concurrent.ConcurrentHashMap<>();

    private MergeTreeTable(TableStore store, TableLayout layout, Clock clock) {
        this.store = store;
        this.layout = layout;
        this.clock = clock;
        this.writer = new PartWriter(layout.partFormat());
        this.insertWriter = new InsertWriter(layout, store, clock);
        this.partLog = new PartLog(store);
        this.log = new CommitLog(store, layout.settings().deduplicationWindow());
        this.publisher = new PartPublisher(store, layout.partFormat().fsync());
        this.brokenParts = new BrokenParts(this, partLog, layout.tableName(), clock);
    }

    /**
     * Opens (creating if needed) the table in {@code store}. A table created with another DDL is
     * refused; a store that does not enforce conditional writes is refused (it cannot order
     * writers). Publications interrupted by a crash are completed. A table directory written before
     * the commit log existed gets a first entry attaching its parts.
     */
    public static MergeTreeTable open(TableStore store, TableLayout layout, Clock clock)
            throws IOException {
        if (!store.supportsConditionalWrites()) {
            throw new IOException(
                    store.location()
                            + " does not enforce conditional writes (If-None-Match / If-Match):"
                            + " the table's commit log cannot order its writers there");
        }
        Optional<byte[]> ddl = store.readIfExists(TableKeys.DDL);
        if (ddl.isEmpty()) {
            if (!store.exists(TableKeys.FORMAT_VERSION)) {
                store.put(TableKeys.FORMAT_VERSION, "1".getBytes(StandardCharsets.US_ASCII));
            }
            store.createIfAbsent(TableKeys.DDL, layout.ddl().getBytes(StandardCharsets.UTF_8));
            ddl = store.readIfExists(TableKeys.DDL);
        }
        String stored = new String(ddl.orElseThrow(), StandardCharsets.UTF_8);
        if (!stored.strip().equals(layout.ddl().strip())) {
            throw new IllegalStateException(
                    "table "
                            + store.location()
                            + " was created with a different DDL:\n"
                            + stored.strip()
                            + "\nnot:\n"
                            + layout.ddl().strip());
        }
        MergeTreeTable t = new MergeTreeTable(store, layout, clock);
        t.recover();
        return t;
    }

    /**
     * The active parts of the table in {@code store}, read from its commit log without writing
     * anything (no publication is completed, no part is checked): for tools that look at a table a
     * job is writing.
     */
    public static List<ActivePart> readActiveParts(TableStore store) throws IOException {
        CommitLog log = new CommitLog(store, TableSettings.defaults().deduplicationWindow());
        List<ActivePart> out = new ArrayList<>();
        for (TableState.PartState p : log.refresh().active()) {
            out.add(activePart(p));
        }
        return out;
    }

    /**
     * Creates the table's layout in {@code store} — {@code format_version.txt} and the DDL — unless
     * a table is there; returns the DDL stored (the existing table's, or {@code ddl}). The DDL is
     * parsed and validated first ({@link TableSchema#parse}): an invalid or oversized one writes
     * nothing.
     *
     * @throws io.github.s3mergetree.engine.ddl.DdlParseException if the DDL is invalid
     */
    public static String createIfAbsent(TableStore store, String ddl) throws IOException {
        TableSchema.parse(ddl);
        return createTableFiles(store, ddl);
    }

    /** {@link #createIfAbsent(TableStore, String)} of a parsed table, stored in canonical form. */
    public static String createIfAbsent(TableStore store, TableDefinition table)
            throws IOException {
        return createTableFiles(store, table.storedDdl());
    }

    private static String createTableFiles(TableStore store, String ddl) throws IOException {
        if (!store.exists(TableKeys.FORMAT_VERSION)) {
            store.put(TableKeys.FORMAT_VERSION, "1".getBytes(StandardCharsets.US_ASCII));
        }
        store.createIfAbsent(TableKeys.DDL, ddl.getBytes(StandardCharsets.UTF_8));
        return storedDdl(store).orElseThrow();
    }

    /** The DDL stored with the table in {@code store}, if there is a table. */
    public static Optional<String> storedDdl(TableStore store) throws IOException {
        return store.readIfExists(TableKeys.DDL).map(b -> new String(b, StandardCharsets.UTF_8));
    }

    public TableLayout layout() {
        return layout;
    }

    /** The store the table lives in. */
    public TableStore store() {
        return store;
    }

    public PartLog partLog() {
        return partLog;
    }

    /**
     * Parts this instance found broken and moved to {@code detached/broken_*} ({@link
     * #detachBrokenParts}, or when a merge failed on them).
     */
    public long partsDetachedBroken() {
        return brokenParts.detachedCount();
    }

    /**
     * The merge policy configured by the table's settings ({@code max_parts_to_merge_at_once}, …).
     */
    public SimpleMergeSelector mergeSelector() {
        return new SimpleMergeSelector(layout.settings().mergeSelector());
    }

    @Override
    public void onNewParts(Consumer<List<PartName>> listener) {
        newPartListeners.add(listener);
    }

    // ------------------------------------------------------------------ state

    private TableState refreshed() throws IOException {
        lock.lock();
        try {
            return log.refresh().copy();
        } finally {
            lock.unlock();
        }
    }

    /** Completes interrupted publications; adopts the parts of a table without a log. */
    private void recover() throws IOException {
        TableState s = refreshed();
        if (s.sequence() == 0) {
            adoptExistingParts();
            s = refreshed();
        }
        // only active parts: an outdated part may be half removed already (a crash between the
        // removal of its files and the REMOVE entry), and completing its publication would fail
        // for ever ("the part is lost") and keep the table from opening
        for (TableState.PartState p : s.parts().values()) {
            if (p.active() && p.createdSeq() > log.snapshotSequence()) {
                ensurePublished(p.part());
            }
        }
    }

    /** Parts of a directory written before the commit log (with checksums.txt) become entry 1. */
    private void adoptExistingParts() throws IOException {
        List<CommittedPart> found = new ArrayList<>();
        for (String dir : store.listDirectories("")) {
            Optional<PartName> name = PartName.tryParse(dir);
            if (name.isEmpty() || !store.exists(TableKeys.partFile(dir, Checksums.FILE_NAME))) {
                continue;
            }
            PartReader r = PartReader.open(store, dir);
            long uncompressed = 0;
            for (var e : r.checksums().entries().entrySet()) {
                if (e.getKey().endsWith(".bin")) {
                    uncompressed += e.getValue().uncompressedSize();
                }
            }
            found.add(
                    new CommittedPart(
                            name.get(),
                            null,
                            r.rows(),
                            r.checksums().totalBytes(),
                            uncompressed,
                            null));
        }
        if (found.isEmpty()) {
            return;
        }
        // covered parts of the old directory stay covered
        List<CommittedPart> active = new ArrayList<>();
        List<PartName> covered = new ArrayList<>();
        for (CommittedPart p : found) {
            boolean isCovered = false;
            for (CommittedPart q : found) {
                if (!q.name().equals(p.name()) && q.name().contains(p.name())) {
                    isCovered = true;
                }
            }
            if (isCovered) {
                covered.add(p.name());
            } else {
                active.add(p);
            }
        }
        lock.lock();
        try {
            TableState s = log.refresh();
            if (s.sequence() == 0) {
                Commit c =
                        new Commit(
                                1,
                                clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.ATTACH,
                                null,
                                active,
                                List.of(),
                                List.of(),
                                List.of(),
                                "parts found in "
                                        + store.location()
                                        + " when its commit log was created");
                if (log.append(c)) {
                    for (CommittedPart p : active) {
                        published.add(p.name());
                    }
                    LOG.info(
                            "Adopted {} parts of {} into a new commit log ({} covered parts"
                                    + " left to cleanup)",
                            active.size(),
                            store.location(),
                            covered.size());
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void ensurePublished(CommittedPart p) throws IOException {
        if (published.contains(p.name())) {
            return;
        }
        publisher.complete(p);
        published.add(p.name());
    }

    /** The active parts, ordered by partition and block number. */
    public List<ActivePart> activeParts() throws IOException {
        List<ActivePart> out = new ArrayList<>();
        for (TableState.PartState p : refreshed().active()) {
            out.add(activePart(p));
        }
        return out;
    }

    private static ActivePart activePart(TableState.PartState p) {
        CommittedPart c = p.part();
        return new ActivePart(
                c.name(), c.rows(), c.bytesOnDisk(), c.dataUncompressedBytes(), p.created());
    }

    /** Active parts per partition id. */
    public Map<String, List<ActivePart>> activePartsByPartition() throws IOException {
        Map<String, List<ActivePart>> out = new LinkedHashMap<>();
        for (ActivePart p : activeParts()) {
            out.computeIfAbsent(p.name().partitionId(), k -> new ArrayList<>()).add(p);
        }
        return out;
    }

    /** How many active parts each partition has. */
    public Map<String, Integer> activePartCounts() throws IOException {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (TableState.PartState p : refreshed().active()) {
            out.merge(p.part().name().partitionId(), 1, Integer::sum);
        }
        return out;
    }

    /** Whether an insert with this dedup token is committed (and still remembered). */
    public boolean isCommitted(String dedupToken) throws IOException {
        return refreshed().token(dedupToken) != null;
    }

    /** The commit log's sequence number now (0: nothing committed yet). */
    public long sequence() throws IOException {
        return refreshed().sequence();
    }

    /**
     * The commits after sequence {@code sequence} that the log still holds, in order: each with its
     * token, kind, and parts with names and sizes (the files of a part are read by key from {@link
     * #store()}, e.g. {@code <part>/checksums.txt}). Entries older than the newest snapshots are
     * trimmed by {@link #cleanup()}; a reader that must see every commit keeps up.
     */
    public List<Commit> commitsAfter(long sequence) throws IOException {
        return log.commitsAfter(sequence);
    }

    // ---------------------------------------------------------------- inserts

    /**
     * Splits, sorts and writes {@code block} (the table's columns, in order) as one temporary part
     * per partition. Nothing is visible until {@link #commit}.
     */
    public List<TemporaryPart> writeTemporaryParts(Block block) throws IOException {
        checkColumns(block);
        return insertWriter.write(block, "insert", new InsertWriter.Timings());
    }

    /** The writer of temporary parts into this table (for writers that name their directories). */
    public InsertWriter insertWriter() {
        return insertWriter;
    }

    /** A writer of temporary parts into this table enforcing {@code settings}. */
    public InsertWriter insertWriter(InsertSettings settings) {
        return new InsertWriter(layout, store, clock, settings);
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
     * How long an insert into {@code partitionIds} should wait first ({@link InsertDelay}), and
     * refuses it when a partition has {@code parts_to_throw_insert} active parts.
     *
     * @return the delay in milliseconds (0 = insert now)
     * @throws TooManyPartsException at the limit
     */
    public long insertDelayMillis(Set<String> partitionIds) throws IOException {
        Map<String, Integer> counts = activePartCounts();
        long delay = 0;
        TableSettings s = layout.settings();
        for (String id : partitionIds) {
            int n = counts.getOrDefault(id, 0);
            if (InsertDelay.refuses(s, n)) {
                throw new TooManyPartsException(id, n, s.partsToThrowInsert());
            }
            delay = Math.max(delay, InsertDelay.millis(s, n));
        }
        return delay;
    }

    /** {@link #insertDelayMillis(Set)} for the partitions of {@code parts}. */
    public long insertDelayMillis(List<TemporaryPart> parts) throws IOException {
        Set<String> ids = new HashSet<>();
        for (TemporaryPart p : parts) {
            ids.add(p.partition().partitionId());
        }
        return insertDelayMillis(ids);
    }

    /**
     * Sets the check every insert commit of this instance passes right before its commit log entry
     * is created ({@link CommitFence#NONE} by default): a writer holding a {@link WriterLease}
     * passes {@link WriterLease.Fence#on}, so that once another writer took its lease over, it
     * commits nothing more ({@link WriterFencedException}).
     */
    public void setCommitFence(CommitFence fence) {
        this.commitFence = java.util.Objects.requireNonNull(fence, "fence");
    }

    /** Commits temporary parts just written (see {@link #commit(List, String, boolean)}). */
    public List<PartName> commit(List<TemporaryPart> parts, String dedupToken) throws IOException {
        List<PendingInsert> pending = new ArrayList<>(parts.size());
        for (TemporaryPart p : parts) {
            pending.add(PendingInsert.of(p));
        }
        return commitPending(pending, dedupToken).names();
    }

    /**
     * Makes temporary parts visible, atomically with respect to every other writer: allocates one
     * block number per part from the log state and appends an insert entry naming each temporary
     * directory and its final name — a conditional create that loses to a concurrent writer is
     * retried on the newer state — then publishes the parts ({@link PartPublisher}; a crash in
     * between is completed by the next opener). With a {@code dedupToken} (an insert's identity,
     * e.g. a sink's checkpoint and subtask) a commit that was already made is not made again: the
     * recorded names are returned and the given temporary directories, if they are not the recorded
     * ones, removed (ClickHouse's {@code insert_deduplicate} by token). The replay check and the
     * check that every temporary part is in the store happen in the same attempt as the append, so
     * neither can go stale.
     *
     * @throws MissingTemporaryPartException if a temporary part is not in the store and the token
     *     was not committed (nothing is committed)
     */
    public CommitResult commitPending(List<PendingInsert> parts, String dedupToken)
            throws IOException {
        Instant start = clock.instant();
        checkTemporaryPartsExist(parts, dedupToken);
        for (int attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
            Commit c;
            lock.lock();
            try {
                TableState s = log.refresh();
                TableState.TokenRecord known = dedupToken == null ? null : s.token(dedupToken);
                if (known != null) {
                    Optional<Commit> recorded = log.read(known.sequence());
                    lock.unlock();
                    try {
                        finishReplay(parts, recorded.orElse(null), start);
                    } finally {
                        lock.lock();
                    }
                    return new CommitResult(known.names(), known.sequence(), true);
                }
                if (parts.isEmpty()) {
                    return new CommitResult(List.of(), 0, false);
                }
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
                c =
                        new Commit(
                                s.sequence() + 1,
                                clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.INSERT,
                                dedupToken,
                                committed,
                                List.of(),
                                List.of(),
                                List.of(),
                                null);
                FaultPoints.reach("commit.before-record");
                commitFence.check();
                if (!log.append(c)) {
                    continue;
                }
            } finally {
                lock.unlock();
            }
            // the commit is made: its events go to the part log even if publishing is
            // interrupted (the next opener or a replay completes it)
            FaultPoints.reach("commit.before-part-log");
            logNewParts(c, Duration.between(start, clock.instant()).toMillis());
            FaultPoints.reach("commit.after-record");
            List<PartName> names = new ArrayList<>();
            for (CommittedPart p : c.parts()) {
                publisher.complete(p);
                published.add(p.name());
                names.add(p.name());
                FaultPoints.reach("commit.after-rename");
            }
            afterAppend(c.sequence());
            for (Consumer<List<PartName>> l : newPartListeners) {
                l.accept(names);
            }
            return new CommitResult(names, c.sequence(), false);
        }
        throw new IOException(
                "gave up committing to "
                        + store.location()
                        + " after "
                        + MAX_COMMIT_ATTEMPTS
                        + " lost races for the next commit log entry");
    }

    private void checkTemporaryPartsExist(List<PendingInsert> parts, String token)
            throws IOException {
        for (PendingInsert p : parts) {
            String key = TableKeys.partFile(p.temporaryDirectory(), Checksums.FILE_NAME);
            if (store.exists(key)) {
                continue;
            }
            if (token != null && isCommitted(token)) {
                return; // a replay: the committed parts were published, the directories removed
            }
            throw new MissingTemporaryPartException(
                    "temporary part "
                            + store.describe(p.temporaryDirectory())
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
            TableState now = refreshed();
            for (CommittedPart p : recorded.parts()) {
                TableState.PartState state = now.parts().get(p.name());
                // a part of the recorded commit merged (and perhaps removed) since is not
                // published again
                if (state != null && state.active()) {
                    ensurePublished(p);
                }
                if (p.temporaryDirectory() != null) {
                    used.add(p.temporaryDirectory());
                }
            }
            if (recorded.kind() == Commit.Kind.INSERT) {
                logNewParts(recorded, Duration.between(start, clock.instant()).toMillis());
            }
        }
        for (PendingInsert p : parts) {
            if (!used.contains(p.temporaryDirectory())) {
                store.deletePrefix(TableKeys.partPrefix(p.temporaryDirectory()));
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
                            layout.tableName(),
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
        partLog.append(events, "insert-" + c.sequence());
    }

    /**
     * After entry {@code seq}: every {@value CommitLog#SNAPSHOT_INTERVAL} entries, makes sure every
     * publication since the last snapshot is complete and writes a snapshot of the state.
     */
    private void afterAppend(long seq) {
        if (seq % CommitLog.SNAPSHOT_INTERVAL != 0) {
            return;
        }
        try {
            // the state now (at seq or later): any sequence makes a valid snapshot
            TableState s = refreshed();
            for (TableState.PartState p : s.parts().values()) {
                if (p.active() && p.createdSeq() > log.snapshotSequence()) {
                    ensurePublished(p.part());
                }
            }
            log.writeSnapshot(s);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Writing the snapshot at {} of {} failed", seq, store.location(), e);
        }
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

    // ----------------------------------------------------------------- merges

    @Override
    public long maxBytesToMerge() {
        return layout.settings().maxBytesToMergeAtMaxSpaceInPool();
    }

    @Override
    public List<List<MergeCandidate>> mergeCandidates(Set<PartName> busy) throws IOException {
        Instant now = clock.instant();
        List<List<MergeCandidate>> out = new ArrayList<>();
        for (List<TableState.PartState> parts : refreshed().activeByPartition().values()) {
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

    /**
     * ClickHouse's TTL merge selection ({@code TTLDeleteMergeSelector}): the part whose smallest
     * TTL time is the earliest one at or before now (with {@code ttl_only_drop_parts}, whose
     * largest is: every row expired), with its neighbours in the partition whose TTL has expired
     * too, within {@code max_bytes_to_merge_at_max_space_in_pool}; not in a partition that had a
     * TTL merge less than {@code merge_with_ttl_timeout} seconds ago (default 14400). Times are the
     * table's clock. A single part is merged alone, which removes its expired rows.
     */
    @Override
    public List<PartName> ttlMerge(Set<PartName> busy) throws IOException {
        if (layout.ttl().isEmpty()) {
            return List.of();
        }
        long now = clock.instant().getEpochSecond();
        boolean onlyWholeParts = layout.ttl().onlyDropParts();
        List<TableState.PartState> best = null;
        int bestIndex = -1;
        long bestTime = Long.MAX_VALUE;
        for (Map.Entry<String, List<TableState.PartState>> e :
                refreshed().activeByPartition().entrySet()) {
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
            ensurePublished(p.part());
            infos = Optional.ofNullable(PartReader.open(store, name.toString()).ttlInfos());
            ttlInfos.put(name, infos);
        }
        if (infos.isEmpty()) {
            return 0;
        }
        long t = whole ? infos.get().partMaxTtl() : infos.get().partMinTtl();
        return t != 0 && t <= now ? t : 0;
    }

    /**
     * Merges {@code sources} (contiguous active parts of one partition, in block order) into one
     * part and publishes it. The merged part's name is claimed first ({@code
     * s3mergetree_metadata/claims/<name>}, a create-only object; a taken name gets the next level),
     * its files are written under that final name without {@code checksums.txt}, and the merge
     * entry is appended only while its sources are still exactly the active parts of its range;
     * then {@code checksums.txt} makes it visible and its sources outdated.
     *
     * @return the merged part's name, or null if the sources changed meanwhile (nothing changed)
     */
    @Override
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
        TableState s = refreshed();
        PartName probe = new PartName(partition, min, max, level + 1, 0);
        if (!s.canMerge(probe, sources)) {
            return null;
        }
        for (PartName p : sources) {
            ensurePublished(s.parts().get(p).part());
        }
        PartName target = claim(partition, min, max, level + 1, sources);
        Instant start = clock.instant();
        long startNanos = System.nanoTime();
        String dir = target.toString();
        WrittenPartFiles files;
        try {
            List<PartReader> readers = new ArrayList<>();
            for (PartName p : sources) {
                PartReader r = PartReader.open(store, p.toString());
                // marks, primary.idx, ...: a damaged one is found here, not merged away
                r.verifyUncompressedFiles();
                readers.add(r);
            }
            PartitionData partitionData = partitionDataOf(readers.get(0));
            files = mergeWithScratch(readers, partitionData, dir, progress);
        } catch (IOException | RuntimeException e) {
            abandon(target);
            partLog.append(
                    mergeEvent(target, sources, start, startNanos, progress, null, e.toString()));
            if (e instanceof PartMerger.MergeCancelledException) {
                throw e;
            }
            if (!refreshed().canMerge(target, sources)) {
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
        Commit c = null;
        for (int attempt = 0; attempt < MAX_COMMIT_ATTEMPTS && c == null; attempt++) {
            lock.lock();
            try {
                TableState now = log.refresh();
                if (!now.canMerge(target, sources)) {
                    break;
                }
                Commit candidate =
                        new Commit(
                                now.sequence() + 1,
                                clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.MERGE,
                                null,
                                List.of(merged),
                                sources,
                                List.of(),
                                List.of(),
                                null);
                FaultPoints.reach("merge.before-publish");
                if (log.append(candidate)) {
                    c = candidate;
                }
            } finally {
                lock.unlock();
            }
        }
        if (c == null) {
            abandon(target);
            LOG.info("Merge into {} abandoned: its sources changed meanwhile", target);
            return null;
        }
        FaultPoints.reach("merge.after-publish");
        store.write(
                TableKeys.partFile(dir, Checksums.FILE_NAME),
                checksums,
                layout.partFormat().fsync());
        published.add(target);
        afterAppend(c.sequence());
        partLog.append(mergeEvent(target, sources, start, startNanos, progress, files, null));
        return target;
    }

    /**
     * Claims the name of a merged part: the first free level from {@code level} on. The claim makes
     * the writer the only one to write files under that name.
     */
    private PartName claim(String partition, long min, long max, int level, List<PartName> sources)
            throws IOException {
        TableState s = refreshed();
        for (int l = level; l < level + 100; l++) {
            PartName name = new PartName(partition, min, max, l, 0);
            if (s.parts().containsKey(name)) {
                continue;
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("writer", writerId);
            m.put("time", clock.millis());
            List<Object> src = new ArrayList<>();
            for (PartName p : sources) {
                src.add(p.toString());
            }
            m.put("sources", src);
            if (store.createIfAbsent(
                    TableKeys.claim(name), Json.write(m).getBytes(StandardCharsets.UTF_8))) {
                return name;
            }
        }
        throw new IOException("no free name for a merge of " + sources + " in " + store.location());
    }

    /** Removes an unpublished merged part's files, then its claim. */
    private void abandon(PartName target) {
        try {
            store.deletePrefix(TableKeys.partPrefix(target.toString()));
            store.delete(TableKeys.claim(target));
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
                error == null ? start : clock.instant(),
                (System.nanoTime() - startNanos) / 1_000_000,
                layout.tableName(),
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
                            layout.mergeSpec(clock.instant().getEpochSecond()),
                            partitionData,
                            store,
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
        if (layout.partitionKey().isEmpty()) {
            return PartitionData.UNPARTITIONED;
        }
        byte[] keyBytes = part.readFile("partition.dat");
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

    // ---------------------------------------------------------- detach, cleanup

    /**
     * Moves a part that cannot be read to {@code detached/broken_<name>} (ClickHouse's habit): a
     * detach entry removes it from the table (the outdated parts it covered become active again, as
     * ClickHouse reactivates them), then its files are moved.
     *
     * @return the detached directory's name in the table ({@code detached/broken_…}), or empty if
     *     the part is not in the table
     */
    public Optional<String> detachBroken(PartName name, String reason) throws IOException {
        TableState.PartState p = refreshed().parts().get(name);
        return brokenParts.detach(
                name,
                p == null ? 0 : p.part().rows(),
                p == null ? 0 : p.part().bytesOnDisk(),
                reason);
    }

    /** {@link #detachBroken} without the part log record and the count (BrokenParts does those). */
    Optional<String> detachBrokenNow(PartName name, String reason) throws IOException {
        Commit c = null;
        for (int attempt = 0; attempt < MAX_COMMIT_ATTEMPTS && c == null; attempt++) {
            lock.lock();
            try {
                TableState s = log.refresh();
                if (!s.parts().containsKey(name)) {
                    return Optional.empty();
                }
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
                        if (!coveredByOther && publisher.isPublished(p.part())) {
                            reactivate.add(n);
                        }
                    }
                }
                Commit candidate =
                        new Commit(
                                s.sequence() + 1,
                                clock.instant(),
                                UUID.randomUUID().toString(),
                                Commit.Kind.DETACH,
                                null,
                                List.of(),
                                List.of(),
                                List.of(name),
                                reactivate,
                                reason);
                if (log.append(candidate)) {
                    c = candidate;
                }
            } finally {
                lock.unlock();
            }
        }
        if (c == null) {
            throw new IOException("could not detach " + name + " from " + store.location());
        }
        published.remove(name);
        String target = TableKeys.DETACHED_DIR + "/broken_" + name;
        for (int i = 1; !store.list(TableKeys.partPrefix(target)).isEmpty(); i++) {
            target = TableKeys.DETACHED_DIR + "/broken_" + name + "_try" + i;
        }
        String dir = name.toString();
        List<ObjectSummary> files = store.list(TableKeys.partPrefix(dir));
        // checksums.txt first out of the part, last into detached/: never two live copies
        for (ObjectSummary f : files) {
            String file = f.key().substring(dir.length() + 1);
            if (!file.equals(Checksums.FILE_NAME)) {
                store.copy(f.key(), TableKeys.partFile(target, file));
            }
        }
        Optional<byte[]> sums = store.readIfExists(TableKeys.partFile(dir, Checksums.FILE_NAME));
        store.delete(TableKeys.partFile(dir, Checksums.FILE_NAME));
        if (sums.isPresent()) {
            store.write(TableKeys.partFile(target, Checksums.FILE_NAME), sums.get(), false);
        }
        store.deletePrefix(TableKeys.partPrefix(dir));
        store.delete(TableKeys.claim(name));
        LOG.warn("Part {} of {} was detached to {}: {}", name, store.location(), target, reason);
        return Optional.of(target);
    }

    /**
     * Checks every active part like ClickHouse does when it loads a table — its {@code
     * checksums.txt} parses and every file it lists exists with the listed size — and detaches
     * those that fail ({@link #detachBroken}). Costs one listing of the table and one read per
     * part, so it runs once per job (the sink's merge coordinator) and in {@code check}, not on
     * every open.
     *
     * @return the parts detached
     */
    public List<PartName> detachBrokenParts() throws IOException {
        List<TableState.PartState> active = refreshed().active();
        // a committed part whose publication another writer is doing right now (or a crash
        // interrupted) has no checksums.txt yet: it is completed here, not taken for broken
        Map<PartName, String> problems = new java.util.LinkedHashMap<>();
        for (TableState.PartState p : active) {
            try {
                ensurePublished(p.part());
            } catch (IOException | RuntimeException e) {
                problems.put(p.part().name(), e.toString());
            }
        }
        // listed after the state was read and its parts published: every file of a part active
        // in that state is in the listing unless the part is damaged
        Map<String, Long> sizes = new java.util.HashMap<>();
        for (ObjectSummary o : store.list("")) {
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
        List<PartName> detached = new ArrayList<>();
        for (Map.Entry<PartName, String> e : problems.entrySet()) {
            TableState.PartState p = refreshed().parts().get(e.getKey());
            if (p == null || !p.active()) {
                continue; // merged away or detached meanwhile
            }
            // looked at once more on its own: a problem seen once may have been a moment's
            String problem;
            try {
                ensurePublished(p.part());
                Map<String, Long> own = new java.util.HashMap<>();
                for (ObjectSummary o : store.list(TableKeys.partPrefix(e.getKey().toString()))) {
                    own.put(o.key(), o.size());
                }
                problem = loadProblem(e.getKey().toString(), own);
            } catch (IOException | RuntimeException x) {
                problem = x.toString();
            }
            if (problem != null
                    && brokenParts
                            .detach(
                                    p.part().name(),
                                    p.part().rows(),
                                    p.part().bytesOnDisk(),
                                    "cannot be loaded: " + problem)
                            .isPresent()) {
                detached.add(p.part().name());
            }
        }
        return detached;
    }

    /**
     * Why ClickHouse would refuse to load part {@code dir} whose files have the {@code sizes} (by
     * key), or null: its {@code checksums.txt} does not parse, or a file it lists is missing or has
     * another size.
     */
    private String loadProblem(String dir, Map<String, Long> sizes) {
        try {
            Checksums c = PartReader.readChecksums(store, dir);
            for (var e : c.entries().entrySet()) {
                Long size = sizes.get(TableKeys.partFile(dir, e.getKey()));
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
     * Removes parts outdated for longer than {@code old_parts_lifetime} (measured from the time of
     * the merge that outdated them, as the log records it), the temporary directories of dead
     * writers ({@code temporary_directories_lifetime} after they were started), files of merges
     * that never won, old commit log entries and snapshots, and logs {@code RemovePart} events.
     *
     * @return the names of the removed parts
     */
    public List<PartName> cleanup() throws IOException {
        Instant now = clock.instant();
        List<PartName> removed = removeOutdatedParts(now);
        removeOrphans(now);
        trimLog();
        partLog.trim();
        return removed;
    }

    private List<PartName> removeOutdatedParts(Instant now) throws IOException {
        TableState s = refreshed();
        List<TableState.PartState> doomed = new ArrayList<>();
        for (TableState.PartState p : s.parts().values()) {
            if (p.outdatedSince() != null
                    && !p.outdatedSince().plus(layout.settings().oldPartsLifetime()).isAfter(now)) {
                doomed.add(p);
            }
        }
        if (doomed.isEmpty()) {
            return List.of();
        }
        for (TableState.PartState p : doomed) {
            String dir = p.part().name().toString();
            FaultPoints.reach("remove.before-part");
            // checksums.txt first: from then on ClickHouse does not see the part
            store.delete(TableKeys.partFile(dir, Checksums.FILE_NAME));
            FaultPoints.reach("remove.after-checksums");
            store.deletePrefix(TableKeys.partPrefix(dir));
        }
        FaultPoints.reach("remove.before-record");
        List<PartName> names = new ArrayList<>();
        for (int attempt = 0; attempt < MAX_COMMIT_ATTEMPTS; attempt++) {
            lock.lock();
            try {
                TableState cur = log.refresh();
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
                if (log.append(c)) {
                    lock.unlock();
                    try {
                        afterAppend(c.sequence());
                    } finally {
                        lock.lock();
                    }
                    break;
                }
            } finally {
                lock.unlock();
            }
        }
        List<PartLog.Event> events = new ArrayList<>();
        for (TableState.PartState p : doomed) {
            if (!names.contains(p.part().name())) {
                continue;
            }
            store.delete(TableKeys.claim(p.part().name()));
            published.remove(p.part().name());
            events.add(
                    new PartLog.Event(
                            PartLog.EventType.RemovePart,
                            now,
                            0,
                            layout.tableName(),
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
        partLog.append(events);
        return new ArrayList<>(names);
    }

    /**
     * The temporary directories of the table (names) that belong to no unfinished publication: what
     * a writer may remove once it knows they are its own leftovers.
     */
    public List<String> temporaryDirectories() throws IOException {
        List<String> dirs = store.listDirectories("");
        Set<String> referenced = referencedTemporaryDirectories(refreshed());
        List<String> out = new ArrayList<>();
        for (String d : dirs) {
            if (d.startsWith(TableKeys.TMP_PREFIX) && !referenced.contains(d)) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Removes the temporary directories among {@link #temporaryDirectories()} that {@code doomed}
     * accepts (a writer's leftovers of aborted attempts).
     *
     * @return how many were removed
     */
    public int removeTemporaryDirectories(Predicate<String> doomed) throws IOException {
        int n = 0;
        for (String d : temporaryDirectories()) {
            if (doomed.test(d)) {
                store.deletePrefix(TableKeys.partPrefix(d));
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
                    && !published.contains(p.part().name())) {
                out.add(p.part().temporaryDirectory());
            }
        }
        return out;
    }

    private void removeOrphans(Instant now) throws IOException {
        // list first, then read the log: a directory listed belongs to an entry already readable
        List<String> dirs = store.listDirectories("");
        TableState s = refreshed();
        Duration lifetime = layout.settings().temporaryDirectoriesLifetime();
        for (TableState.PartState p : s.parts().values()) {
            if (p.active()
                    && !published.contains(p.part().name())
                    && p.created().plus(PUBLICATION_GRACE).isBefore(now)) {
                ensurePublished(p.part()); // a writer died between its commit and publication
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
                    store.deletePrefix(TableKeys.partPrefix(d));
                }
                continue;
            }
            Optional<PartName> name = PartName.tryParse(d);
            if (name.isEmpty() || s.parts().containsKey(name.get())) {
                continue;
            }
            // a merge that never won (or is running): keep it while its claim is young
            Optional<byte[]> claim = store.readIfExists(TableKeys.claim(name.get()));
            if (claim.isPresent()) {
                long t =
                        Json.number(
                                Json.object(
                                        Json.parse(
                                                new String(claim.get(), StandardCharsets.UTF_8),
                                                "claim"),
                                        "claim"),
                                "time",
                                0);
                if (Instant.ofEpochMilli(t).plus(lifetime).isAfter(now)) {
                    continue;
                }
            }
            store.deletePrefix(TableKeys.partPrefix(d));
            store.delete(TableKeys.claim(name.get()));
        }
    }

    /** When a temporary directory was started: from its name, else its files' times. */
    private Instant startedAt(String dir) throws IOException {
        java.util.OptionalLong fromName = InsertWriter.startedMillis(dir);
        if (fromName.isPresent() && fromName.getAsLong() > 1_000_000_000_000L) {
            return Instant.ofEpochMilli(fromName.getAsLong());
        }
        long newest = 0;
        for (ObjectSummary o : store.list(TableKeys.partPrefix(dir))) {
            newest = Math.max(newest, o.lastModifiedMillis());
        }
        return newest == 0 ? null : Instant.ofEpochMilli(newest);
    }

    /** Keeps the log from the second-newest snapshot on, and at least the last 1000 entries. */
    private void trimLog() throws IOException {
        List<Long> snaps = log.snapshots();
        if (snaps.size() < 2) {
            return;
        }
        long keepFrom = snaps.get(snaps.size() - 2);
        long last = refreshed().sequence();
        long upTo = Math.min(keepFrom, last - 1000);
        if (upTo > 0) {
            log.trim(upTo);
        }
    }

    /** Reads all rows of the active parts (for tests and the {@code check} command). */
    public long totalRows() throws IOException {
        long n = 0;
        for (ActivePart p : activeParts()) {
            n += p.rows();
        }
        return n;
    }

    // ------------------------------------------------------------------ ledgers

    /**
     * A small object of another component kept with the table ({@code
     * s3mergetree_metadata/ledgers/<name>}), e.g. a delivery's progress, with its ETag for {@link
     * #replaceLedger}.
     */
    public Optional<Ledger> readLedger(String name) throws IOException {
        String key = TableKeys.LEDGER_DIR + checkLedgerName(name);
        Optional<ObjectSummary> stat = store.stat(key);
        if (stat.isEmpty()) {
            return Optional.empty();
        }
        Optional<byte[]> bytes = store.readIfExists(key);
        Optional<ObjectSummary> after = store.stat(key);
        if (bytes.isEmpty() || after.isEmpty() || !after.get().etag().equals(stat.get().etag())) {
            return readLedger(name); // changed while read
        }
        return Optional.of(new Ledger(bytes.get(), stat.get().etag()));
    }

    /** Creates ledger {@code name} if it does not exist; false if it does. */
    public boolean createLedger(String name, byte[] content) throws IOException {
        return store.createIfAbsent(TableKeys.LEDGER_DIR + checkLedgerName(name), content);
    }

    /**
     * Replaces ledger {@code name} if it still has {@code etag} ({@code If-Match}).
     *
     * @return the new ETag, or empty if another writer changed it first
     */
    public Optional<String> replaceLedger(String name, byte[] content, String etag)
            throws IOException {
        return store.replaceIfMatch(TableKeys.LEDGER_DIR + checkLedgerName(name), content, etag);
    }

    private static String checkLedgerName(String name) {
        if (!name.matches("[A-Za-z0-9._-]{1,100}") || name.startsWith(".")) {
            throw new IllegalArgumentException("invalid ledger name '" + name + "'");
        }
        return name;
    }

    /** A ledger's content and the ETag to replace it with. */
    public record Ledger(byte[] content, String etag) {}

    /**
     * Nothing to release: every merge removes its own scratch directory, and the store is the
     * caller's. Kept so that callers can hold a table in try-with-resources.
     */
    @Override
    public void close() throws IOException {}
}
