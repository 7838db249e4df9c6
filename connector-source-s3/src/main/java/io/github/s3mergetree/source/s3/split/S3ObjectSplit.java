package io.github.s3mergetree.source.s3.split;

import java.io.Serializable;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.source.SourceSplit;

/**
 * A byte range of one object plus the reader's position in it: the unit the enumerator hands out
 * and the reader checkpoints.
 *
 * <p>The range is {@code [rangeStart, rangeEnd)}; a small object is one split covering all of it.
 * The ETag is pinned at listing time: a read that finds another ETag fails with a clear error. The
 * position is format-defined: {@link #offset()} is the next Parquet row group (index in the object)
 * or the byte offset of the next unread line, {@link #NOT_STARTED} before the first record; {@link
 * #recordsToSkip()} counts records already emitted past that offset (rows into a row group; rows of
 * a compressed object). Restoring a split resumes exactly after the last emitted record.
 *
 * <p>{@link #rowsRead()} counts the rows of the range already delivered: emitted by readers of this
 * split, plus, for a split that continues an object an earlier ingest read in part, the rows that
 * ingest committed. A split that has not started ({@link #NOT_STARTED}) with {@code rowsRead > 0}
 * is read from the start and its first {@code rowsRead} rows are skipped: how a changed object is
 * resumed "from that row on".
 *
 * <p>A split with a {@link #failure()} could not be read (a parse error, a corrupt or changed
 * object, retries exhausted): it is parked, not read again, and carries the position and rows read
 * when it failed, so that the failure and the rows already delivered can be reported and a later
 * ingest can resume it exactly.
 */
@PublicEvolving
public final class S3ObjectSplit implements SourceSplit, Serializable {
    private static final long serialVersionUID = 1L;

    /** {@link #offset()} of a split no record has been read from. */
    public static final long NOT_STARTED = -1;

    private final String key;
    private final String etag;
    private final long objectSize;
    private final long rangeStart;
    private final long rangeEnd;
    private final long offset;
    private final long recordsToSkip;
    private final long rowsRead;
    @Nullable private final String failure;

    public S3ObjectSplit(
            String key,
            String etag,
            long objectSize,
            long rangeStart,
            long rangeEnd,
            long offset,
            long recordsToSkip) {
        this(key, etag, objectSize, rangeStart, rangeEnd, offset, recordsToSkip, 0, null);
    }

    public S3ObjectSplit(
            String key,
            String etag,
            long objectSize,
            long rangeStart,
            long rangeEnd,
            long offset,
            long recordsToSkip,
            long rowsRead,
            @Nullable String failure) {
        this.key = Objects.requireNonNull(key, "key");
        this.etag = etag == null ? "" : etag;
        if (rangeStart < 0 || rangeEnd < rangeStart || rangeEnd > objectSize) {
            throw new IllegalArgumentException(
                    "range ["
                            + rangeStart
                            + ", "
                            + rangeEnd
                            + ") of "
                            + key
                            + " is not inside [0, "
                            + objectSize
                            + ")");
        }
        if (offset < NOT_STARTED || recordsToSkip < 0) {
            throw new IllegalArgumentException(
                    "position (offset "
                            + offset
                            + ", recordsToSkip "
                            + recordsToSkip
                            + ") of "
                            + key
                            + " is negative");
        }
        if (rowsRead < 0) {
            throw new IllegalArgumentException(
                    "rowsRead " + rowsRead + " of " + key + " is negative");
        }
        this.objectSize = objectSize;
        this.rangeStart = rangeStart;
        this.rangeEnd = rangeEnd;
        this.offset = offset;
        this.recordsToSkip = recordsToSkip;
        this.rowsRead = rowsRead;
        this.failure = failure;
    }

    /** A split of {@code [rangeStart, rangeEnd)} that has not been read yet. */
    public static S3ObjectSplit of(
            String key, String etag, long objectSize, long rangeStart, long rangeEnd) {
        return new S3ObjectSplit(key, etag, objectSize, rangeStart, rangeEnd, NOT_STARTED, 0);
    }

    @Override
    public String splitId() {
        return key + "#" + rangeStart;
    }

    public String key() {
        return key;
    }

    public String etag() {
        return etag;
    }

    public long objectSize() {
        return objectSize;
    }

    public long rangeStart() {
        return rangeStart;
    }

    public long rangeEnd() {
        return rangeEnd;
    }

    /** Whether the split covers the whole object. */
    public boolean isWholeObject() {
        return rangeStart == 0 && rangeEnd == objectSize;
    }

    public long offset() {
        return offset;
    }

    public long recordsToSkip() {
        return recordsToSkip;
    }

    /**
     * Rows of the range already delivered (emitted, or committed by an earlier ingest of a
     * continued object); see the class comment.
     */
    public long rowsRead() {
        return rowsRead;
    }

    /** Rows a reader skips before it emits: {@link #rowsRead()} of a split not started yet. */
    public long rowsToSkipFromStart() {
        return offset == NOT_STARTED ? rowsRead : 0;
    }

    /** Why the split could not be read; empty when it has not failed. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    /** Whether the split failed and is parked. */
    public boolean isFailed() {
        return failure != null;
    }

    /** This split with another position (rows read unchanged). */
    public S3ObjectSplit withPosition(long newOffset, long newRecordsToSkip) {
        return withProgress(newOffset, newRecordsToSkip, rowsRead);
    }

    /** This split with another position and count of rows read. */
    public S3ObjectSplit withProgress(long newOffset, long newRecordsToSkip, long newRowsRead) {
        return new S3ObjectSplit(
                key,
                etag,
                objectSize,
                rangeStart,
                rangeEnd,
                newOffset,
                newRecordsToSkip,
                newRowsRead,
                failure);
    }

    /** This split, failed for {@code reason}. */
    public S3ObjectSplit withFailure(String reason) {
        return new S3ObjectSplit(
                key,
                etag,
                objectSize,
                rangeStart,
                rangeEnd,
                offset,
                recordsToSkip,
                rowsRead,
                Objects.requireNonNull(reason, "reason"));
    }

    /** This split without its failure: to be read again from its position. */
    public S3ObjectSplit withoutFailure() {
        return new S3ObjectSplit(
                key, etag, objectSize, rangeStart, rangeEnd, offset, recordsToSkip, rowsRead, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof S3ObjectSplit s
                && s.key.equals(key)
                && s.etag.equals(etag)
                && s.objectSize == objectSize
                && s.rangeStart == rangeStart
                && s.rangeEnd == rangeEnd
                && s.offset == offset
                && s.recordsToSkip == recordsToSkip
                && s.rowsRead == rowsRead
                && Objects.equals(s.failure, failure);
    }

    @Override
    public int hashCode() {
        return Objects.hash(
                key,
                etag,
                objectSize,
                rangeStart,
                rangeEnd,
                offset,
                recordsToSkip,
                rowsRead,
                failure);
    }

    @Override
    public String toString() {
        return "S3ObjectSplit{"
                + key
                + " ["
                + rangeStart
                + ", "
                + rangeEnd
                + ") of "
                + objectSize
                + ", etag "
                + etag
                + ", offset "
                + offset
                + ", skip "
                + recordsToSkip
                + ", rows read "
                + rowsRead
                + (failure == null ? "" : ", failed: " + failure)
                + "}";
    }
}
