package io.github.s3mergetree.connector.compat;

import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;

/**
 * The sink interface of the Flink line this artifact is built for (here 1.20). Flink 1.20 still
 * declares the abstract {@code createWriter(Sink.InitContext)} (removed in 2.0) but its runtime
 * only calls {@code createWriter(WriterInitContext)}, which every sink of this project implements;
 * this default satisfies the compiler. The 2.x build compiles {@code src/main/flink-2} instead.
 *
 * @param <IN> the sink's input type
 */
@Internal
public interface CompatSink<IN> extends Sink<IN> {

    /** Never called by Flink 1.20's runtime (it calls the {@code WriterInitContext} variant). */
    @Override
    @Deprecated
    default SinkWriter<IN> createWriter(Sink.InitContext context) throws IOException {
        throw new UnsupportedOperationException(
                getClass().getName()
                        + " is created through createWriter(WriterInitContext), as Flink 1.19+"
                        + " does");
    }
}
