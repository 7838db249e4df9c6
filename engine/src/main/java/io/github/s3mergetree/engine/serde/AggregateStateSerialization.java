package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.aggregate.StateFunction;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import java.util.List;

/**
 * An {@code AggregateFunction(f, T…)} column (ClickHouse's {@code SerializationAggregateFunction}):
 * one stream of states written back to back with no length prefix; reading asks f's {@link
 * StateFunction} where each state ends. The column holds each state's serialized bytes.
 */
final class AggregateStateSerialization extends BulkSerialization {
    private final String stream;
    private final StateFunction<?> states;

    AggregateStateSerialization(String stream, StateFunction<?> states) {
        this.stream = stream;
        this.states = states;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(stream);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        ByteSink out = sinks.sink(stream);
        if (column instanceof GatheredStringColumn g) {
            g.forEachBatch(
                    from,
                    to,
                    (src, start, len, n) -> {
                        for (int j = 0; j < n; j++) {
                            out.write(src[j], start[j], len[j]);
                        }
                    });
            return;
        }
        StringColumn c = (StringColumn) column;
        for (int i = from; i < to; i++) {
            int s = c.start(i);
            out.write(c.bytes(), s, c.end(i) - s);
        }
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        ByteSource in = sources.source(stream);
        StringColumn c = (StringColumn) column;
        for (int i = 0; i < rows; i++) {
            byte[] b = states.readState(in);
            c.add(b, 0, b.length);
        }
    }
}
