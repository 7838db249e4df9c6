package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * Decodes objects into records of type {@code T}: columnar {@link
 * io.github.s3mergetree.engine.column.Block}s for the MergeTree sink, or any other record type.
 *
 * <p>Why a separate interface: the source (listing, splitting, parallel ranged reads, retries,
 * checkpoints) is the same for every format; a format only says whether an object may be split by
 * byte ranges and how to turn a split into records with positions.
 */
@PublicEvolving
public interface S3ObjectFormat<T> extends Serializable {

    /** The type of the produced records. */
    TypeInformation<T> getProducedType();

    /**
     * Whether an object with this key may be cut into byte ranges read by different readers
     * (Parquet: yes, by row groups; line formats: only when uncompressed).
     */
    boolean isSplittable(String key);

    /** A reader of {@code split}, positioned after the split's last emitted record. */
    FormatReader<T> createReader(FormatContext context, S3ObjectSplit split) throws IOException;
}
