package io.github.s3mergetree.engine.merge;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.expr.EvaluationContext;
import io.github.s3mergetree.engine.expr.ExprParser;
import io.github.s3mergetree.engine.expr.KeyExpression;
import io.github.s3mergetree.engine.format.RowBinary;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.part.PartWriter;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.PartitionData;
import io.github.s3mergetree.engine.table.BlockSplitter;
import io.github.s3mergetree.engine.table.EvaluatedKeys;
import io.github.s3mergetree.engine.table.PartitionedBlock;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.LocalParts;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.engine.types.DataType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Merges parts we wrote and compares the result with ClickHouse's own {@code OPTIMIZE TABLE …
 * FINAL} of the same inserts, for each engine's merge semantics; chDB attaches our merged part and
 * CHECK TABLE passes.
 */
class PartMergerChDbTest {
    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "MergeTree|MergeTree|k UInt16, s String, v Int64, n Nullable(Float64), a Array(LowCardinality(String))|k, s|",
                "Replacing|ReplacingMergeTree|k UInt16, s String, v Int64, n Nullable(Float64)|k|",
                "ReplacingVer|ReplacingMergeTree(ver)|k UInt8, ver UInt32, s String|k|",
                "Summing|SummingMergeTree|k UInt8, g String, x Int64, y Float64, z UInt8|k, g|",
                "SummingCols|SummingMergeTree(x)|k UInt8, x Int32, y Int32|k|",
                "Collapsing|CollapsingMergeTree(sign)|k UInt8, sign Int8, v String|k|",
                "Partitioned|MergeTree|d Date, k Int32, s String|k|toYYYYMM(d)",
            })
    void mergedPartEqualsClickHousesOptimizeFinal(
            String name, String engine, String structure, String orderBy, String partitionBy)
            throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Map<String, DataType> columns =
                io.github.s3mergetree.engine.table.TestLayouts.structure(structure);
        List<String> names = new ArrayList<>(columns.keySet());
        List<DataType> types = new ArrayList<>(columns.values());
        String partition = partitionBy == null ? "" : " PARTITION BY " + partitionBy;
        String ddlTail = " ENGINE = " + engine + partition + " ORDER BY (" + orderBy + ")";
        String gen = generator(name, structure);
        int inserts = 6;
        for (String t : List.of("ref_" + name, "ours_" + name)) {
            ch.execute("CREATE TABLE " + t + " (" + structure + ")" + ddlTail);
        }
        ch.execute("CREATE TABLE gen_" + name + " (" + structure + ") ENGINE = Memory");
        KeyExpression sortingKey = ExprParser.parseKey("(" + orderBy + ")", columns, false);
        KeyExpression partitionKey =
                partitionBy == null
                        ? KeyExpression.EMPTY
                        : ExprParser.parseKey(partitionBy, columns, true);
        EvaluationContext ctx = EvaluationContext.utc();
        PartWriter writer =
                new PartWriter(PartWriterOptions.defaults().withIndexGranularity(256, 10L << 20));
        Map<String, List<PartReader>> partsByPartition = new LinkedHashMap<>();
        Map<String, PartitionData> partitionData = new LinkedHashMap<>();
        int block = 0;
        for (int i = 0; i < inserts; i++) {
            Path data = dir.resolve("insert" + i + ".bin");
            ch.execute("TRUNCATE TABLE gen_" + name);
            ch.execute(
                    "INSERT INTO gen_" + name + " " + gen.replace("SEED", Integer.toString(i + 1)));
            ch.execute(
                    "SELECT * FROM gen_" + name + " INTO OUTFILE '" + data + "' FORMAT RowBinary");
            ch.execute(
                    "INSERT INTO ref_"
                            + name
                            + " SELECT * FROM file('"
                            + data
                            + "', RowBinary, '"
                            + structure
                            + "')");
            Block rows = RowBinary.read(Files.readAllBytes(data), names, types, data.toString());
            List<Column> sortCols = sortingKey.evaluate(rows, ctx);
            List<Column> partCols = partitionKey.evaluate(rows, ctx);
            EvaluatedKeys keys =
                    new EvaluatedKeys(
                            partitionKey.types(),
                            partCols,
                            new ArrayList<>(partitionKey.requiredColumns()),
                            sortingKey.columnNames(),
                            sortingKey.types(),
                            sortCols,
                            sortingKey.size());
            for (PartitionedBlock pb : BlockSplitter.split(rows, keys)) {
                block++;
                Path partDir =
                        dir.resolve(
                                pb.partition().partitionId() + "_" + block + "_" + block + "_0");
                Files.createDirectory(partDir);
                // optimize_on_insert = 1, ClickHouse's default: the engine's reduction per insert
                Block sorted = pb.rows();
                Block reduced =
                        InsertReduction.reduce(
                                sorted,
                                sortingKey.evaluate(sorted, ctx),
                                modeOf(engine),
                                sortingKey);
                Block pk =
                        new Block(
                                sortingKey.columnNames(),
                                sortingKey.types(),
                                sortingKey.evaluate(reduced, ctx));
                LocalParts.write(
                        writer,
                        new PartWriter.Input(reduced, pk, pb.partition(), Map.of()),
                        partDir);
                partsByPartition
                        .computeIfAbsent(pb.partition().partitionId(), k -> new ArrayList<>())
                        .add(LocalParts.open(partDir));
                partitionData.put(pb.partition().partitionId(), pb.partition());
            }
        }
        MergingMode mode = modeOf(engine);
        MergeSpec spec =
                new MergeSpec(
                        names,
                        types,
                        sortingKey,
                        sortingKey.size(),
                        new ArrayList<>(partitionKey.requiredColumns()),
                        partitionKey.types(),
                        Map.of(),
                        mode,
                        100,
                        ctx);
        for (var e : partsByPartition.entrySet()) {
            List<PartReader> sources = e.getValue();
            long min =
                    sources.get(0).name().isEmpty()
                            ? 0
                            : Long.parseLong(sources.get(0).name().split("_")[1]);
            Path out = dir.resolve(e.getKey() + "_" + min + "_" + block + "_1");
            PartMerger.Progress progress = new PartMerger.Progress();
            LocalParts.merge(
                    writer, sources, spec, partitionData.get(e.getKey()), out, progress, null);
            assertThat(progress.rowsRead())
                    .isEqualTo(sources.stream().mapToLong(PartReader::rows).sum());
            LocalParts.open(out).verify();
            ch.attachPart("ours_" + name, out);
        }
        ch.execute("OPTIMIZE TABLE ref_" + name + " FINAL");
        ch.assertCheckTablePasses("ours_" + name);
        String cols = String.join(", ", names);
        assertThat(ch.queryLong("SELECT count() FROM ours_" + name))
                .as(
                        "ours vs ref rows per sorting key:\n%s",
                        ch.query(
                                "SELECT * FROM (SELECT "
                                        + orderBy
                                        + ", groupArray(tuple(*)) AS r FROM ours_"
                                        + name
                                        + " GROUP BY "
                                        + orderBy
                                        + ") AS o FULL JOIN (SELECT "
                                        + orderBy
                                        + ", groupArray(tuple(*)) AS r FROM ref_"
                                        + name
                                        + " GROUP BY "
                                        + orderBy
                                        + ") AS f USING ("
                                        + orderBy
                                        + ") WHERE o.r != f.r LIMIT 10"))
                .isEqualTo(ch.queryLong("SELECT count() FROM ref_" + name))
                .isGreaterThan(0);
        assertThat(ch.query("SELECT " + RowsHash.of(cols) + " FROM ours_" + name))
                .isEqualTo(ch.query("SELECT " + RowsHash.of(cols) + " FROM ref_" + name));
        assertThat(
                        ch.query(
                                "SELECT groupArray(tuple("
                                        + cols
                                        + ")) FROM (SELECT * FROM ours_"
                                        + name
                                        + " LIMIT 50)"))
                .isEqualTo(
                        ch.query(
                                "SELECT groupArray(tuple("
                                        + cols
                                        + ")) FROM (SELECT * FROM ref_"
                                        + name
                                        + " LIMIT 50)"));
    }

    private static String generator(String name, String structure) {
        return switch (name) {
            case "Collapsing" ->
                    // a change log: insert SEED cancels each key's previous state (-1) and writes
                    // the
                    // new one (+1); keys with k % 7 = SEED are deleted (cancel only)
                    "SELECT k, sign, v FROM (SELECT toUInt8(number) AS k FROM numbers(50)) ARRAY JOIN"
                            + " if(SEED = 1, [(1, toString(SEED))], if(k % 7 = SEED, [(-1, toString(SEED - 1))],"
                            + " [(-1, toString(SEED - 1)), (1, toString(SEED))])) AS t"
                            + " ARRAY JOIN [t.1] AS sign, [t.2] AS v";
            case "ReplacingVer" ->
                    "SELECT toUInt8(number % 60) AS k, toUInt32(cityHash64(number, SEED) % 5) AS ver, toString(cityHash64(number, SEED)) AS s FROM numbers(400)";
            case "Summing" ->
                    "SELECT toUInt8(number % 40) AS k, toString(number % 3) AS g, toInt64(cityHash64(number, SEED) % 100) - 50 AS x, 0.5 AS y, toUInt8(number % 2) AS z FROM numbers(700)";
            case "SummingCols" ->
                    "SELECT toUInt8(number % 40) AS k, toInt32(number % 5) - 2 AS x, toInt32(number) AS y FROM numbers(500)";
            case "Partitioned" ->
                    "SELECT toDate('2024-01-20') + (cityHash64(number, SEED) % 40) AS d, toInt32(cityHash64(number, SEED, 1) % 1000) - 500 AS k, toString(number) AS s FROM numbers(3000)";
            default -> "SELECT * FROM generateRandom('" + structure + "', SEED, 12, 3) LIMIT 2000";
        };
    }

    private static MergingMode modeOf(String engine) {
        if (engine.startsWith("ReplacingMergeTree(")) {
            return MergingMode.replacing("ver", null);
        }
        if (engine.startsWith("Replacing")) {
            return MergingMode.replacing(null, null);
        }
        if (engine.startsWith("SummingMergeTree(")) {
            return MergingMode.summing(List.of("x"));
        }
        if (engine.startsWith("Summing")) {
            return MergingMode.summing(List.of());
        }
        if (engine.startsWith("Collapsing")) {
            return MergingMode.collapsing("sign");
        }
        return MergingMode.ORDINARY;
    }
}
