package io.github.s3mergetree.engine.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.column.GatheredFixedColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.io.ByteArraySource;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A fixed-width number column gathered from chunks serializes to the same bytes as the contiguous
 * column of the same rows, for every type written so, in granules that cross the serializer's
 * 64-KiB encoding scratch; a gathered column of another width than the type's is refused.
 */
class GatheredFixedSerializationTest {
    private static final List<String> TYPES =
            List.of(
                    "Int8",
                    "UInt8",
                    "Bool",
                    "Enum8('a' = 1, 'b' = 2)",
                    "Int16",
                    "UInt16",
                    "Date",
                    "Int32",
                    "UInt32",
                    "DateTime('UTC')",
                    "Date32",
                    "Int64",
                    "UInt64",
                    "DateTime64(3, 'UTC')",
                    "Float32",
                    "Float64");

    @Test
    void gatheredRowsSerializeLikeTheirContiguousCopy() {
        Random rnd = new Random(5);
        for (String name : TYPES) {
            DataType type = DataTypeParser.parse(name);
            assertThat(BulkSerialization.writesFixedWidth(type)).as(name).isTrue();
            List<Column> chunks = new ArrayList<>();
            int rows = 0;
            for (int k = 0; k < 4; k++) {
                int n = k == 2 ? 0 : 25_000 + rnd.nextInt(10_000);
                chunks.add(randomColumn(type, n, rnd));
                rows += n;
            }
            int[] perm = shuffled(rows, rnd);
            int[] chunkOf = new int[rows];
            int[] rowOf = new int[rows];
            for (int i = 0; i < rows; i++) {
                int r = perm[i];
                int k = 0;
                while (r >= chunks.get(k).size()) {
                    r -= chunks.get(k).size();
                    k++;
                }
                chunkOf[i] = k;
                rowOf[i] = r;
            }
            GatheredFixedColumn gathered = new GatheredFixedColumn(chunks, chunkOf, rowOf, rows);
            Column contiguous = gathered.materialize();
            assertThat(contiguous.size()).isEqualTo(rows);
            assertThat(gathered.byteSize()).as(name).isEqualTo(contiguous.byteSize());

            // granules of 1, 8191, 8192, 50000 rows and the rest: across the 64-KiB scratch
            int[] bounds = {0, 1, 8192, 16384, 66384, rows};
            Map<String, ByteArraySink> expected = new HashMap<>();
            Map<String, ByteArraySink> actual = new HashMap<>();
            BulkSerialization a = BulkSerialization.forColumn("x", type);
            BulkSerialization b = BulkSerialization.forColumn("x", type);
            for (int g = 0; g + 1 < bounds.length; g++) {
                a.serialize(
                        contiguous,
                        bounds[g],
                        bounds[g + 1],
                        n -> expected.computeIfAbsent(n, x -> new ByteArraySink(64)));
                b.serialize(
                        gathered,
                        bounds[g],
                        bounds[g + 1],
                        n -> actual.computeIfAbsent(n, x -> new ByteArraySink(64)));
            }
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            for (String stream : expected.keySet()) {
                assertThat(actual.get(stream).toByteArray())
                        .as("%s, stream %s", name, stream)
                        .isEqualTo(expected.get(stream).toByteArray());
                assertThat(expected.get(stream).size()).isEqualTo((long) rows * type.fixedWidth());
            }
        }
    }

    @Test
    void aGatheredColumnOfAnotherWidthIsRefused() {
        DataType int64 = DataTypeParser.parse("Int64");
        Column chunk = randomColumn(DataTypeParser.parse("Int32"), 10, new Random(1));
        GatheredFixedColumn ints =
                new GatheredFixedColumn(List.of(chunk), new int[10], identity(10), 10);
        assertThatThrownBy(
                        () ->
                                BulkSerialization.forColumn("x", int64)
                                        .serialize(ints, 0, 10, n -> new ByteArraySink(8)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("4-byte values for a 8-byte type");
    }

    @Test
    void onlyNumberColumnsAreGathered() {
        Column fixedString = Columns.create(DataTypeParser.parse("FixedString(3)"), 4);
        Column string = Columns.create(DataTypeParser.parse("String"), 4);
        assertThat(GatheredFixedColumn.supports(fixedString)).isFalse();
        assertThat(GatheredFixedColumn.supports(string)).isFalse();
        assertThatThrownBy(
                        () -> new GatheredFixedColumn(List.of(string), new int[0], new int[0], 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StringColumn");
        for (String name : List.of("Nullable(Int32)", "LowCardinality(String)", "Array(Int64)")) {
            assertThat(BulkSerialization.writesFixedWidth(DataTypeParser.parse(name)))
                    .as(name)
                    .isFalse();
        }
    }

    private static Column randomColumn(DataType type, int rows, Random rnd) {
        Column c = Columns.create(type, Math.max(rows, 1));
        ByteArraySink out = new ByteArraySink(64);
        for (int r = 0; r < rows; r++) {
            byte[] v = new byte[type.fixedWidth()];
            rnd.nextBytes(v);
            if (type.name().startsWith("Enum8")) {
                v[0] = (byte) (1 + rnd.nextInt(2));
            } else if (type.name().equals("Bool")) {
                v[0] = (byte) rnd.nextInt(2);
            }
            out.write(v, 0, v.length);
        }
        ByteArraySource in = new ByteArraySource(out.toByteArray(), "random values");
        for (int r = 0; r < rows; r++) {
            ValueSerde.read(type, in, c);
        }
        return c;
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    private static int[] shuffled(int n, Random rnd) {
        int[] p = identity(n);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
