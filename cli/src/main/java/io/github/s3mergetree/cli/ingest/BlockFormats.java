package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.source.s3.S3ObjectFormats;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;

/** The source formats by their ClickHouse names: {@link S3ObjectFormats} of the source. */
public final class BlockFormats {
    /** The names {@link #forName} accepts (ClickHouse spelling; aliases are accepted too). */
    public static final String NAMES = S3ObjectFormats.NAMES;

    private BlockFormats() {}

    /** {@link S3ObjectFormats#forName}. */
    public static S3ObjectFormat<Block> forName(
            String name, TargetSchema schema, String compressionMethod) {
        return S3ObjectFormats.forName(name, schema, compressionMethod);
    }
}
