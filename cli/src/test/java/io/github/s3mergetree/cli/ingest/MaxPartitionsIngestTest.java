package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, item 7: {@code max_partitions_per_insert_block} (default 100) and {@code
 * throw_on_max_partitions_per_insert_block} (default true) as sink settings of the real command. A
 * PARTITION BY that puts 1,200 rows into 150 partitions is refused with ClickHouse's message and
 * nothing becomes visible; a higher limit, no limit (0) or throw_on... = false ingest every row.
 */
class MaxPartitionsIngestTest {
    @TempDir static Path tmp;
    static IngestFixture fx;
    static Path ddl;

    @BeforeAll
    static void setUp() throws Exception {
        fx = new IngestFixture(tmp);
        fx.addFiles(2, 600);
        ddl = tmp.resolve("many-partitions.sql");
        Files.writeString(
                ddl,
                PostsGenerator.DDL.replace(
                        "PARTITION BY toYear(CreationDate)", "PARTITION BY Id % 150"));
    }

    @AfterAll
    static void tearDown() throws Exception {
        fx.close();
    }

    private static List<String> args(Path table, String... extra) {
        List<String> a = new ArrayList<>(fx.ingestArgs(table, extra));
        a.set(a.indexOf("--table-ddl-file") + 1, ddl.toString());
        a.set(a.indexOf("--parallelism") + 1, "1");
        return a;
    }

    private static long rows(Path table) throws Exception {
        if (!Files.exists(table.resolve("s3mergetree_metadata"))) {
            return 0;
        }
        return MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(
                                table.toAbsolutePath().toString()),
                        TableLayouts.fromDdl(Files.readString(ddl)),
                        Clock.systemUTC())
                .totalRows();
    }

    @Test
    void moreThanTheLimitIsRefusedWithClickHousesMessage() throws Exception {
        Path table = tmp.resolve("refused");
        IngestFixture.Result r =
                IngestFixture.runInProcess(
                        args(table, "--flink-config", "restart-strategy.type=none"));
        assertThat(r.code()).as("stderr:\n%s", r.err()).isNotZero();
        assertThat(r.err())
                .contains(
                        "Too many partitions for single INSERT block (more than 100). The limit is"
                                + " controlled by 'max_partitions_per_insert_block' setting.");
        assertThat(rows(table)).isZero();
    }

    @Test
    void aHigherLimitNoLimitOrJustALogIngestEveryRow() throws Exception {
        String[][] settings = {
            {"max_partitions_per_insert_block=150"},
            {"max_partitions_per_insert_block=0"},
            {"throw_on_max_partitions_per_insert_block=false"},
        };
        int i = 0;
        for (String[] s : settings) {
            Path table = tmp.resolve("accepted-" + i++);
            IngestFixture.Result r = IngestFixture.runInProcess(args(table, "--setting", s[0]));
            assertThat(r.code()).as("%s, stderr:\n%s", s[0], r.err()).isZero();
            assertThat(r.field("rows")).isEqualTo(1200);
            assertThat(rows(table)).isEqualTo(1200);
        }
        // a limit below the partitions of one block is refused in the same way
        Path table = tmp.resolve("refused-149");
        IngestFixture.Result r =
                IngestFixture.runInProcess(
                        args(
                                table,
                                "--setting",
                                "max_partitions_per_insert_block=149",
                                "--flink-config",
                                "restart-strategy.type=none"));
        assertThat(r.code()).isNotZero();
        assertThat(r.err()).contains("(more than 149)");
        assertThat(rows(table)).isZero();
    }
}
