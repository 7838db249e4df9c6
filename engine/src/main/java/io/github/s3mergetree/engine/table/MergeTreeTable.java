package io.github.s3mergetree.engine.table;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.merge.MergeCandidate;
import io.github.s3mergetree.engine.merge.MergingTable;
import io.github.s3mergetree.engine.merge.PartMerger;
import io.github.s3mergetree.engine.merge.SimpleMergeSelector;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A MergeTree table on a {@link TableStore} (S3, or a local directory) in ClickHouse's plain
 * layout: inserts become parts (split by partition, sorted, reduced per engine when {@code
 * optimize_on_insert}, written to a temporary directory, then committed with block numbers), merges
 * replace contiguous parts by one, and the store always holds a consistent table — whatever crashes
 * — because every change is one entry of the {@link CommitLog commit log}, created with a
 * conditional write, and made visible afterwards by idempotent steps that the next opener completes
 * ({@link PartPublisher}). No locks and no renames are needed: several threads, processes and hosts
 * may insert and merge concurrently. See {@code engine/README.md} for the protocol.
 *
 * <p>This class is the table's API; the work is done by operations over one shared {@link
 * TableContext}: {@link TableOpener} (open, recover, adopt), {@link InsertCommits}, {@link Merges},
 * {@link Cleanup} and {@link BrokenParts}.
 */
public final class MergeTreeTable implements MergingTable, AutoCloseable {
    private final TableContext ctx;
    private final InsertWriter insertWriter;
    private final InsertCommits inserts;
    private final BrokenParts brokenParts;
    private final Merges merges;
    private final TtlMergeSelector ttlMerges;
    private final Cleanup cleanup;

    private MergeTreeTable(TableStore store, TableLayout layout, Clock clock) {
        this.ctx = new TableContext(store, layout, clock);
        this.insertWriter = new InsertWriter(layout, store, clock);
        this.inserts = new InsertCommits(ctx);
        this.brokenParts = new BrokenParts(ctx);
        this.merges = new Merges(ctx, brokenParts);
        this.ttlMerges = new TtlMergeSelector(ctx);
        this.cleanup = new Cleanup(ctx);
    }

    /**
     * Opens (creating if needed) the table in {@code store}. A table created with another DDL is
     * refused; a store that does not enforce conditional writes is refused (it cannot order
     * writers). Publications interrupted by a crash are completed. A table directory written before
     * the commit log existed gets a first entry attaching its parts.
     */
    public static MergeTreeTable open(TableStore store, TableLayout layout, Clock clock)
            throws IOException {
        TableOpener.checkOrCreate(store, layout);
        MergeTreeTable t = new MergeTreeTable(store, layout, clock);
        TableOpener.recover(t.ctx);
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
            out.add(TableContext.activePart(p));
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
        return TableOpener.createIfAbsent(store, ddl);
    }

    /** {@link #createIfAbsent(TableStore, String)} of a parsed table, stored in canonical form. */
    public static String createIfAbsent(TableStore store, TableDefinition table)
            throws IOException {
        return TableOpener.createIfAbsent(store, table);
    }

    /** The DDL stored with the table in {@code store}, if there is a table. */
    public static Optional<String> storedDdl(TableStore store) throws IOException {
        return TableOpener.storedDdl(store);
    }

    public TableLayout layout() {
        return ctx.layout;
    }

    /** The store the table lives in. */
    public TableStore store() {
        return ctx.store;
    }

    public PartLog partLog() {
        return ctx.partLog;
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
        return new SimpleMergeSelector(ctx.layout.settings().mergeSelector());
    }

    @Override
    public void onNewParts(Consumer<List<PartName>> listener) {
        inserts.onNewParts(listener);
    }

    // ------------------------------------------------------------------ state

