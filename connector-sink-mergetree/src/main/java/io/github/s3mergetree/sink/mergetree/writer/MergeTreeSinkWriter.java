package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertDelay;
import io.github.s3mergetree.engine.table.InsertSettings;
import io.github.s3mergetree.engine.table.InsertWriter;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableSettings;
import io.github.s3mergetree.sink.mergetree.FailureInjector;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.ResolvedTable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.input.InputContext;
import io.github.s3mergetree.sink.mergetree.input.InputConverter;
import io.github.s3mergetree.sink.mergetree.input.SinkInput;
import io.github.s3mergetree.sink.mergetree.metrics.WriterMetrics;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.CommittingSinkWriter;
import org.apache.flink.api.connector.sink2.StatefulSinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.ReadableConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sink writer: converts records into the columns of an insert block (columnar input is kept as
 * the blocks it arrived in, by reference: see {@link BlockChunks}); when the block reaches {@code
 * min_insert_block_size_rows} or {@code min_insert_block_size_bytes} (and at every checkpoint and
 * at the end of the input) the block is sorted, split by partition and written as temporary parts,
 * on up to {@code max_insert_threads} background threads while the next block fills (the partial
 * block of a checkpoint or of the end of the input on one more, beside those in flight, since the
 * writer waits for all of them then). At a checkpoint all those parts become one {@link
 * MergeTreeCommittable} with a dedup token.
 *
 * <p><b>Why parts at checkpoints rather than rows in state:</b> checkpoint state stays a few
 * hundred bytes whatever the throughput (no rows are copied into the state backend), a restore
 * replays nothing from state, and parts on the table's filesystem are as durable as the table
 * itself. The cost, small parts at short checkpoint intervals, is what the merge coordinator exists
 * for.
 *
 * <p><b>Exactly once:</b> temporary directories are named {@code
 * tmp_s3mt-<sink-id>-<subtask>-<epoch>_...} ({@link TempPartNames}); on start the writer removes
 * those of aborted attempts (epoch at or after the restored checkpoint, or all of them on a fresh
 * start) for its subtask index and for indices no writer has any more. Tokens are {@code
 * <sink-id>-<job>-<subtask>-<epoch>-<seq>}: unique within a job, and the same on a deterministic
 * re-execution of a bounded job, so its replayed commits are no-ops.
 *
 * <p><b>Backpressure:</b> after each insert block the writer asks the table how long to wait
 * ({@code parts_to_delay_insert}, ClickHouse's delay formula) and sleeps that long; at {@code
 * parts_to_throw_insert} it waits for merges instead of failing.
 */
