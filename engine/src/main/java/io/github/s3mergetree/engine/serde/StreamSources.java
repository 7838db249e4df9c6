package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.io.ByteSource;

/** Looks up the decompressed input of a column stream by its (escaped) stream name. */
@FunctionalInterface
public interface StreamSources {
    ByteSource source(String streamName);
}
