package io.github.s3mergetree.source.s3.format;

import org.apache.flink.annotation.PublicEvolving;

/**
 * A record and the split position after it: {@code offset} and {@code recordsToSkip} as in {@link
 * io.github.s3mergetree.source.s3.split.S3ObjectSplit}.
 */
@PublicEvolving
public record PositionedRecord<T>(T record, long offset, long recordsToSkip) {}
