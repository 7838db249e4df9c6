package io.github.s3mergetree.engine.column;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.FixedStringType;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import io.github.s3mergetree.engine.types.TupleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Gathering rows from chunks equals concatenating the chunks and permuting the result. */
class BlockChunksTest {
    private static final List<String> TYPES =
            List.of(
                    "Int64",
                    "Int32",
                    "UInt16",
                    "Int8",
                    "Float64",
                    "Float32",
                    "String",
                    "Nullable(String)",
                    "Nullable(Int32)",
                    "Array(Int32)",
                    "Array(LowCardinality(String))",
                    "Tuple(Int32, String)",
                    "FixedString(3)",
                    "LowCardinality(String)");

    @Test
    void permuteGathersTheSameRowsAsConcatenateThenPermute() {
        Random rnd = new Random(42);
        List<DataType> types = TYPES.stream().map(DataTypeParser::parse).toList();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < types.size(); i++) {
            names.add("c" + i);
        }
        for (int trial = 0; trial < 20; trial++) {
            List<Block> chunks = new ArrayList<>();
            int n = 1 + rnd.nextInt(5);
            for (int k = 0; k < n; k++) {
                // empty chunks too: they must not shift the row numbering
                chunks.add(
                        randomBlock(names, types, rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(300), rnd));
            }
            BlockChunks bc = BlockChunks.of(chunks);
            Block whole = Block.empty(names, types, 16);
            for (Block b : chunks) {
                whole.appendRange(b, 0, b.rows());
            }
            assertThat(bc.rows()).isEqualTo(whole.rows());
            int[] perm = shuffled(whole.rows(), rnd);
            int length = whole.rows() == 0 ? 0 : rnd.nextInt(whole.rows() + 1);
            assertSameRows(bc.permute(perm, length), whole.permute(perm, length));
            // the identity permutation concatenates the chunks, byte for byte
            int[] identity = new int[whole.rows()];
            for (int i = 0; i < identity.length; i++) {
                identity[i] = i;
            }
            Block concatenated = bc.permute(identity, identity.length);
            assertSameRows(concatenated, whole);
            assertThat(concatenated.byteSize()).isEqualTo(whole.byteSize());
            // String columns gathered lazily: the same values, read through the view
            boolean[] lazy = new boolean[types.size()];
            java.util.Arrays.fill(lazy, true);
            Block viewed = bc.permute(perm, length, lazy);
            int s = names.indexOf("c" + TYPES.indexOf("String"));
            assertThat(viewed.column(s)).isInstanceOf(GatheredStringColumn.class);
            assertThat(viewed.column(s).byteSize())
                    .isEqualTo(whole.permute(perm, length).column(s).byteSize());
            StringColumn copied = new StringColumn(4);
            copied.appendRange(viewed.column(s), 0, length);
            assertSameRows(materialized(viewed), whole.permute(perm, length));
            assertThat(copied.totalBytes())
                    .isEqualTo(((GatheredStringColumn) viewed.column(s)).totalBytes());
            // fixed-width number columns gathered lazily: their little-endian encoding of any
            // range is the RowBinary of the same rows permuted (RowBinary numbers are LE too)
            Block sorted = whole.permute(perm, length);
            for (String fixed : List.of("Int64", "Int32", "UInt16", "Int8", "Float64", "Float32")) {
                int f = TYPES.indexOf(fixed);
                assertThat(viewed.column(f)).as(fixed).isInstanceOf(GatheredFixedColumn.class);
                GatheredFixedColumn g = (GatheredFixedColumn) viewed.column(f);
                assertThat(g.byteSize()).isEqualTo(sorted.column(f).byteSize());
                int from = length == 0 ? 0 : rnd.nextInt(length);
                int to = from + rnd.nextInt(length - from + 1);
                byte[] encoded = new byte[(to - from) * g.width()];
                g.encodeLittleEndian(from, to, encoded);
                ByteArraySink expected = new ByteArraySink(64);
                for (int r = from; r < to; r++) {
                    ValueSerde.write(types.get(f), sorted.column(f), r, expected);
                }
                assertThat(encoded).as(fixed).isEqualTo(expected.toByteArray());
            }
            // FixedString is not a number column: still copied
            assertThat(viewed.column(TYPES.indexOf("FixedString(3)")))
                    .isNotInstanceOf(GatheredFixedColumn.class);
        }
    }

    @Test
    void aSingleChunkIsHeldAsIsAndMismatchedChunksAreRefused() {
        List<DataType> types = List.of(DataTypeParser.parse("Int32"));
        Block b = randomBlock(List.of("a"), types, 10, new Random(1));
        assertThat(BlockChunks.of(List.of(b)).first()).isSameAs(b);
        Block other = randomBlock(List.of("b"), types, 10, new Random(1));
        assertThatThrownBy(() -> BlockChunks.of(List.of(b, other)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[a]")
                .hasMessageContaining("[b]");
        assertThatThrownBy(() -> BlockChunks.of(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** Lazily gathered columns as ordinary ones (ValueSerde reads the concrete classes). */
    private static Block materialized(Block b) {
        List<Column> cols = new ArrayList<>();
        for (Column c : b.columns()) {
            if (c instanceof GatheredStringColumn g) {
                cols.add(g.materialize());
            } else if (c instanceof GatheredFixedColumn g) {
                cols.add(g.materialize());
            } else {
                cols.add(c);
            }
        }
        return new Block(b.names(), b.types(), cols);
    }

    private static int[] shuffled(int n, Random rnd) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static void assertSameRows(Block actual, Block expected) {
        assertThat(actual.rows()).isEqualTo(expected.rows());
        for (int c = 0; c < expected.columnCount(); c++) {
            assertThat(actual.column(c).size()).isEqualTo(expected.rows());
            for (int r = 0; r < expected.rows(); r++) {
                assertThat(rowBytes(actual, c, r))
                        .as("column %s row %d", expected.names().get(c), r)
                        .isEqualTo(rowBytes(expected, c, r));
            }
        }
    }

    private static byte[] rowBytes(Block b, int c, int r) {
        ByteArraySink out = new ByteArraySink(32);
        ValueSerde.write(b.types().get(c), b.column(c), r, out);
        return out.toByteArray();
    }

    private static Block randomBlock(
            List<String> names, List<DataType> types, int rows, Random rnd) {
        Block b = Block.empty(names, types, 4);
        for (int c = 0; c < types.size(); c++) {
            ByteArraySink out = new ByteArraySink(64);
            for (int r = 0; r < rows; r++) {
                randomValue(types.get(c), rnd, out);
            }
            ByteArraySource in = new ByteArraySource(out.toByteArray(), "random values");
            for (int r = 0; r < rows; r++) {
                ValueSerde.read(types.get(c), in, b.column(c));
            }
        }
        return new Block(names, types, b.columns());
    }

    /** One random value in RowBinary. */
    private static void randomValue(DataType t, Random rnd, ByteArraySink out) {
        if (t instanceof LowCardinalityType lc) {
            randomValue(lc.nested(), rnd, out);
        } else if (t instanceof NullableType n) {
            boolean isNull = rnd.nextInt(3) == 0;
            out.writeByte(isNull ? 1 : 0);
            if (!isNull) {
                randomValue(n.nested(), rnd, out);
            }
        } else if (t instanceof ArrayType a) {
            int len = rnd.nextInt(4);
            out.writeVarUInt(len);
            for (int i = 0; i < len; i++) {
                randomValue(a.element(), rnd, out);
            }
        } else if (t instanceof TupleType tt) {
            for (DataType e : tt.elements()) {
                randomValue(e, rnd, out);
            }
        } else if (t instanceof FixedStringType f) {
            for (int i = 0; i < f.length(); i++) {
                out.writeByte('a' + rnd.nextInt(26));
            }
        } else if (t.name().equals("String")) {
            int len = rnd.nextInt(12);
            out.writeVarUInt(len);
            for (int i = 0; i < len; i++) {
                out.writeByte('a' + rnd.nextInt(26));
            }
        } else {
            int width = t.fixedWidth();
            for (int i = 0; i < width; i++) {
                out.writeByte(rnd.nextInt(256));
            }
        }
    }
}
