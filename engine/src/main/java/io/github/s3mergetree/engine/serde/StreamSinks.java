package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.io.ByteSink;

/** Looks up the output of a column stream by its (escaped) stream name, e.g. {@code arr.size0}. */
@FunctionalInterface
public interface StreamSinks {
    ByteSink sink(String streamName);
}
