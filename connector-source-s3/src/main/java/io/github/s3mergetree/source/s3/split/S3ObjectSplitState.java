package io.github.s3mergetree.source.s3.split;

/**
 * The mutable position of a split being read, updated by the record emitter after each emitted
 * record and turned back into an {@link S3ObjectSplit} at checkpoints.
 */
@org.apache.flink.annotation.Internal
public final class S3ObjectSplitState {
    private final S3ObjectSplit split;
    private long offset;
    private long recordsToSkip;
    private long rowsRead;

    public S3ObjectSplitState(S3ObjectSplit split) {
        this.split = split;
        this.offset = split.offset();
        this.recordsToSkip = split.recordsToSkip();
        this.rowsRead = split.rowsRead();
    }

    /** Moves the position past a record of {@code rows} rows. */
    public void setPosition(long offset, long recordsToSkip, long rows) {
        this.offset = offset;
        this.recordsToSkip = recordsToSkip;
        this.rowsRead += rows;
    }

    /** Rows of the range delivered so far (see {@link S3ObjectSplit#rowsRead()}). */
    public long rowsRead() {
        return rowsRead;
    }

    public long offset() {
        return offset;
    }

    public long recordsToSkip() {
        return recordsToSkip;
    }

    public S3ObjectSplit toSplit() {
        return split.withProgress(offset, recordsToSkip, rowsRead);
    }
}
