package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Sent by a reader that parked a split (after its own {@code s3queue_loading_retries} retries), and
 * again for each parked split it restores from a checkpoint: the failed split at its last emitted
 * position with its rows read, and the reason. The enumerator records it, excludes the object from
 * later discoveries and lists it in the failed objects report; it never hands it out again.
 */
@org.apache.flink.annotation.Internal
public record SplitFailedEvent(S3ObjectSplit split, String reason) implements SourceEvent {}
