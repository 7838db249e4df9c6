package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Sent by a continuous reader whose split failed: the split at its last emitted position and the
 * reason. The enumerator retries it up to {@code s3queue_loading_retries} times, then parks it.
 */
@org.apache.flink.annotation.Internal
public record SplitFailedEvent(S3ObjectSplit split, String reason) implements SourceEvent {}
