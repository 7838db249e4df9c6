package io.github.s3mergetree.source.s3.format;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;

/**
 * Reads the records of one split in batches. Each record carries the split position after it, so
 * that a checkpoint taken between two records resumes exactly.
 */
@PublicEvolving
public interface FormatReader<T> extends Closeable {

    /** The next records (at least one), or null when the split is exhausted. */
    List<PositionedRecord<T>> nextBatch() throws IOException;
}
