package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.parquet.ParquetFromClickHouseTest;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.Configuration;

/**
 * A local file read by one of our formats and by chDB, compared as RowBinary: the differential
 * check of the format tests ({@code SELECT * FROM file(f, format, structure)} in file order).
 */
public final class ReadAsClickHouse {
    private ReadAsClickHouse() {}

    /** chDB's RowBinary of a file, rows in file order; a refusal is a {@link RuntimeException}. */
    public static byte[] clickHouse(ChDb ch, Path file, String format, String structure) {
        return ch.readFileAsRowBinary(file, format, structure, "");
    }

    /** Our blocks of a file (small blocks: block borders inside pages and batches). */
    public static List<Block> ours(Path file, String format, String structure) throws IOException {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 1000);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(file.getParent().toString())
                                .createClient(),
                        conf)) {
            List<Block> blocks = new ArrayList<>();
            t.readAll(
                            RealWorldFilesITCase.format(format, TargetSchema.parse(structure)),
                            t.wholeSplit(file.getFileName().toString()))
                    .forEach(r -> blocks.add(r.record()));
            return blocks;
        }
    }

    /** Our reading of the file equals chDB's, byte for byte; returns the rows. */
    public static long assertSame(ChDb ch, Path file, String format, String structure)
            throws IOException {
        byte[] theirs = clickHouse(ch, file, format, structure);
        List<Block> blocks = ours(file, format, structure);
        byte[] mine = rowBinary(blocks);
        if (!Arrays.equals(mine, theirs)) {
            assertThat(ParquetFromClickHouseTest.firstDifference(blocks, theirs))
                    .as("%s read as %s", file.getFileName(), structure)
                    .isEqualTo(
                            "none (ours "
                                    + mine.length
                                    + " bytes, ClickHouse's "
                                    + theirs.length
                                    + ")");
        }
        return blocks.stream().mapToLong(Block::rows).sum();
    }

    /**
     * The rows {@code format} reads from the whole object {@code key} through {@code t}, in
     * RowBinary.
     */
    public static byte[] rowBinary(FormatTesting t, S3ObjectFormat<Block> format, String key)
            throws IOException {
        List<Block> blocks = new ArrayList<>();
        t.readAll(format, t.wholeSplit(key)).forEach(r -> blocks.add(r.record()));
        return rowBinary(blocks);
    }

    public static byte[] rowBinary(List<Block> blocks) {
        io.github.s3mergetree.engine.io.ByteArraySink out =
                new io.github.s3mergetree.engine.io.ByteArraySink();
        for (Block b : blocks) {
            ParquetFromClickHouseTest.assertColumnSizes(b);
            for (int r = 0; r < b.rows(); r++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    io.github.s3mergetree.engine.serde.ValueSerde.write(
                            b.types().get(c), b.column(c), r, out);
                }
            }
        }
        return out.toByteArray();
    }
}
