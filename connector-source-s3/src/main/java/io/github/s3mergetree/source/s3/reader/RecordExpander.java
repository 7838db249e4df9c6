package io.github.s3mergetree.source.s3.reader;

import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceOutput;

/**
 * How one record a format decoded reaches the source's output: as it is (a {@code Block} for the
 * MergeTree sink), or as several records of another type (the rows of a block as {@code RowData}).
 *
 * <p>Why here and not in the format: the split position is tracked per decoded record, so every
 * record one decoded record expands into is emitted in one step, and a checkpoint never falls
 * between the rows of a block (a restore resumes after the whole block, exactly).
 *
 * @param <B> what the format decodes
 * @param <T> what the source emits
 */
@Internal
public interface RecordExpander<B, T> extends Serializable {

    /** Emits what {@code decoded} stands for. */
    void emit(B decoded, SourceOutput<T> output);

    /** The type of the emitted records. */
    TypeInformation<T> producedType();
}