    /** The active parts, ordered by partition and block number. */
    public List<ActivePart> activeParts() throws IOException {
        List<ActivePart> out = new ArrayList<>();
        for (TableState.PartState p : ctx.refreshed().active()) {
            out.add(TableContext.activePart(p));
        }
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

    /** Whether an insert with this dedup token is committed (and still remembered). */
    public boolean isCommitted(String dedupToken) throws IOException {
        return ctx.refreshed().token(dedupToken) != null;
    }

    /** The commit log's sequence number now (0: nothing committed yet). */
    public long sequence() throws IOException {
        return ctx.refreshed().sequence();
    }

    /** How many active parts each partition has. */
    public Map<String, Integer> activePartCounts() throws IOException {
        return inserts.activePartCounts();
    }

    /**
     * The commits after sequence {@code sequence} that the log still holds, in order: each with its
     * token, kind, and parts with names and sizes (the files of a part are read by key from {@link
     * #store()}, e.g. {@code <part>/checksums.txt}). Entries older than the newest snapshots are
     * trimmed by {@link #cleanup()}; a reader that must see every commit keeps up.
     */
    public List<Commit> commitsAfter(long sequence) throws IOException {
        return ctx.log.commitsAfter(sequence);
    }

    /** Reads all rows of the active parts (for tests and the {@code check} command). */
    public long totalRows() throws IOException {
        long n = 0;
        for (ActivePart p : activeParts()) {
            n += p.rows();
        }
        return n;
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

    /** A writer of temporary parts into this table enforcing {@code settings}. */
    public InsertWriter insertWriter(InsertSettings settings) {
        return new InsertWriter(ctx.layout, ctx.store, ctx.clock, settings);
    }

    private void checkColumns(Block block) {
        TableLayout layout = ctx.layout;
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
        return inserts.insertDelayMillis(partitionIds);
    }

    /** {@link #insertDelayMillis(Set)} for the partitions of {@code parts}. */
    public long insertDelayMillis(List<TemporaryPart> parts) throws IOException {
        return inserts.insertDelayMillis(InsertCommits.partitionsOf(parts));
    }

    /**
     * Sets the check every insert commit of this instance passes right before its commit log entry
     * is created ({@link CommitFence#NONE} by default): a writer holding a {@link WriterLease}
     * passes {@link WriterLease.Fence#on}, so that once another writer took its lease over, it
     * commits nothing more ({@link WriterFencedException}).
     */
    public void setCommitFence(CommitFence fence) {
        inserts.setCommitFence(fence);
    }

    /** Commits temporary parts just written (see {@link #commitPending}). */
    public List<PartName> commit(List<TemporaryPart> parts, String dedupToken) throws IOException {
        return inserts.commit(parts, dedupToken);
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
        return inserts.commitPending(parts, dedupToken);
    }

    /** Writes and commits {@code block} at once (no dedup token), after the insert delay. */
    public List<PartName> insert(Block block) throws IOException {
        return inserts.delayAndCommit(writeTemporaryParts(block));
    }

    // ----------------------------------------------------------------- merges

    @Override
    public long maxBytesToMerge() {
        return ctx.layout.settings().maxBytesToMergeAtMaxSpaceInPool();
    }

    @Override
    public List<List<MergeCandidate>> mergeCandidates(Set<PartName> busy) throws IOException {
        return merges.candidates(busy);
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
        return ttlMerges.select(busy);
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
        return merges.merge(sources, progress);
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
        return brokenParts.detach(name, reason);
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
        return brokenParts.detachUnloadable();
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
        return cleanup.run();
    }

    /**
     * The temporary directories of the table (names) that belong to no unfinished publication: what
     * a writer may remove once it knows they are its own leftovers.
     */
    public List<String> temporaryDirectories() throws IOException {
        return cleanup.temporaryDirectories();
    }

    /**
     * Removes the temporary directories among {@link #temporaryDirectories()} that {@code doomed}
     * accepts (a writer's leftovers of aborted attempts).
     *
     * @return how many were removed
     */
    public int removeTemporaryDirectories(Predicate<String> doomed) throws IOException {
        return cleanup.removeTemporaryDirectories(doomed);
    }

    /**
     * Nothing to release: every merge removes its own scratch directory, and the store is the
     * caller's. Kept so that callers can hold a table in try-with-resources.
     */
    @Override
    public void close() throws IOException {}
}
