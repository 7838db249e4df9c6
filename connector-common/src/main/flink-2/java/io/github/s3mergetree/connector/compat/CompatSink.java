package io.github.s3mergetree.connector.compat;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;

/**
 * The sink interface of the Flink line this artifact is built for (here 2.x, where {@link
 * Sink#createWriter(org.apache.flink.api.connector.sink2.WriterInitContext)} is the only writer
 * factory). The 1.20 build compiles {@code src/main/flink-1.20} instead, whose variant also
 * supplies 1.20's deprecated abstract {@code createWriter(Sink.InitContext)}; every other class is
 * the same source for both lines.
 *
 * @param <IN> the sink's input type
 */
@Internal
public interface CompatSink<IN> extends Sink<IN> {}
