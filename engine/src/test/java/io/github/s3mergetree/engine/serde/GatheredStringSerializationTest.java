package io.github.s3mergetree.engine.serde;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.GatheredStringColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A String column gathered from chunks serializes to the same bytes as the contiguous column of the
 * same rows, in both String layouts, for granules that cross the batches in which the gathered rows
 * are located; its size is the same whether it is summed per row or taken from the chunks.
 */
class GatheredStringSerializationTest {

    @Test
    void gatheredRowsSerializeLikeTheirContiguousCopy() {
        Random rnd = new Random(3);
        List<StringColumn> chunks = new ArrayList<>();
        int rows = 0;
        for (int k = 0; k < 3; k++) {
            StringColumn c = new StringColumn(16);
            int n = k == 1 ? 0 : 1100 + rnd.nextInt(700);
            for (int i = 0; i < n; i++) {
                byte[] v = new byte[rnd.nextInt(5) == 0 ? 0 : rnd.nextInt(300)];
                rnd.nextBytes(v);
                c.add(v, 0, v.length);
            }
            chunks.add(c);
            rows += n;
        }
        int[] perm = new int[rows];
        for (int i = 0; i < rows; i++) {
            perm[i] = i;
        }
        for (int i = rows - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
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
        GatheredStringColumn summed = new GatheredStringColumn(chunks, chunkOf, rowOf, rows, false);
        GatheredStringColumn fromChunks =
                new GatheredStringColumn(chunks, chunkOf, rowOf, rows, true);
        assertThat(fromChunks.byteSize()).isEqualTo(summed.byteSize());
        StringColumn contiguous = summed.materialize();
        assertThat(contiguous.size()).isEqualTo(rows);

        for (boolean sizeStream : new boolean[] {false, true}) {
            // granules of 1, 511, 513, 1000 and the rest: across the 512-row locate batches
            int[] bounds = {0, 1, 512, 1025, 2025, rows};
            Map<String, ByteArraySink> expected = new HashMap<>();
            Map<String, ByteArraySink> actual = new HashMap<>();
            BulkSerialization a =
                    BulkSerialization.forColumn("s", DataTypeParser.parse("String"), sizeStream);
            BulkSerialization b =
                    BulkSerialization.forColumn("s", DataTypeParser.parse("String"), sizeStream);
            for (int g = 0; g + 1 < bounds.length; g++) {
                a.serialize(
                        contiguous,
                        bounds[g],
                        bounds[g + 1],
                        n -> expected.computeIfAbsent(n, x -> new ByteArraySink(64)));
                b.serialize(
                        fromChunks,
                        bounds[g],
                        bounds[g + 1],
                        n -> actual.computeIfAbsent(n, x -> new ByteArraySink(64)));
            }
            assertThat(actual.keySet()).isEqualTo(expected.keySet());
            for (String stream : expected.keySet()) {
                assertThat(actual.get(stream).toByteArray())
                        .as("stream %s (size stream: %s)", stream, sizeStream)
                        .isEqualTo(expected.get(stream).toByteArray());
            }
            assertThat(expected.get("s").size()).isGreaterThan(100_000);
        }
    }
}
