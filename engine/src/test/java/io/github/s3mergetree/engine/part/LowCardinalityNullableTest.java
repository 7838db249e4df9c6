package io.github.s3mergetree.engine.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.DataTypes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** LowCardinality(Nullable(String)): NULL, empty and other strings survive our writer and chDB. */
class LowCardinalityNullableTest {
    @TempDir Path tmp;

    @Test
    void nullsEmptyStringsAndValuesAreDistinct() throws Exception {
        DataType lcn = DataTypeParser.parse("LowCardinality(Nullable(String))");
        List<String> names = List.of("id", "v");
        List<DataType> types = List.of(DataTypes.UINT64, lcn);
        RowBlockBuilder b = new RowBlockBuilder("t", names, types, ZoneOffset.UTC);
        String[] values = {null, "", "a", null, "", "b", "", null};
        for (int i = 0; i < 2000; i++) {
            String v = values[i % values.length];
            b.addRow(i, v != null && v.equals("b") ? "b" + i : v);
        }
        Block block = b.build();
        Block pk = new Block(List.of("id"), List.of(DataTypes.UINT64), List.of(block.column(0)));
        Path part = tmp.resolve("all_1_1_0");
        Files.createDirectory(part);
        LocalParts.write(
                new PartWriter(PartWriterOptions.defaults()),
                new PartWriter.Input(block, pk, PartitionData.UNPARTITIONED, Map.of()),
                part);
        Block back = LocalParts.open(part).readAll();
        NullableColumn col = (NullableColumn) back.column(1);
        for (int i = 0; i < 2000; i++) {
            String want = values[i % values.length];
            if (want == null) {
                assertThat(col.isNull(i)).as("row %d", i).isTrue();
            } else {
                assertThat(col.isNull(i)).as("row %d", i).isFalse();
                assertThat(((StringColumn) col.nested()).getString(i))
                        .isEqualTo(want.equals("b") ? "b" + i : want);
            }
        }
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            ch.execute(
                    "CREATE TABLE t (id UInt64, v LowCardinality(Nullable(String))) ENGINE = MergeTree ORDER BY id");
            ch.attachPart("t", part);
            ch.assertCheckTablePasses("t");
            assertThat(
                            ch.query(
                                    "SELECT countIf(v IS NULL), countIf(v = ''), countIf(v = 'a'), countIf(startsWith(v, 'b')) FROM t"))
                    .isEqualTo("750\t750\t250\t250");
        }
    }
}
