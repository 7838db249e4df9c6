package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A merge's output block built column by column from recorded runs holds the same rows, in the same
 * order, as appending each run to every column as it comes.
 */
class MergedBlockBuilderTest {
    private static final List<String> NAMES = List.of("i", "s", "n", "a", "lc", "f", "b");
    private static final List<DataType> TYPES =
            List.of(
                            "Int64",
                            "String",
                            "Nullable(Int32)",
                            "Array(String)",
                            "LowCardinality(String)",
                            "FixedString(2)",
                            "UInt8")
                    .stream()
                    .map(DataTypeParser::parse)
                    .toList();

    @Test
    void shortAndLongRunsBuildTheRowsAppendedRunByRun() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 200; trial++) {
            List<Block> sources = new ArrayList<>();
            for (int k = 0; k < 1 + rnd.nextInt(6); k++) {
                sources.add(randomBlock(1 + rnd.nextInt(200), rnd));
            }
            // half the trials with runs of 1-3 rows (the row-by-row gather), half with long runs
            int maxRun = trial % 2 == 0 ? 3 : 64;
            MergedBlockBuilder builder = new MergedBlockBuilder();
            Block expected = sources.get(0).newEmpty(16);
            int[] pos = new int[sources.size()];
            int steps = 1 + rnd.nextInt(300);
            for (int step = 0; step < steps; step++) {
                int s = rnd.nextInt(sources.size());
                Block src = sources.get(s);
                if (pos[s] == src.rows()) {
                    continue;
                }
                int to = Math.min(src.rows(), pos[s] + 1 + rnd.nextInt(maxRun));
                builder.add(src, pos[s], to);
                expected.appendRange(src, pos[s], to);
                // a run that continues the previous one extends it
                if (rnd.nextInt(4) == 0 && to < src.rows()) {
                    builder.add(src, to, to + 1);
                    expected.appendRange(src, to, to + 1);
                    to++;
                }
                pos[s] = to;
            }
            assertThat(builder.rows()).isEqualTo(expected.rows());
            Block built = builder.take();
            if (expected.rows() == 0) {
                assertThat(built).isNull();
                continue;
            }
            assertThat(built.rows()).isEqualTo(expected.rows());
            assertThat(RowBinary.write(built)).isEqualTo(RowBinary.write(expected));
            assertThat(built.byteSize()).isEqualTo(expected.byteSize());
            // and the builder starts over
            assertThat(builder.rows()).isZero();
            assertThat(builder.take()).isNull();
        }
    }

    @Test
    void emptyRunsAreIgnored() {
        Block src = randomBlock(10, new Random(1));
        MergedBlockBuilder builder = new MergedBlockBuilder();
        builder.add(src, 3, 3);
        assertThat(builder.take()).isNull();
        builder.add(src, 3, 3);
        builder.add(src, 4, 6);
        Block expected = src.newEmpty(2);
        expected.appendRange(src, 4, 6);
        assertThat(RowBinary.write(builder.take())).isEqualTo(RowBinary.write(expected));
    }

    /** A block of {@code rows} random rows of {@link #TYPES}, read from RowBinary. */
    private static Block randomBlock(int rows, Random rnd) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int r = 0; r < rows; r++) {
            writeLong(out, rnd.nextLong(), 8);
            writeString(out, randomText(rnd));
            if (rnd.nextInt(3) == 0) {
                out.write(1);
            } else {
                out.write(0);
                writeLong(out, rnd.nextInt(), 4);
            }
            int n = rnd.nextInt(3);
            out.write(n);
            for (int i = 0; i < n; i++) {
                writeString(out, randomText(rnd));
            }
            writeString(out, "v" + rnd.nextInt(4));
            out.write('a' + rnd.nextInt(26));
            out.write('a' + rnd.nextInt(26));
            out.write(rnd.nextInt(256));
        }
        return RowBinary.read(out.toByteArray(), NAMES, TYPES, "random rows");
    }

    private static String randomText(Random rnd) {
        StringBuilder b = new StringBuilder();
        for (int i = rnd.nextInt(20); i > 0; i--) {
            b.append((char) ('a' + rnd.nextInt(26)));
        }
        return b.toString();
    }

    private static void writeString(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b.length); // < 128: one varint byte
        out.write(b, 0, b.length);
    }

    private static void writeLong(ByteArrayOutputStream out, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            out.write((int) (v >>> (8 * i)));
        }
    }
}
