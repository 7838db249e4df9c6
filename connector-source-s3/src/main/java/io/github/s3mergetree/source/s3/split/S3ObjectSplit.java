package io.github.s3mergetree.source.s3.split;

import java.io.Serializable;
import java.util.Objects;
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

    public S3ObjectSplit(
            String key,
            String etag,
            long objectSize,
            long rangeStart,
            long rangeEnd,
            long offset,
            long recordsToSkip) {
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
        this.objectSize = objectSize;
        this.rangeStart = rangeStart;
        this.rangeEnd = rangeEnd;
        this.offset = offset;
        this.recordsToSkip = recordsToSkip;
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

    /** This split with another position. */
    public S3ObjectSplit withPosition(long newOffset, long newRecordsToSkip) {
        return new S3ObjectSplit(
                key, etag, objectSize, rangeStart, rangeEnd, newOffset, newRecordsToSkip);
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
                && s.recordsToSkip == recordsToSkip;
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, etag, objectSize, rangeStart, rangeEnd, offset, recordsToSkip);
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
                + "}";
    }
}