@Internal
public final class MergeTreeSinkWriter<IN>
        implements CommittingSinkWriter<IN, MergeTreeCommittable>,
                StatefulSinkWriter<IN, MergeTreeWriterState> {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeSinkWriter.class);
    private static final AtomicInteger LIVE_WRITERS = new AtomicInteger();

    private final String sinkId;
    private final String jobId;
    private final int subtask;
    private final int parallelism;
    private final int attempt;
    private final MergeTreeTable table;

    private final ResolvedTable resolved;
    private final InputConverter<IN> converter;
    private final InsertWriter insertWriter;
    private final FailureInjector failures;
    private final WriterMetrics metrics;
    private final ExecutorService insertThreads;
    private final int threads;
    private final long minRows;
    private final String minBytesSetting;
    private final boolean minBytesExplicit;
    private final long maxMemoryUsage;
    private final boolean deduplicate;
    private final long writerBuffers;

    private long minBytes = -1;
    private final boolean columnar;
    private Block current;
    private List<Block> chunks = new ArrayList<>();
    private int chunkRows;
    private long rowsSinceCheck;
    private long nextCheckAt = 1;
    private long currentBytes;
    private long currentRetained;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private final List<TemporaryPart> pending = new ArrayList<>();
    private long epoch;
    private int seq;
    private long rowsWritten;
    private boolean flushing;
    private boolean closed;
    private boolean endOfInput;
    private boolean endOfInputCommitted;

    private record InFlight(
            Future<List<TemporaryPart>> parts,
            InsertWriter.Timings timings,
            long bytes,
            long retained,
            long started) {}

    /** Creates (or restores) the writer of one subtask; removes leftovers of aborted attempts. */
    public MergeTreeSinkWriter(
            WriterInitContext context,
            String sinkId,
            ResolvedTable resolved,
            TableStorage storage,
            SinkInput<IN> input,
            ReadableConfig options,
            FailureInjector failures,
            Collection<MergeTreeWriterState> restored)
            throws IOException {
        this.sinkId = TempPartNames.sanitize(sinkId);
        this.jobId = context.getJobInfo().getJobId().toHexString();
        this.subtask = context.getTaskInfo().getIndexOfThisSubtask();
        this.parallelism = context.getTaskInfo().getNumberOfParallelSubtasks();
        this.attempt = context.getTaskInfo().getAttemptNumber();
        this.resolved = resolved;
        this.failures = failures;
        this.table = storage.open(resolved.layout(), Clock.systemUTC());
        if (storage.isLocal()) {
            // the committer's first commit requires every writer of the job to be seen here
            WriterRegistrations.register(table.store(), this.sinkId, jobId, subtask, parallelism);
        }
        this.insertWriter =
                table.insertWriter(
                        new InsertSettings(
                                options.get(MergeTreeSinkOptions.MAX_PARTITIONS_PER_INSERT_BLOCK),
                                options.get(
                                        MergeTreeSinkOptions
                                                .THROW_ON_MAX_PARTITIONS_PER_INSERT_BLOCK)));
        this.converter =
                input.createConverter(
                        new InputContext(
                                resolved.schema(),
                                resolved.layout(),
                                resolved.serverZone(),
                                options.get(
                                        MergeTreeSinkOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS)));
        this.columnar = converter.columnar();
        this.metrics = new WriterMetrics(context.metricGroup());
        this.minRows = options.get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS);
        this.minBytesSetting = options.get(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES).trim();
        this.minBytesExplicit =
                options.getOptional(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_BYTES).isPresent();
        this.maxMemoryUsage = options.get(MergeTreeSinkOptions.MAX_MEMORY_USAGE);
        this.threads = Math.max(1, options.get(MergeTreeSinkOptions.MAX_INSERT_THREADS));
        this.deduplicate = options.get(MergeTreeSinkOptions.INSERT_DEDUPLICATE);
        // PartWriter: an uncompressed and a compressed buffer of max_compress_block_size per stream
        this.writerBuffers =
                2L
                        * resolved.layout().partFormat().maxCompressBlockSize()
                        * Math.max(1, resolved.layout().columnNames().size() * 2);
        OptionalLong restoredCheckpoint = context.getRestoredCheckpointId();
        this.epoch = restoredCheckpoint.orElse(0);
        this.current = newBlock();
        AtomicInteger n = new AtomicInteger();
        this.insertThreads =
                Executors.newFixedThreadPool(
                        threads + 1,
                        r -> {
                            Thread t =
                                    new Thread(
                                            r,
                                            "mergetree-insert-"
                                                    + this.sinkId
                                                    + "-"
                                                    + subtask
                                                    + "-"
                                                    + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
        LIVE_WRITERS.incrementAndGet();
        removeLeftovers(restoredCheckpoint);
        LOG.info(
                "MergeTree writer {}/{} of sink {} on {} (attempt {}, restored from {}, {} prior states)",
                subtask,
                parallelism,
                this.sinkId,
                storage.describe(),
                attempt,
                restoredCheckpoint.isPresent() ? restoredCheckpoint.getAsLong() : "nothing",
                restored.size());
    }

    private Block newBlock() {
        int cap = minRows > 0 ? (int) Math.min(minRows, 65536) : 8192;
        return Block.empty(resolved.layout().columnNames(), resolved.layout().columnTypes(), cap);
    }

    /**
     * The next insert block, sized like the one just flushed (rows, and string bytes per row): a
     * block that grew by doubling would copy all its values once more on the way.
     */
    private Block newBlockLike(Block flushed) {
        int rows = flushed.rows();
        if (rows <= 65536
                || !flushed.names().equals(resolved.layout().columnNames())
                || !flushed.types().equals(resolved.layout().columnTypes())) {
            return newBlock();
        }
        return flushed.newEmpty((int) Math.min(rows, minRows > 0 ? minRows : rows));
    }

    /**
     * Removes this sink's temporary directories that no restored committable names: those of its
     * own subtask index and of indices at or above the parallelism (no writer has them now), with
     * an epoch at or after the restored checkpoint (all of them on a fresh start).
     */
    private void removeLeftovers(OptionalLong restoredCheckpoint) throws IOException {
        int removed =
                table.removeTemporaryDirectories(
                        name -> {
                            Optional<TempPartNames.Parsed> parsed =
                                    TempPartNames.parse(name, sinkId);
                            if (parsed.isEmpty()) {
                                return false;
                            }
                            int j = parsed.get().subtask();
                            boolean mine =
                                    j == subtask
                                            || (j >= parallelism && j % parallelism == subtask);
                            boolean aborted =
                                    restoredCheckpoint.isEmpty()
                                            || parsed.get().epoch()
                                                    >= restoredCheckpoint.getAsLong();
                            return mine && aborted;
                        });
        if (removed > 0) {
            LOG.info(
                    "Writer {} of sink {} removed {} temporary parts of aborted attempts",
                    subtask,
                    sinkId,
                    removed);
        }
    }

    private void ensureBlockSize() {
        if (minBytes >= 0) {
            return;
        }
        long heap = Runtime.getRuntime().maxMemory();
        int writers = Math.max(1, LIVE_WRITERS.get());
        long budget = maxMemoryUsage > 0 ? maxMemoryUsage : heap / 4 / writers;
        if (minBytesSetting.equalsIgnoreCase("auto")) {
            minBytes = Math.max(1 << 20, budget / (3L * threads));
        } else {
            try {
                minBytes = Long.parseLong(minBytesSetting);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "min_insert_block_size_bytes must be a number of bytes or 'auto', got '"
                                + minBytesSetting
                                + "'");
            }
            // ClickHouse's default (256 MiB) on a small heap would fail the job with an
            // OutOfMemoryError (InsertBlockMemory says what a writer holds at its peak); an
            // explicit min_insert_block_size_bytes is kept as set
            if (!minBytesExplicit) {
                long fits = InsertBlockMemory.largestFittingBlock(heap, writers, threads);
                if (minBytes > fits) {
                    // expected on small heaps, not a mistake: said once per writer at INFO
                    LOG.info(
                            "Writer {} of sink {}: the default min_insert_block_size_bytes ({}"
                                    + " bytes) does not fit {} writers with {} insert threads in"
                                    + " a {} byte heap; using {} bytes",
                            subtask,
                            sinkId,
                            minBytes,
                            writers,
                            threads,
                            heap,
                            fits);
                    minBytes = fits;
                }
            }
        }
        metrics.budget(budget, minBytes);
        LOG.info(
                "Writer {} of sink {}: insert blocks of {} rows / {} bytes, {} insert threads,"
                        + " memory budget {} bytes",
                subtask,
                sinkId,
                minRows,
                minBytes,
                threads,
                budget);
    }

    @Override
    public void write(IN element, Context context) throws IOException, InterruptedException {
        ensureBlockSize();
        inject(FailureInjector.Point.WRITER_RECORD);
        if (columnar) {
            addChunk(converter.toBlock(element));
            return;
        }
        int before = current.rows();
        converter.append(element, current);
        int added = current.rows() - before;
        metrics.rowsIn.inc(added);
        if (minRows > 0 && current.rows() >= minRows) {
            flushBlock();
            return;
        }
        if (minBytes > 0) {
            rowsSinceCheck += added;
            if (rowsSinceCheck >= nextCheckAt) {
                checkBytes();
            }
        }
    }

    /** Columnar input: keeps the block by reference; flushes at either minimum. */
    private void addChunk(Block block) throws IOException, InterruptedException {
        int rows = block.rows();
        if (rows == 0) {
            return;
        }
        chunks.add(block);
        chunkRows += rows;
        currentBytes += block.byteSize();
        currentRetained += RetainedMemory.of(block);
        metrics.rowsIn.inc(rows);
        if ((minRows > 0 && chunkRows >= minRows) || (minBytes > 0 && currentBytes >= minBytes)) {
            flushBlock();
        } else {
            trackMemory();
        }
    }

    /** Measures the block; flushes it at min_insert_block_size_bytes, else plans the next check. */
    private void checkBytes() throws IOException, InterruptedException {
        rowsSinceCheck = 0;
        currentBytes = current.byteSize();
        currentRetained = RetainedMemory.of(current);
        trackMemory();
        if (currentBytes >= minBytes) {
            flushBlock();
            return;
        }
        int rows = Math.max(1, current.rows());
        double perRow = Math.max(1.0, (double) currentBytes / rows);
        long remainingRows = (long) ((minBytes - currentBytes) / perRow);
        nextCheckAt = Math.max(1, Math.min(4096, remainingRows / 2));
    }

    /**
     * Records the memory the writer holds: the retained heap of the block being filled, and for
     * each block being written its retained heap plus at most a sorted copy of it (exact-size
     * arrays, about its byte size; an upper bound: plain number and String columns are serialized
     * straight from the block's chunks, only the key and the other columns are copied) plus the
     * part writer's compression buffers (two of max_compress_block_size per column stream).
     */
    private void trackMemory() {
        long held = currentRetained;
        for (InFlight f : inFlight) {
            held += f.retained() + f.bytes() + writerBuffers;
        }
        metrics.memory(held);
    }

    /** Hands the current block to an insert thread (waiting if all are busy). */
    private void flushBlock() throws IOException, InterruptedException {
        if (columnar) {
            flushChunks();
            return;
        }
        if (current.rows() == 0) {
            return;
        }
        long retained = RetainedMemory.of(current);
        Block full = converter.complete(current);
        long bytes = full.byteSize();
        retained = Math.max(retained, bytes);
        currentBytes = bytes;
        currentRetained = retained;
        current = newBlockLike(full);
        rowsSinceCheck = 0;
        nextCheckAt = 1;
        submit(BlockChunks.of(full), bytes, retained);
        currentBytes = 0;
        currentRetained = RetainedMemory.of(current);
        trackMemory();
    }

    /** Columnar input: hands the chunks collected so far to an insert thread as one block. */
    private void flushChunks() throws IOException, InterruptedException {
        if (chunks.isEmpty()) {
            return;
        }
        BlockChunks full = BlockChunks.of(chunks);
        long bytes = currentBytes;
        long retained = Math.max(currentRetained, bytes);
        chunks = new ArrayList<>();
        chunkRows = 0;
        submit(full, bytes, retained);
        currentBytes = 0;
        currentRetained = 0;
        trackMemory();
    }

    /**
     * Counts {@code full} as flushed and starts writing it on an insert thread, first waiting if
     * all of them are busy. At a checkpoint or the end of the input ({@link #flush}) the writer
     * must wait for every block anyway, so the last block is written beside the ones in flight, on
     * one extra thread: the wait is the longest write, not their sum (on a machine whose other
     * cores idle while it waits).
     */
    private void submit(BlockChunks full, long bytes, long retained)
            throws IOException, InterruptedException {
        metrics.blocksFlushed.inc();
        metrics.bytesIn.inc(bytes);
        rowsWritten += full.rows();
        int limit = flushing ? threads + 1 : threads;
        while (inFlight.size() >= limit) {
            harvestOldest();
        }
        String purpose = TempPartNames.purpose(sinkId, subtask, epoch);
        InsertWriter.Timings timings = new InsertWriter.Timings();
        Future<List<TemporaryPart>> f =
                insertThreads.submit(() -> insertWriter.write(full, purpose, timings));
        inFlight.add(new InFlight(f, timings, bytes, retained, System.nanoTime()));
    }

    private void harvestOldest() throws IOException, InterruptedException {
        InFlight f = inFlight.poll();
        List<TemporaryPart> parts;
        try {
            parts = f.parts().get();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("writing an insert block failed", cause);
        }
        metrics.flushTimeMs.inc((System.nanoTime() - f.started()) / 1_000_000);
        metrics.sortTimeMs.inc(f.timings().sortNanos / 1_000_000);
        metrics.writeTimeMs.inc(f.timings().writeNanos / 1_000_000);
        for (TemporaryPart p : parts) {
            metrics.partsWritten.inc();
            metrics.bytesWrittenCompressed.inc(p.files().bytesOnDisk());
            metrics.bytesWrittenUncompressed.inc(p.files().dataUncompressedBytes());
        }
        pending.addAll(parts);
        metrics.pendingParts(pending.size());
        inject(FailureInjector.Point.WRITER_PARTS_WRITTEN);
        delayIfTooManyParts(parts);
    }

    /**
     * ClickHouse's insert delay as backpressure: sleep, never fail. The delay grows from 0 at
     * {@code parts_to_delay_insert} active parts in a partition the block wrote to, to {@code
     * max_delay_to_insert} at {@code parts_to_throw_insert} ({@link InsertDelay}, the formula the
     * table uses); from there on the writer waits for the merges. Part counts come from the table's
     * commit log state (no part is opened).
     */
    private void delayIfTooManyParts(List<TemporaryPart> parts)
            throws IOException, InterruptedException {
        if (parts.isEmpty()) {
            return;
        }
        TableSettings s = resolved.layout().settings();
        long maxDelay = s.maxDelayToInsert().toMillis();
        java.util.Set<String> partitions = new java.util.HashSet<>();
        for (TemporaryPart p : parts) {
            partitions.add(p.partition().partitionId());
        }
        long waited = 0;
        while (true) {
            java.util.Map<String, Integer> counts = table.activePartCounts();
            int n = 0;
            for (String id : partitions) {
                n = Math.max(n, counts.getOrDefault(id, 0));
            }
            if (InsertDelay.refuses(s, n)) {
                if (waited % 60_000 < Math.max(100, maxDelay)) {
                    LOG.warn(
                            "Writer {} of sink {} waits for merges: {} active parts in a partition"
                                    + " (parts_to_throw_insert = {})",
                            subtask,
                            sinkId,
                            n,
                            s.partsToThrowInsert());
                }
                sleep(Math.max(100, maxDelay));
                waited += Math.max(100, maxDelay);
                continue;
            }
            long delay = InsertDelay.millis(s, n);
            if (delay > 0) {
                sleep(delay);
            }
            return;
        }
    }

    private void sleep(long ms) throws InterruptedException {
        long t0 = System.nanoTime();
        Thread.sleep(ms);
        metrics.backpressuredTimeMs.inc((System.nanoTime() - t0) / 1_000_000);
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        if (endOfInput) {
            this.endOfInput = true;
        }
        flushing = true;
        try {
            flushBlock();
        } finally {
            flushing = false;
        }
        while (!inFlight.isEmpty()) {
            harvestOldest();
        }
    }

    @Override
    public Collection<MergeTreeCommittable> prepareCommit()
            throws IOException, InterruptedException {
        while (!inFlight.isEmpty()) {
            harvestOldest();
        }
        boolean last = endOfInput && !endOfInputCommitted;
        if (pending.isEmpty() && !last) {
            return List.of();
        }
        inject(FailureInjector.Point.WRITER_PREPARE_COMMIT);
        List<MergeTreeCommittable.PendingPart> parts = new ArrayList<>(pending.size());
        for (TemporaryPart p : pending) {
            parts.add(
                    new MergeTreeCommittable.PendingPart(
                            p.directory(),
                            p.partition().partitionId(),
                            p.files().rows(),
                            p.files().marks(),
                            p.files().bytesOnDisk(),
                            p.files().dataUncompressedBytes(),
                            p.files().bytesUncompressedInMemory()));
        }
        String token =
                deduplicate
                        ? sinkId + "-" + jobId + "-" + subtask + "-" + epoch + "-" + seq++
                        : null;
        pending.clear();
        metrics.pendingParts(0);
        // the last committable is sent even when empty: it tells the committer this writer is done
        endOfInputCommitted |= last;
        return List.of(new MergeTreeCommittable(token, parts, last, jobId));
    }

    @Override
    public List<MergeTreeWriterState> snapshotState(long checkpointId) throws IOException {
        if (checkpointId != epoch) {
            epoch = checkpointId;
            seq = 0;
        }
        return List.of(new MergeTreeWriterState(sinkId, subtask, checkpointId, rowsWritten));
    }

    private void inject(FailureInjector.Point p) throws IOException {
        try {
            failures.at(p, subtask, attempt);
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    /** The table (for tests). */
    MergeTreeTable table() {
        return table;
    }

    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        LIVE_WRITERS.decrementAndGet();
        insertThreads.shutdownNow();
        if (!insertThreads.awaitTermination(30, TimeUnit.SECONDS)) {
            LOG.warn("Insert threads of writer {} did not stop", subtask);
        }
        // parts never handed to the committer: nobody will commit them
        List<TemporaryPart> orphans = new ArrayList<>(pending);
        for (InFlight f : inFlight) {
            if (f.parts().isDone() && !f.parts().isCancelled()) {
                try {
                    orphans.addAll(f.parts().get());
                } catch (ExecutionException | InterruptedException | RuntimeException ignored) {
                    // nothing was written, or its parts were removed by the writer
                }
            }
        }
        for (TemporaryPart p : orphans) {
            try {
                p.abort();
            } catch (IOException | RuntimeException e) {
                // the next attempt's leftover clean-up, or temporary_directories_lifetime, removes
                // it
                LOG.warn("Could not remove the uncommitted temporary part {}", p.directory(), e);
            }
        }
        if (!orphans.isEmpty()) {
            LOG.info("Writer {} removed {} uncommitted temporary parts", subtask, orphans.size());
        }
        table.close();
        table.store().close();
    }

    /** The writer's accounted peak memory (for tests and benchmarks). */
    public long peakMemoryBytes() {
        return metrics.peakMemory();
    }
}
