package io.github.s3mergetree.sink.mergetree.metrics;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.annotation.Internal;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.SinkWriterMetricGroup;

/**
 * The writer's metrics: rows and bytes in, insert blocks flushed, parts and bytes written
 * (compressed on disk and uncompressed), time spent converting, sorting, writing and backpressured,
 * and the writer's accounted memory against its budget, in the table's group ({@link
 * TableMetricGroup}) under the sink writer's operator group. Besides, Flink's standard sink
 * counters of that operator group: {@code numRecordsSend}, the rows of the temporary parts written,
 * and {@code numBytesSend}, the bytes of their files (as Flink's FileSink counts the records and
 * the bytes of the files it writes), counted when a part is written, before it is committed.
 * Updated by the task thread.
 */
@Internal
public final class WriterMetrics {
    /** Rows received. */
    public final Counter rowsIn;

    /** Uncompressed in-memory bytes of the insert blocks flushed. */
    public final Counter bytesIn;

    /** Insert blocks turned into parts. */
    public final Counter blocksFlushed;

    /** Temporary parts written. */
    public final Counter partsWritten;

    /** Bytes of the written parts' files. */
    public final Counter bytesWrittenCompressed;

    /** Uncompressed bytes of the written parts' column streams. */
    public final Counter bytesWrittenUncompressed;

    /** Milliseconds from an insert block's flush to its parts being written. */
    public final Counter flushTimeMs;

    /** Milliseconds evaluating keys, splitting by partition and sorting. */
    public final Counter sortTimeMs;

    /** Milliseconds serializing, compressing and writing part files. */
    public final Counter writeTimeMs;

    /** Milliseconds the writer slept because of parts_to_delay_insert (backpressure). */
    public final Counter backpressuredTimeMs;

    private final AtomicLong peakMemory = new AtomicLong();
    private volatile long memoryBudget;
    private volatile long blockSizeBytes;
    private volatile long pendingParts;

    /** Rows of the temporary parts written: Flink's {@code numRecordsSend}. */
    public final Counter numRecordsSend;

    /** Bytes of the files of the temporary parts written: Flink's {@code numBytesSend}. */
    public final Counter numBytesSend;

    /** Registers the metrics of writing into {@code table} in {@code group}. */
    public WriterMetrics(SinkWriterMetricGroup group, String table) {
        numRecordsSend = group.getNumRecordsSendCounter();
        numBytesSend = group.getNumBytesSendCounter();
        MetricGroup g = TableMetricGroup.of(group, table);
        rowsIn = g.counter("rowsIn");
        bytesIn = g.counter("bytesIn");
        blocksFlushed = g.counter("blocksFlushed");
        partsWritten = g.counter("partsWritten");
        bytesWrittenCompressed = g.counter("bytesWrittenCompressed");
        bytesWrittenUncompressed = g.counter("bytesWrittenUncompressed");
        flushTimeMs = g.counter("flushTimeMs");
        sortTimeMs = g.counter("sortTimeMs");
        writeTimeMs = g.counter("writeTimeMs");
        backpressuredTimeMs = g.counter("backpressuredTimeMs");
        g.gauge("peakMemoryBytes", (Gauge<Long>) peakMemory::get);
        g.gauge("memoryBudgetBytes", (Gauge<Long>) () -> memoryBudget);
        g.gauge("insertBlockSizeBytes", (Gauge<Long>) () -> blockSizeBytes);
        g.gauge("pendingParts", (Gauge<Long>) () -> pendingParts);
    }

    /** Records the memory the writer holds now. */
    public void memory(long bytes) {
        peakMemory.accumulateAndGet(bytes, Math::max);
    }

    /** The highest memory recorded. */
    public long peakMemory() {
        return peakMemory.get();
    }

    /** The budget and the block size derived from it. */
    public void budget(long budget, long blockBytes) {
        this.memoryBudget = budget;
        this.blockSizeBytes = blockBytes;
    }

    /** Temporary parts waiting for the next commit. */
    public void pendingParts(long n) {
        this.pendingParts = n;
    }
}
