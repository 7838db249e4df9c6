package io.github.s3mergetree.engine.serde;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.io.ByteSink;
import io.github.s3mergetree.engine.io.ByteSource;
import java.util.List;

/**
 * Array(T) and Map(K, V): a {@code .size<depth>} stream of UInt64 element counts per row (not
 * cumulative offsets), then the granule's elements in T's streams. The outermost sizes of a Nested
 * structure's column are a stream shared with the structure's other columns ({@link
 * NestedOffsets}); a column that does not write the shared stream ({@code ownsSizes} false) leaves
 * it out of its streams and writes only its elements, and still reads it.
 */
final class ArraySerialization extends BulkSerialization {
    private final String sizeStream;
    private final boolean ownsSizes;
    private final BulkSerialization element;

    ArraySerialization(String sizeStream, boolean ownsSizes, BulkSerialization element) {
        this.sizeStream = sizeStream;
        this.ownsSizes = ownsSizes;
        this.element = element;
    }

    @Override
    public void enumerateStreams(List<String> out) {
        if (ownsSizes) {
            out.add(sizeStream);
        }
        element.enumerateStreams(out);
    }

    @Override
    public void writePrefix(StreamSinks sinks) {
        element.writePrefix(sinks);
    }

    @Override
    public void readPrefix(StreamSources sources, DeserializationState state) {
        element.readPrefix(sources, state);
    }

    @Override
    public void serialize(Column column, int from, int to, StreamSinks sinks) {
        ArrayColumn c = (ArrayColumn) column;
        int[] offsets = c.offsets();
        int first = c.start(from);
        int prev = first;
        if (ownsSizes) {
            ByteSink sizes = sinks.sink(sizeStream);
            for (int i = from; i < to; i++) {
                sizes.writeLongLE(offsets[i] - prev);
                prev = offsets[i];
            }
        } else if (to > from) {
            prev = offsets[to - 1];
        }
        if (prev > first) {
            element.serialize(c.elements(), first, prev, sinks);
        }
    }

    @Override
    public void deserialize(
            Column column, int rows, StreamSources sources, DeserializationState state) {
        ArrayColumn c = (ArrayColumn) column;
        ByteSource sizes = sources.source(sizeStream);
        long total = 0;
        long[] counts = new long[rows];
        for (int i = 0; i < rows; i++) {
            counts[i] = sizes.readLongLE();
            total += counts[i];
        }
        if (total > Integer.MAX_VALUE - 16 || total < 0) {
            throw new IllegalArgumentException(
                    "array element count " + total + " in stream " + sizeStream + " is too large");
        }
        if (total > 0) {
            element.deserialize(c.elements(), (int) total, sources, state);
        }
        int base = c.elements().size() - (int) total;
        // rebuild offsets: elements were appended at once, rows end at running sums
        int[] ends = new int[rows];
        long run = base;
        for (int i = 0; i < rows; i++) {
            run += counts[i];
            ends[i] = (int) run;
        }
        c.appendOffsets(ends);
    }
}
