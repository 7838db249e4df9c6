package io.github.s3mergetree.engine.part;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.sort.StableSort;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.engine.types.ArrayType;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypes;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.engine.types.NullableType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A first end-to-end check of the part writer against chDB, with hand-built types. */
class PartWriterSmokeTest {
    @TempDir Path tmp;

    @Test
    void chDbAttachesAndChecksAPartWeWrote() throws Exception {
        String structure =
                "id UInt64, s String, n Nullable(Int32), arr Array(String), lc LowCardinality(String)";
        List<String> names = List.of("id", "s", "n", "arr", "lc");
        List<DataType> types =
                List.of(
                        DataTypes.UINT64,
                        DataTypes.STRING_TYPE,
                        new NullableType(DataTypes.INT32),
                        new ArrayType(DataTypes.STRING_TYPE),
                        new LowCardinalityType(DataTypes.STRING_TYPE));
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            Path data = tmp.resolve("rows.bin");
            ch.execute(
                    "SELECT * FROM generateRandom('"
                            + structure
                            + "', 7, 20, 4) LIMIT 30000 INTO OUTFILE '"
                            + data
                            + "' FORMAT RowBinary");
            for (String t : List.of("ref", "ours")) {
                ch.execute(
                        "CREATE TABLE "
                                + t
                                + " ("
                                + structure
                                + ") ENGINE = MergeTree ORDER BY id");
            }
            ch.execute(
                    "INSERT INTO ref SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + structure
                            + "')");

            Block block = RowBinary.read(Files.readAllBytes(data), names, types, data.toString());
            int[] perm =
                    StableSort.sortedPermutation(
                            block.rows(), RowComparators.forColumn(types.get(0), block.column(0)));
            Block sorted = block.permute(perm, block.rows());
            Block pk = new Block(List.of("id"), List.of(types.get(0)), List.of(sorted.column(0)));
            Path partDir = tmp.resolve("all_1_1_0");
            Files.createDirectory(partDir);
            LocalParts.write(
                    new PartWriter(PartWriterOptions.defaults()),
                    new PartWriter.Input(sorted, pk, PartitionData.UNPARTITIONED, Map.of()),
                    partDir);

            ch.attachPart("ours", partDir);
            ch.assertCheckTablePasses("ours");
            assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(30000);
            assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM ours"))
                    .isEqualTo(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM ref"));
            assertThat(ch.query("SELECT groupArray(id) FROM (SELECT id FROM ours LIMIT 5)"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT groupArray(id) FROM (SELECT id FROM ref ORDER BY id LIMIT 5)"));
        }
    }
}
