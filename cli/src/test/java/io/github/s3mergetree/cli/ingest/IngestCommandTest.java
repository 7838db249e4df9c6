package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.engine.table.TableKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest} in-process: a bounded ingest from the S3 API server equals chDB's own
 * insert of the same files; re-running a finished ingest adds nothing; {@code file://} sources and
 * {@code --setting}s work; bad input fails with one line, exit code ≠ 0, no stack trace and nothing
 * written to the table.
 */
class IngestCommandTest {
    @TempDir static Path tmp;
    static IngestFixture fx;

    @BeforeAll
    static void setUp() throws Exception {
        fx = new IngestFixture(tmp);
        fx.addFiles(4, 3000);
    }

    @AfterAll
    static void tearDown() throws Exception {
        fx.close();
    }

    @Test
    void ingestsFromS3ExactlyAsClickHouseDoes() throws Exception {
        Path table = tmp.resolve("t-s3");
        IngestFixture.Result r =
                IngestFixture.runInProcess(
                        fx.ingestArgs(
                                table,
                                "--checkpoint-interval",
                                "1s",
                                "--optimize-final",
                                "--setting",
                                "max_download_threads=2",
                                "--setting",
                                "min_insert_block_size_rows=5000"));
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(r.lastLine()).startsWith("{\"rows\":12000,");
        assertThat(r.field("parts_written")).isGreaterThanOrEqualTo(r.field("active_parts"));
        assertThat(r.field("active_parts")).isEqualTo(2); // OPTIMIZE FINAL: one per year
        // the rows were committed before OPTIMIZE FINAL merged them: insert_seconds ends earlier
        assertThat(r.decimal("insert_seconds"))
                .isPositive()
                .isLessThanOrEqualTo(r.decimal("seconds"));
        assertThat(r.err()).contains("input: 4 objects").doesNotContain(IngestFixture.SECRET);
        // every row the job read, from its metrics (the embedded MiniCluster's reporter)
        assertThat(r.err()).contains("done: 12000 rows read (");
        fx.assertEqualToClickHouse(table);

        // a finished ingest is not repeated
        IngestFixture.Result again = IngestFixture.runInProcess(fx.ingestArgs(table));
        assertThat(again.code()).as("stderr:\n%s", again.err()).isZero();
        assertThat(again.err()).contains("already finished");
        assertThat(IngestFixture.tableRows(table)).isEqualTo(12000);
    }

    @Test
    void ingestsLocalFiles() throws Exception {
        Path table = tmp.resolve("t-file");
        List<String> args =
                List.of(
                        "ingest",
                        "--source",
                        "file://"
                                + fx.store.resolve(IngestFixture.BUCKET)
                                + "/posts/part-0000{0,1}.parquet",
                        "--format",
                        "parquet",
                        "--table-ddl-file",
                        fx.ddlFile.toString(),
                        "--table-path",
                        table.toString(),
                        "--parallelism",
                        "1");
        IngestFixture.Result r = IngestFixture.runInProcess(args);
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(r.field("rows")).isEqualTo(6000);
        assertThat(IngestFixture.tableRows(table)).isEqualTo(6000);
    }

    /**
     * {@code --setting merges=false}: the ingest (streaming, checkpoints) finishes with exit 0,
     * every row committed and no merge, and a rerun finds it finished. It once always failed with
     * "Received element after endOfInput" and was never marked finished.
     */
    @Test
    void mergesOffFinishesAndIsMarkedFinished() throws Exception {
        Path table = tmp.resolve("t-no-merges");
        List<String> args =
                fx.ingestArgs(
                        table,
                        "--checkpoint-interval",
                        "1s",
                        "--setting",
                        "merges=false",
                        "--setting",
                        "min_insert_block_size_rows=2000");
        IngestFixture.Result r = IngestFixture.runInProcess(args);
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(r.field("rows")).isEqualTo(12000);
        assertThat(r.field("merges")).isZero();
        assertThat(r.field("active_parts")).isEqualTo(r.field("parts_written")).isGreaterThan(2);
        assertThat(IngestFixture.tableRows(table)).isEqualTo(12000);

        IngestFixture.Result again = IngestFixture.runInProcess(args);
        assertThat(again.code()).as("stderr:\n%s", again.err()).isZero();
        assertThat(again.err()).contains("already finished");
        assertThat(IngestFixture.tableRows(table)).isEqualTo(12000);
    }

    /**
     * {@code --start-over} is the only way to read a finished ingest's objects again, and it says
     * first what it does to the table: the committed rows stay and will be there twice.
     */
    @Test
    void startOverSaysItDoublesTheRowsAndDoes() throws Exception {
        Path table = tmp.resolve("t-start-over");
        List<String> args = fx.ingestArgs(table, "--checkpoint-interval", "1s");
        assertThat(IngestFixture.runInProcess(args).code()).isZero();
        assertThat(IngestFixture.tableRows(table)).isEqualTo(12000);
        List<String> over = new ArrayList<>(args);
        over.add("--start-over");
        IngestFixture.Result r = IngestFixture.runInProcess(over);
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(r.err())
                .contains("--start-over: forgetting this ingest's state")
                .contains("(finished)")
                .contains("The 12,000 rows its earlier runs committed stay in " + table)
                .contains("every one of the 4 objects")
                .contains("the table will hold those rows twice");
        assertThat(r.field("rows")).isEqualTo(12000); // this ingest's rows since the start-over
        assertThat(IngestFixture.tableRows(table)).isEqualTo(24000);
    }

    @Test
    void missingOptionIsAUsageError() {
        IngestFixture.Result r =
                IngestFixture.runInProcess(List.of("ingest", "--format", "Parquet"));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).contains("missing --source").contains("usage: s3-mergetree ingest");
    }

    @Test
    void ddlThatDoesNotParse() throws Exception {
        Path bad = tmp.resolve("bad.sql");
        Files.writeString(bad, "CREATE TABLE t (a UInt64) ENGINE = MergeTree ORDER BY (b)");
        List<String> args =
                replace(
                        fx.ingestArgs(tmp.resolve("t-bad-ddl")),
                        "--table-ddl-file",
                        bad.toString());
        assertFailsCleanly(args, tmp.resolve("t-bad-ddl"), "the DDL in " + bad + " is invalid");
    }

    @Test
    void ddlFileLargerThanMaxQuerySizeIsRefusedBeforeAnythingIsRead() throws Exception {
        Path big = tmp.resolve("big.sql");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(200L * 1024 * 1024); // sparse: refused from its size, never read
        }
        List<String> args =
                replace(
                        fx.ingestArgs(tmp.resolve("t-big-ddl")),
                        "--table-ddl-file",
                        big.toString());
        assertFailsCleanly(
                args,
                tmp.resolve("t-big-ddl"),
                "DDL file "
                        + big
                        + ": Max query size exceeded: the DDL is 209715200 bytes, max_query_size"
                        + " is 262144 bytes");
    }

    @Test
    void deeplyNestedDdlIsRefusedNamingTheLimit() throws Exception {
        Path deepType = tmp.resolve("deep-type.sql");
        Files.writeString(
                deepType,
                "CREATE TABLE t (a "
                        + "Array(".repeat(30_000)
                        + "UInt64"
                        + ")".repeat(30_000)
                        + ") ENGINE = MergeTree ORDER BY tuple()");
        assertFailsCleanly(
                replace(
                        fx.ingestArgs(tmp.resolve("t-deep-type")),
                        "--table-ddl-file",
                        deepType.toString()),
                tmp.resolve("t-deep-type"),
                "AST is too deep. Maximum: 1000 (max_ast_depth)");
        Path deepExpr = tmp.resolve("deep-expr.sql");
        Files.writeString(
                deepExpr,
                "CREATE TABLE t (a Int64) ENGINE = MergeTree ORDER BY "
                        + "(".repeat(100_000)
                        + "a"
                        + ")".repeat(100_000));
        assertFailsCleanly(
                replace(
                        fx.ingestArgs(tmp.resolve("t-deep-expr")),
                        "--table-ddl-file",
                        deepExpr.toString()),
                tmp.resolve("t-deep-expr"),
                "Maximum parse depth (1000) exceeded (max_parser_depth)");
    }

    @Test
    void tableCreatedWithAnotherDdl() throws Exception {
        Path table = tmp.resolve("t-other-ddl");
        Path other = tmp.resolve("other.sql");
        Files.writeString(
                other,
                PostsGenerator.DDL.replace(
                        "ORDER BY (PostTypeId,", "ORDER BY (Score, PostTypeId,"));
        IngestFixture.Result first =
                IngestFixture.runInProcess(
                        replace(
                                fx.ingestArgs(table, "--checkpoint-interval", "1s"),
                                "--table-ddl-file",
                                other.toString()));
        assertThat(first.code()).as(first.err()).isZero();
        long rows = IngestFixture.tableRows(table);
        IngestFixture.Result r = IngestFixture.runInProcess(fx.ingestArgs(table));
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).contains("was created with a different DDL").doesNotContain("\tat ");
        assertThat(IngestFixture.tableRows(table)).isEqualTo(rows);
    }

    @Test
    void globThatMatchesNothing() {
        List<String> args =
                replace(
                        fx.ingestArgs(tmp.resolve("t-nothing")),
                        "--source",
                        "s3://" + IngestFixture.BUCKET + "/nope/*.parquet");
        assertFailsCleanly(
                args, tmp.resolve("t-nothing"), "no object matches s3://lake/nope/*.parquet");
    }

    @Test
    void wrongCredentials() {
        List<String> args =
                replace(fx.ingestArgs(tmp.resolve("t-creds")), "--s3-secret-key", "wrong");
        assertFailsCleanly(args, tmp.resolve("t-creds"), "cannot list s3://lake");
    }

    @Test
    void unreachableEndpoint() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> args =
                replace(
                        fx.ingestArgs(tmp.resolve("t-unreachable")),
                        "--s3-endpoint",
                        "http://127.0.0.1:" + port);
        assertFailsCleanly(
                args,
                tmp.resolve("t-unreachable"),
                "cannot list s3://lake via http://127.0.0.1:" + port);
    }

    @Test
    void unknownSettingIsNamed() {
        List<String> args =
                fx.ingestArgs(tmp.resolve("t-setting"), "--setting", "max_download_thread=4");
        assertFailsCleanly(args, tmp.resolve("t-setting"), "unknown setting 'max_download_thread'");
    }

    @Test
    void unknownFormatIsNamed() {
        List<String> args = replace(fx.ingestArgs(tmp.resolve("t-format")), "--format", "Avro");
        assertFailsCleanly(args, tmp.resolve("t-format"), "unknown format 'Avro'");
    }

    private static void assertFailsCleanly(List<String> args, Path table, String message) {
        IngestFixture.Result r = IngestFixture.runInProcess(args);
        assertThat(r.code()).as("stderr:\n%s", r.err()).isNotZero();
        assertThat(r.err())
                .contains(message)
                .doesNotContain("\tat ")
                .doesNotContain(IngestFixture.SECRET);
        assertThat(r.out()).isEmpty();
        assertThat(table).as("nothing is written to the table").doesNotExist();
        assertThat(table.resolve(TableKeys.METADATA_DIR)).doesNotExist();
    }

    private static List<String> replace(List<String> args, String option, String value) {
        List<String> a = new ArrayList<>(args);
        a.set(a.indexOf(option) + 1, value);
        return a;
    }
}
