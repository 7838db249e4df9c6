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

    public S3ObjectSplitState(S3ObjectSplit split) {
        this.split = split;
        this.offset = split.offset();
        this.recordsToSkip = split.recordsToSkip();
    }

    public void setPosition(long offset, long recordsToSkip) {
        this.offset = offset;
        this.recordsToSkip = recordsToSkip;
    }

    public long offset() {
        return offset;
    }

    public long recordsToSkip() {
        return recordsToSkip;
    }

    public S3ObjectSplit toSplit() {
        return split.withPosition(offset, recordsToSkip);
    }
}
