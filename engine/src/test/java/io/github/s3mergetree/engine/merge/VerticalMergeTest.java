package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayout;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.LocalParts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The vertical merge (key columns first, then each other column gathered by the recorded row
 * sources) produces exactly the rows of the horizontal merge, for adaptive and fixed granules, and
 * chDB attaches and checks its part.
 */
class VerticalMergeTest {
    @TempDir Path tmp;

    @ParameterizedTest
    @ValueSource(longs = {10485760L, 0L})
    void verticalEqualsHorizontal(long indexGranularityBytes) throws Exception {
        String ddl =
                "CREATE TABLE wide (d Date, k UInt32, s String, a Array(String), n Nullable(Int64),"
                        + " lc LowCardinality(String), c1 UInt8, c2 Int16, c3 Float64, c4 String,"
                        + " c5 Decimal(18, 3), c6 DateTime, c7 UUID, c8 FixedString(3))"
                        + " ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY (k, s)"
                        + " SETTINGS index_granularity = 512, index_granularity_bytes = "
                        + indexGranularityBytes;
        TableLayout layout = TableLayouts.fromDdl(ddl);
        StringBuilder structure = new StringBuilder();
        for (int i = 0; i < layout.columnNames().size(); i++) {
            structure
                    .append(i > 0 ? ", " : "")
                    .append(layout.columnNames().get(i))
                    .append(' ')
                    .append(layout.columnTypes().get(i).name());
        }
        String st = structure.toString().replace("'", "\\'");
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            MergeTreeTable table =
                    MergeTreeTable.open(
                            LocalParts.store(tmp.resolve("t")), layout, Clock.systemUTC());
            for (int i = 0; i < 5; i++) {
                Path data = tmp.resolve("in" + i + ".bin");
                ch.execute(
                        "SELECT * REPLACE (toDate('2024-01-01') + (k % 40) AS d, toUInt32(k % 1000) AS k) FROM"
                                + " generateRandom('"
                                + st
                                + "', "
                                + (i + 3)
                                + ", 12, 3) LIMIT 4000"
                                + " INTO OUTFILE '"
                                + data
                                + "' FORMAT RowBinary");
                table.insert(
                        RowBinary.read(
                                Files.readAllBytes(data),
                                layout.columnNames(),
                                layout.columnTypes(),
                                "in"));
            }
            PartWriter writer = new PartWriter(layout.partFormat());
            for (List<ActivePart> parts : table.activePartsByPartition().values()) {
                List<PartReader> sources = new ArrayList<>();
                for (ActivePart p : parts) {
                    sources.add(
                            LocalParts.open(LocalParts.root(table).resolve(p.name().toString())));
                }
                String partition = parts.get(0).name().partitionId();
                PartitionData pd =
                        new PartitionData(
                                partition,
                                sources.get(0).readFile("partition.dat"),
                                layout.minmaxColumns(),
                                layout.partitionKey().types());
                Path h = tmp.resolve("h").resolve(partition + "_1_9_1");
                Path v = tmp.resolve("v").resolve(partition + "_1_9_1");
                LocalParts.merge(
                        writer,
                        sources,
                        layout.mergeSpec(),
                        pd,
                        h,
                        new PartMerger.Progress(),
                        false);
                LocalParts.merge(
                        writer,
                        sources,
                        layout.mergeSpec(),
                        pd,
                        v,
                        new PartMerger.Progress(),
                        true);
                PartReader hr = LocalParts.open(h);
                PartReader vr = LocalParts.open(v);
                vr.verify();
                Block hb = hr.readAll();
                Block vb = vr.readAll();
                assertThat(vb.rows()).isEqualTo(hb.rows()).isPositive();
                assertThat(RowBinary.write(vb)).isEqualTo(RowBinary.write(hb));
                assertThat(Files.readAllBytes(v.resolve("minmax_d.idx")))
                        .isEqualTo(Files.readAllBytes(h.resolve("minmax_d.idx")));
                if (indexGranularityBytes == 0) {
                    assertThat(Files.readAllBytes(v.resolve("primary.idx")))
                            .isEqualTo(Files.readAllBytes(h.resolve("primary.idx")));
                }
                ch.execute(ddl.replace("CREATE TABLE wide", "CREATE TABLE IF NOT EXISTS wide"));
                ch.attachPart("wide", v);
            }
            ch.assertCheckTablePasses("wide");
            assertThat(ch.queryLong("SELECT count() FROM wide")).isEqualTo(table.totalRows());
        }
    }
}
