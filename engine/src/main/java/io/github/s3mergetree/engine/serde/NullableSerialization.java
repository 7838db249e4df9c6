package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.io.ByteSource;
import java.util.List;

/** Nullable(T): a {@code .null} stream of one byte per row (1 = NULL), then T's streams. */
final class NullableSerialization extends BulkSerialization {
    private final String nullStream;
    private final BulkSerialization nested;

    NullableSerialization(String base, BulkSerialization nested) {
        this.nullStream = base + ".null";
        this.nested = nested;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(nullStream);
        nested.enumerateStreams(out);
    }

    @Override
    public void writePrefix(StreamSinks sinks) {
        nested.writePrefix(sinks);
    }

    @Override
    public void readPrefix(StreamSources sources, DeserializationState state) {
        nested.readPrefix(sources, state);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        NullableColumn c = (NullableColumn) column;
        sinks.sink(nullStream).write(c.nullMap().data(), from, to - from);
        nested.serialize(c.nested(), from, to, sinks);
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        NullableColumn c = (NullableColumn) column;
        ByteColumn nulls = c.nullMap();
        ByteSource in = sources.source(nullStream);
        byte[] d = nulls.reserve(rows);
        in.readFully(d, nulls.size(), rows);
        nulls.setSize(nulls.size() + rows);
        nested.deserialize(c.nested(), rows, sources, state);
    }
}
