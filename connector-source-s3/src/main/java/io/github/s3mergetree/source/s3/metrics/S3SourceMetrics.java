package io.github.s3mergetree.source.s3.metrics;

import io.github.s3mergetree.objectstore.RetryPolicy;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.metrics.groups.SourceReaderMetricGroup;

/**
 * I/O metrics of the source: objects listed, list time, GET requests, bytes downloaded (also
 * Flink's standard {@code numBytesIn} of the reader), rows read (decoded: the rows of a block, not
 * the blocks Flink's {@code numRecordsOut} counts), retries, throttling (503 SlowDown), read
 * throughput and malformed text rows skipped. Thread-safe: download threads update them.
 *
 * <p>Registered under the reader's (or enumerator's) metric group in a {@code s3} subgroup, e.g.
 * {@code ...Source__s3.s3.bytesDownloaded}.
 */
@org.apache.flink.annotation.Internal
public final class S3SourceMetrics implements RetryPolicy.RetryListener {
    public static final String GROUP = "s3";
    public static final String OBJECTS_LISTED = "objectsListed";
    public static final String LIST_TIME_MS = "listTimeMs";
    public static final String LIST_REQUESTS = "listRequests";
    public static final String GET_REQUESTS = "getRequests";
    public static final String BYTES_DOWNLOADED = "bytesDownloaded";
    public static final String ROWS_READ = "rowsRead";
    public static final String RETRIES = "retries";
    public static final String THROTTLED = "throttled";
    public static final String BYTES_PER_SECOND = "bytesDownloadedPerSecond";
    public static final String PARKED_OBJECTS = "parkedObjects";

    /**
     * Malformed text rows skipped under {@code input_format_allow_errors_num/ratio} (ClickHouse
     * logs them as "Skipped N rows with errors").
     */
    public static final String ROWS_SKIPPED = "malformedRowsSkipped";

    /**
     * Rows given the default of a target column their object does not have (under {@code
     * input_format_parquet_allow_missing_columns} and its siblings); a row counts once however many
     * columns it lacks.
     */
    public static final String ROWS_WITH_MISSING_COLUMNS = "rowsWithMissingColumns";

    private final Counter objectsListed = new ThreadSafeSimpleCounter();
    private final Counter listTimeMs = new ThreadSafeSimpleCounter();
    private final Counter listRequests = new ThreadSafeSimpleCounter();
    private final Counter getRequests = new ThreadSafeSimpleCounter();
    private final Counter bytesDownloaded = new ThreadSafeSimpleCounter();
    private final Counter rowsRead = new ThreadSafeSimpleCounter();
    private final Counter retries = new ThreadSafeSimpleCounter();
    private final Counter throttled = new ThreadSafeSimpleCounter();
    private final Counter parkedObjects = new ThreadSafeSimpleCounter();
    private final Counter rowsSkipped = new ThreadSafeSimpleCounter();
    private final Counter rowsWithMissingColumns = new ThreadSafeSimpleCounter();

    /** Metrics not registered anywhere (tests, tools). */
    public static S3SourceMetrics unregistered() {
        return new S3SourceMetrics(null);
    }

    /**
     * Flink's standard {@code numBytesIn} of a source reader's operator (null elsewhere): the bytes
     * read from S3 objects, {@link #bytesDownloaded} (Flink counts {@code numRecordsIn} itself: the
     * records the reader emits, i.e. blocks for a block source, rows for a RowData source). Flink's
     * counter is not thread-safe: increments are serialized on it.
     */
    private final Counter numBytesIn;

    /**
     * Metrics registered in a {@code s3} subgroup of {@code parent} (if not null); when {@code
     * parent} is a source reader's group, {@link #downloaded} also counts its {@code numBytesIn}.
     */
    public S3SourceMetrics(MetricGroup parent) {
        this.numBytesIn =
                parent instanceof SourceReaderMetricGroup reader
                        ? reader.getIOMetricGroup().getNumBytesInCounter()
                        : null;
        if (parent != null) {
            MetricGroup g = parent.addGroup(GROUP);
            g.counter(OBJECTS_LISTED, objectsListed);
            g.counter(LIST_TIME_MS, listTimeMs);
            g.counter(LIST_REQUESTS, listRequests);
            g.counter(GET_REQUESTS, getRequests);
            g.counter(BYTES_DOWNLOADED, bytesDownloaded);
            g.counter(ROWS_READ, rowsRead);
            g.counter(RETRIES, retries);
            g.counter(THROTTLED, throttled);
            g.counter(PARKED_OBJECTS, parkedObjects);
            g.counter(ROWS_SKIPPED, rowsSkipped);
            g.counter(ROWS_WITH_MISSING_COLUMNS, rowsWithMissingColumns);
            g.meter(BYTES_PER_SECOND, new MeterView(bytesDownloaded));
        }
    }

    public void listed(int objects, long millis) {
        objectsListed.inc(objects);
        listTimeMs.inc(millis);
    }

    public void listRequest() {
        listRequests.inc();
    }

    public void getRequest() {
        getRequests.inc();
    }

    public void downloaded(long bytes) {
        bytesDownloaded.inc(bytes);
        if (numBytesIn != null) {
            synchronized (numBytesIn) {
                numBytesIn.inc(bytes);
            }
        }
    }

    /** {@code rows} decoded from an object. */
    public void read(long rows) {
        rowsRead.inc(rows);
    }

    @Override
    public void retry(boolean wasThrottled) {
        retries.inc();
        if (wasThrottled) {
            throttled.inc();
        }
    }

    public void parked() {
        parkedObjects.inc();
    }

    public void rowsSkipped(long rows) {
        rowsSkipped.inc(rows);
    }

    public void rowsWithMissingColumns(long rows) {
        rowsWithMissingColumns.inc(rows);
    }

    public long rowsWithMissingColumns() {
        return rowsWithMissingColumns.getCount();
    }

    public long rowsSkipped() {
        return rowsSkipped.getCount();
    }

    public long objectsListed() {
        return objectsListed.getCount();
    }

    public long listTimeMs() {
        return listTimeMs.getCount();
    }

    public long listRequests() {
        return listRequests.getCount();
    }

    public long getRequests() {
        return getRequests.getCount();
    }

    public long bytesDownloaded() {
        return bytesDownloaded.getCount();
    }

    public long rowsRead() {
        return rowsRead.getCount();
    }

    public long retries() {
        return retries.getCount();
    }

    public long throttled() {
        return throttled.getCount();
    }

    public long parkedObjects() {
        return parkedObjects.getCount();
    }
}
