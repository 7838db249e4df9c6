package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertSettings;
import io.github.s3mergetree.engine.table.InsertWriter;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.input.InputContext;
import io.github.s3mergetree.sink.mergetree.input.InputConverter;
import io.github.s3mergetree.sink.mergetree.input.SinkInput;
import io.github.s3mergetree.sink.mergetree.metrics.WriterMetrics;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TempPartNames;
import io.github.s3mergetree.sink.mergetree.storage.WriterRegistrations;
import io.github.s3mergetree.sink.mergetree.table.ResolvedTable;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
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
 * those of aborted attempts ({@link AbortedAttemptCleanup}). Parts and tokens become committables
 * in {@link WriterCommittables}.
 *
 * <p>Beside the writer, each its own class: when a block is full ({@link InsertBlockSize}), the
 * insert threads ({@link InsertThreads}), backpressure ({@link InsertBackpressure}: the engine's
 * insert delay), the clean-up of aborted attempts and the committables. The writer itself only
 * writes, flushes, prepares commits and snapshots its state.
 */
@Internal
public final class MergeTreeSinkWriter<IN>
        implements CommittingSinkWriter<IN, MergeTreeCommittable>,
                StatefulSinkWriter<IN, MergeTreeWriterState> {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeSinkWriter.class);

    private final String sinkId;
    private final int subtask;
    private final int attempt;
    private final MergeTreeTable table;
    private final FailureInjector failures;
    private final WriterMetrics metrics;
    private final InsertBlockSize blockSize;
    private final InsertBlockBuffer<IN> buffer;
    private final InsertThreads insertThreads;
    private final InsertBackpressure backpressure;
    private final WriterCommittables committables;

    /** Per block being written: the part writer's buffers (see {@link #trackMemory}). */
    private final long writerBuffers;

    private boolean sized;
    private long rowsWritten;
    private boolean flushing;
    private boolean closed;

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
        String jobId = context.getJobInfo().getJobId().toHexString();
        this.subtask = context.getTaskInfo().getIndexOfThisSubtask();
        int parallelism = context.getTaskInfo().getNumberOfParallelSubtasks();
        this.attempt = context.getTaskInfo().getAttemptNumber();
        this.failures = failures;
        this.blockSize = InsertBlockSize.of(options);
        this.table = storage.open(resolved.layout(), Clock.systemUTC());
        if (storage.isLocal()) {
            // the committer's first commit requires every writer of the job to be seen here
            WriterRegistrations.register(table.store(), this.sinkId, jobId, subtask, parallelism);
        }
        InsertWriter insertWriter =
                table.insertWriter(
                        new InsertSettings(
                                options.get(MergeTreeSinkOptions.MAX_PARTITIONS_PER_INSERT_BLOCK),
                                options.get(
                                        MergeTreeSinkOptions
                                                .THROW_ON_MAX_PARTITIONS_PER_INSERT_BLOCK)));
        InputConverter<IN> converter =
                input.createConverter(
                        new InputContext(
                                resolved.schema(),
                                resolved.layout(),
                                resolved.serverZone(),
                                options.get(
                                        MergeTreeSinkOptions.INPUT_FORMAT_SKIP_UNKNOWN_FIELDS)));
        this.metrics = new WriterMetrics(context.metricGroup(), storage.describe());
        // PartWriter: an uncompressed and a compressed buffer of max_compress_block_size per stream
        this.writerBuffers =
                2L
                        * resolved.layout().partFormat().maxCompressBlockSize()
                        * Math.max(1, resolved.layout().columnNames().size() * 2);
        this.buffer = new InsertBlockBuffer<>(converter, resolved.layout(), blockSize.minRows());
        OptionalLong restoredCheckpoint = context.getRestoredCheckpointId();
        this.committables =
                new WriterCommittables(
                        this.sinkId,
                        jobId,
                        subtask,
                        restoredCheckpoint.orElse(0),
                        options.get(MergeTreeSinkOptions.INSERT_DEDUPLICATE));
        this.backpressure =
                InsertBackpressure.of(
                        table,
                        InsertBackpressure.Sleeper.THREAD,
                        "Writer " + subtask + " of sink " + this.sinkId);
        this.insertThreads =
                new InsertThreads(
                        insertWriter,
                        blockSize.insertThreads(),
                        "mergetree-insert-" + this.sinkId + "-" + subtask);
        WritersInJvm.opened();
        int removed =
                AbortedAttemptCleanup.run(
                        table, this.sinkId, subtask, parallelism, restoredCheckpoint);
        if (removed > 0) {
            LOG.info(
                    "Writer {} of sink {} removed {} temporary parts of aborted attempts",
                    subtask,
                    this.sinkId,
                    removed);
        }
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

    /**
     * Sizes insert blocks at the first record, when the writers of the JVM that share its heap have
     * been created.
     */
    private void ensureBlockSize() {
        if (sized) {
            return;
        }
        sized = true;
        long heap = Runtime.getRuntime().maxMemory();
        int writers = WritersInJvm.open();
        InsertBlockSize.Sized s = blockSize.sized(heap, writers);
        if (s.lowered()) {
            // expected on small heaps, not a mistake: said once per writer at INFO
            LOG.info(
                    "Writer {} of sink {}: the default min_insert_block_size_bytes does not fit {}"
                            + " writers with {} insert threads in a {} byte heap; using {} bytes",
                    subtask,
                    sinkId,
                    writers,
                    blockSize.insertThreads(),
                    heap,
                    s.minBytes());
        }
        buffer.setMinBytes(s.minBytes());
        metrics.budget(s.budgetBytes(), s.minBytes());
        LOG.info(
                "Writer {} of sink {}: insert blocks of {} rows / {} bytes, {} insert threads,"
                        + " memory budget {} bytes",
                subtask,
                sinkId,
                blockSize.minRows(),
                s.minBytes(),
                blockSize.insertThreads(),
                s.budgetBytes());
    }

    @Override
    public void write(IN element, Context context) throws IOException, InterruptedException {
        ensureBlockSize();
        inject(FailureInjector.Point.WRITER_RECORD);
        InsertBlockBuffer.Fill fill = buffer.add(element);
        metrics.rowsIn.inc(buffer.lastAddedRows());
        if (fill == InsertBlockBuffer.Fill.FULL) {
            flushBlock();
        } else if (fill == InsertBlockBuffer.Fill.MEASURED) {
            trackMemory();
        }
    }

    /**
     * Records the memory the writer holds: the retained heap of the block being filled, and for
     * each block being written its retained heap plus at most a sorted copy of it (exact-size
     * arrays, about its byte size; an upper bound: plain number and String columns are serialized
     * straight from the block's chunks, only the key and the other columns are copied) plus the
     * part writer's compression buffers (two of max_compress_block_size per column stream).
     */
    private void trackMemory() {
        metrics.memory(buffer.retainedBytes() + insertThreads.heldBytes(writerBuffers));
    }

    /**
     * Hands the current block to an insert thread, first waiting if all of them are busy. At a
     * checkpoint or the end of the input ({@link #flush}) the writer must wait for every block
     * anyway, so the last block is written beside the ones in flight, on one extra thread.
     */
    private void flushBlock() throws IOException, InterruptedException {
        InsertBlockBuffer.Taken full = buffer.take();
        if (full == null) {
            return;
        }
        metrics.blocksFlushed.inc();
        metrics.bytesIn.inc(full.bytes());
        rowsWritten += full.block().rows();
        while (!insertThreads.hasRoom(flushing)) {
            harvestOldest();
        }
        insertThreads.submit(full.block(), committables.purpose(), full.bytes(), full.retained());
        trackMemory();
    }

    /** Waits for the oldest block in flight; its parts wait for the next committable. */
    private void harvestOldest() throws IOException, InterruptedException {
        InsertThreads.Written w = insertThreads.harvestOldest();
        metrics.flushTimeMs.inc((System.nanoTime() - w.startedNanos()) / 1_000_000);
        metrics.sortTimeMs.inc(w.timings().sortNanos / 1_000_000);
        metrics.writeTimeMs.inc(w.timings().writeNanos / 1_000_000);
        for (TemporaryPart p : w.parts()) {
            metrics.partsWritten.inc();
            metrics.bytesWrittenCompressed.inc(p.files().bytesOnDisk());
            metrics.bytesWrittenUncompressed.inc(p.files().dataUncompressedBytes());
            metrics.numRecordsSend.inc(p.files().rows());
            metrics.numBytesSend.inc(p.files().bytesOnDisk());
        }
        committables.add(w.parts());
        metrics.pendingParts(committables.pendingParts());
        inject(FailureInjector.Point.WRITER_PARTS_WRITTEN);
        metrics.backpressuredTimeMs.inc(backpressure.afterInsert(w.parts()));
    }

    @Override
    public void flush(boolean endOfInput) throws IOException, InterruptedException {
        if (endOfInput) {
            committables.endOfInput();
        }
        flushing = true;
        try {
            flushBlock();
        } finally {
            flushing = false;
        }
        while (!insertThreads.isEmpty()) {
            harvestOldest();
        }
    }

    @Override
    public Collection<MergeTreeCommittable> prepareCommit()
            throws IOException, InterruptedException {
        while (!insertThreads.isEmpty()) {
            harvestOldest();
        }
        if (!committables.hasCommittable()) {
            return List.of();
        }
        inject(FailureInjector.Point.WRITER_PREPARE_COMMIT);
        List<MergeTreeCommittable> next = committables.next();
        metrics.pendingParts(0);
        return next;
    }

    @Override
    public List<MergeTreeWriterState> snapshotState(long checkpointId) throws IOException {
        return List.of(committables.snapshot(checkpointId, rowsWritten));
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
        WritersInJvm.closed();
        InsertThreads.Stopped stopped = insertThreads.stop(30, TimeUnit.SECONDS);
        if (!stopped.terminated()) {
            LOG.warn("Insert threads of writer {} did not stop", subtask);
        }
        // parts never handed to the committer: nobody will commit them
        List<TemporaryPart> orphans = new ArrayList<>(committables.uncommitted());
        orphans.addAll(stopped.unharvested());
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
