package io.github.s3mergetree.source.s3.format;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.format.hive.HivePartitionedBlockFormat;
import org.apache.flink.annotation.PublicEvolving;

/**
 * A block format that can read any subset of its columns: what lets the source take some columns
 * from elsewhere than the object's contents (hive partition values of the object's path, {@link
 * HivePartitionedBlockFormat}) and read only the others from the object, as ClickHouse does.
 */
@PublicEvolving
public interface ProjectableBlockFormat extends S3ObjectFormat<Block> {

    /** The columns this format decodes, in block order. */
    TargetSchema schema();

    /** The same format (kind, settings) decoding only {@code columns}. */
    S3ObjectFormat<Block> withSchema(TargetSchema columns);
}
