package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.projection.ProjectionStateType;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.DeserializationState;
import io.github.s3mergetree.engine.serde.StreamSinks;
import io.github.s3mergetree.engine.serde.StreamSources;
import java.util.List;

/**
 * Writes a {@link ProjectionStateType} column of an aggregating projection part: its values are
 * states already serialized, written one after another into the column's one stream, as
 * ClickHouse's {@code SerializationAggregateFunction::serializeBinaryBulk} writes them. Projection
 * parts are only written, never read back here, so there is no deserialization.
 *
 * <p>Scope: projection parts only; to be replaced by the engine's {@code AggregateFunction} state
 * serialization once it lands.
 */
final class ProjectionStateSerialization extends BulkSerialization {
    private final String stream;

    ProjectionStateSerialization(String stream) {
        this.stream = stream;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(stream);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        ByteSink out = sinks.sink(stream);
        StringColumn c = (StringColumn) column;
        int start = c.start(from);
        int end = c.end(to - 1);
        out.write(c.bytes(), start, end - start);
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        throw new UnsupportedOperationException(
                "projection aggregate states (" + stream + ") are written, not read, here");
    }
}
