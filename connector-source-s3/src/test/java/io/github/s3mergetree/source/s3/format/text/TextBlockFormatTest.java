package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.Compressors;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TextBlockFormatTest {
    @TempDir Path dir;

    static final TargetSchema SCHEMA =
            TargetSchema.parse(
                    "id UInt32, name Nullable(String), color Enum8('red' = 1, 'blue' = 2),"
                            + " tags Array(String), score Float64, extra UInt8");

    FormatTesting testing(int blockSize) {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, blockSize);
        conf.set(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 4096L);
        return new FormatTesting(
                ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf);
    }

    Block readOne(TextBlockFormat.Kind kind, String file, String content) throws Exception {
        Files.writeString(dir.resolve(file), content);
        try (FormatTesting t = testing(1000)) {
            var recs = t.readAll(new TextBlockFormat(kind, SCHEMA), t.wholeSplit(file));
            assertThat(recs).hasSize(1);
            return recs.get(0).record();
        }
    }

    static void checkSample(Block b) {
        assertThat(b.rows()).isEqualTo(3);
        assertThat(((IntColumn) b.column(0)).get(1)).isEqualTo(2);
        NullableColumn name = (NullableColumn) b.column(1);
        assertThat(((StringColumn) name.nested()).getString(0)).isEqualTo("a, \"quoted\"\tname");
        assertThat(name.isNull(1)).isTrue();
        assertThat(((ByteColumn) b.column(2)).get(2)).isEqualTo((byte) 2);
        ArrayColumn tags = (ArrayColumn) b.column(3);
        assertThat(tags.length(0)).isEqualTo(2);
        assertThat(((StringColumn) tags.elements()).getString(1)).isEqualTo("y");
        assertThat(tags.length(1)).isZero();
        assertThat(((ByteColumn) b.column(5)).get(0)).isZero(); // not in the input: default
    }

    @Test
    void csvWithNames() throws Exception {
        checkSample(
                readOne(
                        TextBlockFormat.Kind.CSV_WITH_NAMES,
                        "a.csv",
                        "id,name,unknown,color,tags,score\n"
                                + "1,\"a, \"\"quoted\"\"\tname\",zzz,red,\"['x','y']\",1.5\n"
                                + "2,\\N,zzz,red,[],2.5\r\n"
                                + "3,c,zzz,blue,['q'],\n"));
    }

    @Test
    void tabSeparatedWithNames() throws Exception {
        checkSample(
                readOne(
                        TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES,
                        "a.tsv",
                        "id\tname\tcolor\ttags\tscore\n"
                                + "1\ta, \"quoted\"\\tname\tred\t['x','y']\t1.5\n"
                                + "2\t\\N\tred\t[]\t2.5\n"
                                + "3\tc\tblue\t['q']\t3\n"));
    }

    @Test
    void jsonEachRow() throws Exception {
        checkSample(
                readOne(
                        TextBlockFormat.Kind.JSON_EACH_ROW,
                        "a.json",
                        "{\"id\":1,\"name\":\"a, \\\"quoted\\\"\\tname\",\"color\":\"red\",\"tags\":[\"x\",\"y\"],\"score\":1.5,\"nested\":{\"a\":[1]}}\n"
                                + "{\"id\":2,\"name\":null,\"color\":\"red\",\"tags\":[]}\n"
                                + "{\"color\":\"blue\",\"id\":3,\"name\":\"c\",\"tags\":[\"q\"]}\n"));
    }

    static byte[] compress(String ext, byte[] data) throws Exception {
        return Compressors.compress(ext, data);
    }

    static String jsonLines(int from, int rows) {
        StringBuilder b = new StringBuilder();
        for (int i = from; i < from + rows; i++) {
            b.append("{\"id\":")
                    .append(i)
                    .append(",\"name\":\"n")
                    .append(i)
                    .append("\",\"color\":\"blue\"}\n");
        }
        return b.toString();
    }

    @Test
    void everyCompressionByExtensionAndRestoreByRowCount() throws Exception {
        byte[] plain = jsonLines(0, 5000).getBytes(StandardCharsets.UTF_8);
        TextBlockFormat format = new TextBlockFormat(TextBlockFormat.Kind.JSON_EACH_ROW, SCHEMA);
        try (FormatTesting t = testing(700)) {
            for (String ext : List.of("gz", "zst", "lz4", "xz", "bz2")) {
                String key = "rows.json." + ext;
                Files.write(dir.resolve(key), compress(ext, plain));
                assertThat(format.isSplittable(key)).isFalse();
                S3ObjectSplit split = t.wholeSplit(key);
                var all = t.readAll(format, split);
                assertThat(FormatTesting.rows(all)).as(ext).isEqualTo(5000);
                var third = all.get(2);
                assertThat(third.recordsToSkip()).isEqualTo(2100);
                var rest =
                        t.readAll(
                                format, split.withPosition(third.offset(), third.recordsToSkip()));
                assertThat(FormatTesting.rows(rest)).isEqualTo(5000 - 2100);
                assertThat(((IntColumn) rest.get(0).record().column(0)).get(0)).isEqualTo(2100);
            }
        }
    }

    @Test
    void byteRangeSplitsAlignToLineEndsAndRestoreByOffset() throws Exception {
        StringBuilder tsv = new StringBuilder("id\tname\n");
        int rows = 20_000;
        for (int i = 0; i < rows; i++) {
            tsv.append(i).append('\t').append("name ").append("x".repeat(i % 37)).append('\n');
        }
        byte[] bytes = tsv.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(dir.resolve("big.tsv"), bytes);
        TextBlockFormat format =
                new TextBlockFormat(
                        TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES,
                        TargetSchema.parse("id UInt32, name String"));
        assertThat(
                        new TextBlockFormat(TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES, SCHEMA)
                                .isSplittable("big.tsv"))
                .as("an Array(String) value may hold a raw line break")
                .isFalse();
        try (FormatTesting t = testing(999)) {
            for (long splitSize : new long[] {bytes.length / 7, 1000, 8191}) {
                List<S3ObjectSplit> splits =
                        new SplitPlanner(format, splitSize).plan(t.client.head("big.tsv"));
                assertThat(splits.size()).isGreaterThan(1);
                Set<Integer> ids = new HashSet<>();
                for (S3ObjectSplit s : splits) {
                    for (var rec : t.readAll(format, s)) {
                        IntColumn c = (IntColumn) rec.record().column(0);
                        for (int k = 0; k < c.size(); k++) {
                            assertThat(ids.add(c.get(k))).as("duplicate %s", c.get(k)).isTrue();
                        }
                    }
                }
                assertThat(ids).hasSize(rows);
            }
            S3ObjectSplit second =
                    new SplitPlanner(format, bytes.length / 3)
                            .plan(t.client.head("big.tsv"))
                            .get(1);
            var all = t.readAll(format, second);
            var mid = all.get(1);
            var rest = t.readAll(format, second.withPosition(mid.offset(), 0));
            assertThat(FormatTesting.rows(rest))
                    .isEqualTo(FormatTesting.rows(all) - FormatTesting.rows(all.subList(0, 2)));
        }
    }

    @Test
    void badValuesNameObjectOffsetAndColumn() throws Exception {
        Files.writeString(dir.resolve("bad.csv"), "id,color\n1,red\n2,green\n");
        try (FormatTesting t = testing(10)) {
            assertThatThrownBy(
                            () ->
                                    t.readAll(
                                            new TextBlockFormat(
                                                    TextBlockFormat.Kind.CSV_WITH_NAMES, SCHEMA),
                                            t.wholeSplit("bad.csv")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(
                            "bad.csv: cannot parse CSVWithNames input at line 3, byte offset 17, column 'color'"
                                    + " (Enum8('red' = 1, 'blue' = 2)): Unknown element 'green'")
                    .hasMessageContaining("green");
        }
    }
}
