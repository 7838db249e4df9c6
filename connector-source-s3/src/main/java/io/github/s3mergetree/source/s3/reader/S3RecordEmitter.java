package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitState;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * Emits a record and moves its split's position past it, in one step on the task thread, counting
 * the rows it carries (a {@link Block}'s rows; one for any other record type).
 */
public final class S3RecordEmitter<T>
        implements RecordEmitter<PositionedRecord<T>, T, S3ObjectSplitState> {
    @Override
    public void emitRecord(
            PositionedRecord<T> element, SourceOutput<T> output, S3ObjectSplitState splitState) {
        output.collect(element.record());
        splitState.setPosition(element.offset(), element.recordsToSkip(), rows(element.record()));
    }

    /** The rows of a record: a block's row count, else 1. */
    static long rows(Object record) {
        return record instanceof Block b ? b.rows() : 1;
    }
}
