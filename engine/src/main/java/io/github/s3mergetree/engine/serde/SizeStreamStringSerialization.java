package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import java.util.List;

/**
 * The 26.x String layout "with size stream": {@code <col>.size} holds a UInt64 length per row and
 * {@code <col>} only the bytes. Readable by ClickHouse ≥ 25.10; this project reads it (ClickHouse's
 * default parts) and can write it, but writes the classic layout by default.
 */
final class SizeStreamStringSerialization extends BulkSerialization {
    private final String sizeStream;
    private final String dataStream;

    SizeStreamStringSerialization(String base) {
        this.sizeStream = base + ".size";
        this.dataStream = base;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        out.add(sizeStream);
        out.add(dataStream);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        if (column instanceof GatheredStringColumn g) {
            ByteSink sizes = sinks.sink(sizeStream);
            ByteSink data = sinks.sink(dataStream);
            g.forEachBatch(
                    from,
                    to,
                    (src, start, len, n) -> {
                        for (int j = 0; j < n; j++) {
                            sizes.writeLongLE(len[j]);
                        }
                        for (int j = 0; j < n; j++) {
                            data.write(src[j], start[j], len[j]);
                        }
                    });
            return;
        }
        StringColumn c = (StringColumn) column;
        ByteSink sizes = sinks.sink(sizeStream);
        for (int i = from; i < to; i++) {
            sizes.writeLongLE(c.length(i));
        }
        int start = c.start(from);
        int end = to == from ? start : c.end(to - 1);
        sinks.sink(dataStream).write(c.bytes(), start, end - start);
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        StringColumn c = (StringColumn) column;
        ByteSource sizes = sources.source(sizeStream);
        ByteSource data = sources.source(dataStream);
        for (int i = 0; i < rows; i++) {
            long len = sizes.readLongLE();
            if (len < 0 || len > Integer.MAX_VALUE - 16) {
                throw new IllegalArgumentException(
                        "string length " + len + " in stream " + sizeStream + " is too large");
            }
            byte[] b = c.reserveBytes((int) len);
            data.readFully(b, c.totalBytes(), (int) len);
            c.commitRow((int) len);
        }
    }
}
