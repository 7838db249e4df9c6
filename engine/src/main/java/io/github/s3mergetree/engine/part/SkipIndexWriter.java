package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.index.SkipIndex;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the data-skipping indexes of one part: per index a compressed {@code
 * skp_idx_<name>.idx}/{@code .idx2} of serialized index granules and its marks, one mark per index
 * granule (ClickHouse's {@code MergeTreeDataPartWriterOnDisk::calculateAndSerializeSkipIndices}).
 *
 * <p>As ClickHouse does: an index granule covers {@code GRANULARITY} data granules (the last one
 * fewer); its mark is taken when its first data granule arrives (a new compressed block first if
 * the pending one holds at least {@code min_compress_block_size} bytes) and holds the compressed
 * offset, the offset in the block and, in adaptive parts, 1; there is no final mark.
 */
final class SkipIndexWriter {
    private final List<SkipIndex> indexes;
    private final List<StreamWriter> streams = new ArrayList<>();
    private final SkipIndex.Aggregator[] aggregators;
    private final int[] accumulated;

    SkipIndexWriter(List<SkipIndex> indexes, TableStore store, String dir, PartWriterOptions o)
            throws IOException {
        this.indexes = indexes;
        this.aggregators = new SkipIndex.Aggregator[indexes.size()];
        this.accumulated = new int[indexes.size()];
        for (int i = 0; i < indexes.size(); i++) {
            SkipIndex index = indexes.get(i);
            streams.add(
                    new StreamWriter(
                            store,
                            dir,
                            PartWriter.fileName(index.streamName()),
                            index.fileExtension(),
                            o.defaultCodec(),
                            o.minCompressBlockSize(),
                            o.maxCompressBlockSize(),
                            o.adaptive(),
                            o.fsync()));
            aggregators[i] = index.newAggregator();
        }
    }

    List<StreamWriter> streams() {
        return streams;
    }

    /**
     * Adds the data granules of {@code block}'s first {@code count} rows, {@code perGranule} rows
     * each (the last one the rest).
     */
    void write(Block block, int count, int perGranule) {
        for (int i = 0; i < indexes.size(); i++) {
            List<Column> columns = indexes.get(i).evaluate(block);
            for (int from = 0; from < count; from += perGranule) {
                int to = Math.min(count, from + perGranule);
                granule(i, columns, from, to);
            }
        }
    }

    private void granule(int i, List<Column> columns, int from, int to) {
        StreamWriter stream = streams.get(i);
        if (accumulated[i] == indexes.get(i).granularity()) {
            aggregators[i].serialize(stream);
            aggregators[i] = indexes.get(i).newAggregator();
            accumulated[i] = 0;
        }
        if (aggregators[i].isEmpty()) {
            stream.mark(1);
        }
        aggregators[i].update(columns, from, to);
        accumulated[i]++;
    }

    /** Writes the last index granules and closes the data files. */
    void finish() throws IOException {
        for (int i = 0; i < indexes.size(); i++) {
            if (!aggregators[i].isEmpty()) {
                aggregators[i].serialize(streams.get(i));
            }
        }
        IOException first = null;
        for (StreamWriter w : streams) {
            try {
                w.close();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** The data file name of index {@code i} (e.g. {@code skp_idx_i.idx2}). */
    String dataFileName(int i) {
        return streams.get(i).name() + indexes.get(i).fileExtension();
    }

    /** Discards the uploads (an abandoned part). */
    void abort() {
        for (StreamWriter w : streams) {
            w.abort();
        }
    }
}
