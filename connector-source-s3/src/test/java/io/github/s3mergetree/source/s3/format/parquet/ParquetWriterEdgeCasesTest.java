package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase.Case;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase.Outcome;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase.Result;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.Configuration;
import org.apache.parquet.format.ConvertedType;
import org.apache.parquet.format.LogicalType;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.StringType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet values other writers store at the edges of what ClickHouse reads, against chDB ({@code
 * tools/realworld/writer_edge_cases.py} writes the files): decimal256 columns whose values fit a
 * narrower Decimal (stored, as ClickHouse stores them; a value that does not fit refused by both),
 * INT96 timestamps beyond the Int64-nanosecond range (refused by both, naming the column),
 * fixed-length binaries without a logical type and, as fastparquet annotates its fixed-length text
 * columns, with the UTF8 converted type / STRING logical type on a FIXED_LEN_BYTE_ARRAY (read as
 * ClickHouse reads them).
 */
class ParquetWriterEdgeCasesTest {
    @ChDbSession static ChDb chdb;

    @TempDir static Path dir;

    static Path files;
    static List<Case> cases;
    static FormatTesting testing;

    @BeforeAll
    static void generate() throws Exception {
        files = dir.resolve("files");
        cases = new ArrayList<>(RealWorldFilesITCase.generate("writer_edge_cases.py", files));
        // fastparquet's fixed-length text: FIXED_LEN_BYTE_ARRAY annotated UTF8 (and, as newer
        // writers add, the STRING logical type)
        for (String base : List.of("fixed-binary-text", "fixed-binary-text-not-null")) {
            byte[] plain = Files.readAllBytes(files.resolve(base + ".parquet"));
            List<Case> structures =
                    cases.stream().filter(c -> c.file().equals(base + ".parquet")).toList();
            for (boolean logical : new boolean[] {false, true}) {
                String name = base + "-utf8" + (logical ? "-string" : "") + ".parquet";
                Files.write(
                        files.resolve(name),
                        ParquetRewriting.editFooter(
                                plain,
                                meta -> {
                                    for (SchemaElement e : meta.getSchema()) {
                                        if (e.getName().equals("s")) {
                                            e.setConverted_type(ConvertedType.UTF8);
                                            if (logical) {
                                                e.setLogicalType(
                                                        LogicalType.STRING(new StringType()));
                                            }
                                        }
                                    }
                                }));
                for (Case c : structures) {
                    cases.add(new Case(name, "Parquet", c.structure(), "FLBA annotated UTF8"));
                }
            }
        }
        // ClickHouse's own Decimal256 (FIXED_LEN_BYTE_ARRAY(32), precision 76)
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + files.resolve("decimal256-p76-clickhouse.parquet")
                        + "', Parquet) SELECT toInt64(number) AS id, if(number % 7 = 3, NULL,"
                        + " toDecimal256(number * 7919 - 500000, 5) / 100000) AS d"
                        + " FROM numbers(300) SETTINGS engine_file_truncate_on_insert = 1");
        for (String s :
                List.of(
                        "id Int64, d Nullable(Decimal(37, 5))",
                        "id Int64, d Nullable(Decimal(38, 5))",
                        "id Int64, d Nullable(Decimal(76, 5))",
                        "id Int64, d Decimal(37, 5)")) {
            cases.add(new Case("decimal256-p76-clickhouse.parquet", "Parquet", s, "chDB"));
        }
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 100);
        testing =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(files.toString()).createClient(), conf);
    }

    @AfterAll
    static void close() {
        if (testing != null) {
            testing.close();
        }
    }

    /** The outcomes of the cases of files named {@code prefix*}, one line each. */
    private static List<String> outcomes(String prefix) throws Exception {
        List<String> out = new ArrayList<>();
        for (Case c : cases) {
            if (c.file().startsWith(prefix)) {
                Result r = RealWorldFilesITCase.run(c, chdb, testing, files);
                out.add(r.outcome() + " " + c.file() + " as " + c.structure() + ": " + r.detail());
            }
        }
        assertThat(out).as("cases of %s", prefix).isNotEmpty();
        return out;
    }

    @Test
    void decimal256ValuesThatFitANarrowerDecimalAreStoredAsClickHouseStoresThem() throws Exception {
        List<String> out = outcomes("decimal256-p");
        assertThat(out).hasSize(30).allMatch(s -> s.startsWith(Outcome.SAME.name()), "SAME");
    }

    @Test
    void aDecimal256ValueWiderThanTheTargetIsRefusedAsClickHouseRefusesIt() throws Exception {
        List<String> out = outcomes("decimal256-too-wide");
        assertThat(out)
                .containsExactly(
                        out.get(0).startsWith(Outcome.BOTH_REFUSE.name()) ? out.get(0) : "refused",
                        out.get(1).startsWith(Outcome.SAME.name()) ? out.get(1) : "read");
        assertThat(out.get(0)).contains("column 'd'").contains("row 1");
    }

    @Test
    void int96TimestampsBeyondInt64NanosecondsAreRefusedAsClickHouseRefusesThem() throws Exception {
        assertThat(outcomes("int96-in-range"))
                .hasSize(3)
                .allMatch(s -> s.startsWith(Outcome.SAME.name()), "SAME");
        List<String> beyond = new ArrayList<>();
        beyond.addAll(outcomes("int96-year"));
        beyond.addAll(outcomes("int96-2262"));
        assertThat(beyond)
                .hasSize(9)
                .allMatch(s -> s.startsWith(Outcome.BOTH_REFUSE.name()), "BOTH_REFUSE")
                .allMatch(
                        s ->
                                s.contains("column 't'")
                                        && s.contains("INT96 timestamp out of range"));
    }

    @Test
    void fixedLengthBinaryTextIsReadAsClickHouseReadsIt() throws Exception {
        List<String> out = new ArrayList<>(outcomes("fixed-binary-"));
        assertThat(out).hasSize(12).allMatch(s -> s.startsWith(Outcome.SAME.name()), "SAME");
    }
}
