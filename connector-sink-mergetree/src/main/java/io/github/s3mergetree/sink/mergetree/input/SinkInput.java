package io.github.s3mergetree.sink.mergetree.input;

import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The kind of records a {@link io.github.s3mergetree.sink.mergetree.MergeTreeSink} accepts and how
 * they map onto the table's columns: {@link RowDataInput} (Flink SQL rows, mapped by field name) or
 * {@link BlockInput} (the engine's column blocks, the columnar fast path). Serializable: it travels
 * with the sink and creates one {@link InputConverter} per writer.
 *
 * @param <IN> the sink's input type
 */
@PublicEvolving
public interface SinkInput<IN> extends Serializable {
    /** Creates the converter of one writer for the table described by {@code context}. */
    InputConverter<IN> createConverter(InputContext context);
}
