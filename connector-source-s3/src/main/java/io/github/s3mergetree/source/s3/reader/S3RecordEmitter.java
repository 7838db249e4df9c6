package io.github.s3mergetree.source.s3.reader;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitState;
import javax.annotation.Nullable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;

/**
 * Emits a decoded record (as it is, or through a {@link RecordExpander}) and moves its split's
 * position past it, in one step on the task thread, counting the rows it carries (a {@link Block}'s
 * rows; one for any other record type).
 *
 * @param <B> what the format decodes
 * @param <T> what the source emits
 */
@Internal
public final class S3RecordEmitter<B, T>
        implements RecordEmitter<PositionedRecord<B>, T, S3ObjectSplitState> {
    @Nullable private final RecordExpander<B, T> expander;

    /**
     * @param expander how a decoded record becomes output records; null: it is one ({@code B} is
     *     {@code T})
     */
    public S3RecordEmitter(@Nullable RecordExpander<B, T> expander) {
        this.expander = expander;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void emitRecord(
            PositionedRecord<B> element, SourceOutput<T> output, S3ObjectSplitState splitState) {
        if (expander == null) {
            output.collect((T) element.record());
        } else {
            expander.emit(element.record(), output);
        }
        splitState.setPosition(element.offset(), element.recordsToSkip(), rows(element.record()));
    }

    /** The rows of a decoded record: a block's row count, else 1. */
    static long rows(Object record) {
        return record instanceof Block b ? b.rows() : 1;
    }
}
