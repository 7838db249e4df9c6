package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.TupleColumn;
import java.util.List;

/** Tuple(...): each element in its own streams ({@code <column>%2E<element>}). */
final class TupleSerialization extends BulkSerialization {
    private final List<BulkSerialization> elements;

    TupleSerialization(List<BulkSerialization> elements) {
        this.elements = List.copyOf(elements);
    }

    @Override
    public void enumerateStreams(List<String> out) {
        for (BulkSerialization e : elements) {
            e.enumerateStreams(out);
        }
    }

    @Override
    public void writePrefix(StreamSinks sinks) {
        for (BulkSerialization e : elements) {
            e.writePrefix(sinks);
        }
    }

    @Override
    public void readPrefix(StreamSources sources, DeserializationState state) {
        for (BulkSerialization e : elements) {
            e.readPrefix(sources, state);
        }
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        TupleColumn c = (TupleColumn) column;
        for (int i = 0; i < elements.size(); i++) {
            elements.get(i).serialize(c.element(i), from, to, sinks);
        }
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        TupleColumn c = (TupleColumn) column;
        for (int i = 0; i < elements.size(); i++) {
            elements.get(i).deserialize(c.element(i), rows, sources, state);
        }
    }
}
