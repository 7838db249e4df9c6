package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import java.util.List;

/**
 * Classic String layout: one stream of VarUInt length + bytes per row (all ClickHouse versions).
 */
final class StringSerialization extends BulkSerialization {
    private final String stream;

    StringSerialization(String stream) {
        this.stream = stream;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(stream);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        ByteSink out = sinks.sink(stream);
        if (column instanceof GatheredStringColumn g) {
            serializeGathered(g, from, to, out);
            return;
        }
        StringColumn c = (StringColumn) column;
        int[] offsets = c.offsets();
        byte[] bytes = c.bytes();
        int start = c.start(from);
        for (int i = from; i < to; i++) {
            int end = offsets[i];
            int len = end - start;
            out.writeVarUInt(len);
            out.write(bytes, start, len);
            start = end;
        }
    }

    /** Rows in the sorted order of a gathered column: located a batch at a time, then copied. */
    private static void serializeGathered(GatheredStringColumn g, int from, int to, ByteSink out) {
        g.forEachBatch(
                from,
                to,
                (src, start, len, n) -> {
                    for (int j = 0; j < n; j++) {
                        out.writeVarUInt(len[j]);
                        out.write(src[j], start[j], len[j]);
                    }
                });
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        ByteSource in = sources.source(stream);
        StringColumn c = (StringColumn) column;
        for (int i = 0; i < rows; i++) {
            long len = in.readVarUInt();
            if (len > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException(
                        "string length " + len + " in stream " + stream + " is too large");
            }
            byte[] b = c.reserveBytes((int) len);
            in.readFully(b, c.totalBytes(), (int) len);
            c.commitRow((int) len);
        }
    }
}
