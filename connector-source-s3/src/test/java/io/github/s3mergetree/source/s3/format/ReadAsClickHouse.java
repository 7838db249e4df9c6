package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
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

    /**
     * A reader of the files under {@code dir} in blocks of at most 16 rows (block borders between
     * nearly every few rows), with {@code conf}'s options.
     */
    public static FormatTesting smallBlocks(Path dir, Configuration conf) {
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 16);
        return new FormatTesting(
                ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf);
    }

    /**
     * {@code format}'s rows of object {@code key} of {@code t} (the file {@code dir/key}) equal
     * chDB's reading of that file as {@code chFormat} with {@code structure}, byte for byte.
     */
    public static void assertReadsLikeClickHouse(
            ChDb ch,
            FormatTesting t,
            S3ObjectFormat<Block> format,
            Path dir,
            String key,
            String chFormat,
            String structure)
            throws IOException {
        assertThat(rowBinary(t, format, key))
                .as("%s read as %s %s", key, chFormat, structure)
                .isEqualTo(ch.readFileAsRowBinary(dir.resolve(key), chFormat, structure, ""));
    }

    /** Our reading of the file equals chDB's, byte for byte; returns the rows. */
    public static long assertSame(ChDb ch, Path file, String format, String structure)
            throws IOException {
        byte[] theirs = clickHouse(ch, file, format, structure);
        List<Block> blocks = ours(file, format, structure);
        byte[] mine = rowBinary(blocks);
        if (!Arrays.equals(mine, theirs)) {
            assertThat(firstDifference(blocks, theirs))
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

    /** The rows of {@code blocks} in RowBinary (each block's column sizes checked first). */
    public static byte[] rowBinary(List<Block> blocks) {
        ByteArraySink out = new ByteArraySink();
        for (Block b : blocks) {
            assertColumnSizes(b);
            for (int r = 0; r < b.rows(); r++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    ValueSerde.write(b.types().get(c), b.column(c), r, out);
                }
            }
        }
        return out.toByteArray();
    }

    /** The rows of the blocks of {@code records} in RowBinary. */
    public static byte[] recordsRowBinary(List<PositionedRecord<Block>> records) {
        return rowBinary(blocks(records));
    }

    /** The blocks of {@code records}, in order. */
    public static List<Block> blocks(List<PositionedRecord<Block>> records) {
        List<Block> blocks = new ArrayList<>();
        records.forEach(r -> blocks.add(r.record()));
        return blocks;
    }

    /**
     * The RowBinary of {@code blocks} equals {@code expected} (ClickHouse's), byte for byte; a
     * failure names the first differing row and column and shows the bytes at the mismatch.
     */
    public static void assertRowBinaryEquals(List<Block> blocks, byte[] expected) {
        byte[] got = rowBinary(blocks);
        if (!Arrays.equals(got, expected)) {
            int pos = Arrays.mismatch(got, expected);
            // which side is off: ours, or chDB's reference reading (an empty or short reference
            // file also reports row 0 here)
            assertThat(firstDifference(blocks, expected))
                    .as(
                            "RowBinary of ours %d bytes, chDB's %d bytes; at byte %d ours %s,"
                                    + " chDB's %s",
                            got.length,
                            expected.length,
                            pos,
                            hexAround(got, pos),
                            hexAround(expected, pos))
                    .isEqualTo("none (mismatch at byte " + pos + ")");
        }
    }

    private static String hexAround(byte[] b, int pos) {
        StringBuilder sb = new StringBuilder();
        for (int i = Math.max(0, pos); i < Math.min(b.length, pos + 16); i++) {
            sb.append(String.format("%02x", b[i] & 0xFF));
        }
        return sb.length() == 0 ? "(nothing)" : sb.toString();
    }

    /** Every column of the block, and each Tuple element, holds exactly the block's rows. */
    public static void assertColumnSizes(Block b) {
        for (int c = 0; c < b.columnCount(); c++) {
            Column col = b.column(c);
            assertThat(col.size()).as("rows of column %s", b.names().get(c)).isEqualTo(b.rows());
            if (col instanceof ArrayColumn a && a.elements() instanceof TupleColumn t) {
                for (int k = 0; k < t.arity(); k++) {
                    assertThat(t.element(k).size())
                            .as("elements of column %s, Tuple element %d", b.names().get(c), k)
                            .isEqualTo(a.size() == 0 ? 0 : a.end(a.size() - 1));
                }
            }
        }
    }

    /** Which row and column first differ, found by re-serializing value by value. */
    public static String firstDifference(List<Block> blocks, byte[] expected) {
        ByteArraySink out = new ByteArraySink();
        long row = 0;
        for (Block b : blocks) {
            for (int r = 0; r < b.rows(); r++, row++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    int before = out.size();
                    ValueSerde.write(b.types().get(c), b.column(c), r, out);
                    byte[] buf = out.buffer();
                    for (int i = before; i < out.size(); i++) {
                        if (i >= expected.length || buf[i] != expected[i]) {
                            return "row "
                                    + row
                                    + ", column "
                                    + b.names().get(c)
                                    + " ("
                                    + b.types().get(c)
                                    + ")";
                        }
                    }
                }
            }
        }
        return "none";
    }
}
