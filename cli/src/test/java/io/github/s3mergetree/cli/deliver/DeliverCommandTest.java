package io.github.s3mergetree.cli.deliver;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.testing.CommandRun;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree deliver --deliver attach} into a real ClickHouse 18.16 process (HTTP on
 * 127.0.0.1), checked with clickhouse-client: parts of a table written by the engine land once; a
 * rerun sends nothing; a bad target is one line and exit code 1 before anything is sent.
 */
class DeliverCommandTest {
    private static final String DDL =
            "CREATE TABLE t (id UInt64, p UInt8, s String) ENGINE = MergeTree PARTITION BY p ORDER BY id SETTINGS index_granularity_bytes = 0";

    @TempDir static Path dir;
    private static ClickHouse1816 ch;

    @BeforeAll
    static void start() {
        ch = ClickHouse1816.start(dir.resolve("ch"), true);
    }

    @AfterAll
    static void stop() {
        if (ch != null) {
            ch.close();
        }
    }

    /** A table of {@link #DDL} written by the engine under {@code dir/name}. */
    private static MergeTreeTable table(String name) throws IOException {
        return MergeTreeTable.open(
                io.github.s3mergetree.engine.store.TableStore.local(
                        dir.resolve(name).toAbsolutePath().toString()),
                TableLayouts.fromDdl(DDL),
                Clock.systemUTC());
    }

    /**
     * {@code deliver} of table {@code name} into {@code target} of the server, with {@code extra}.
     */
    private static CommandRun deliver(String name, String target, String... extra) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "deliver",
                                "--table-path",
                                dir.resolve(name).toString(),
                                "--clickhouse-url",
                                "http://127.0.0.1:" + ch.httpPort(),
                                "--clickhouse-table",
                                target));
        args.addAll(List.of(extra));
        return CommandRun.of(args);
    }

    private static void insert(MergeTreeTable table, long from, int n) throws Exception {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "t",
                        table.layout().columnNames(),
                        table.layout().columnTypes(),
                        ZoneOffset.UTC);
        for (long i = from; i < from + n; i++) {
            b.addRow(i, (int) (i % 3), "v" + i);
        }
        table.insert(b.build());
    }

    @Test
    void deliversATableWrittenEarlierOnceIntoClickHouse1816() throws Exception {
        MergeTreeTable table = table("posts");
        insert(table, 0, 10_000);
        insert(table, 10_000, 2_000);
        ch.query(
                "CREATE TABLE live (id UInt64, p UInt8, s String) ENGINE = MergeTree PARTITION BY p ORDER BY id");
        ch.query("INSERT INTO live VALUES (99999999, 0, 'earlier')");
        CommandRun first = deliver("posts", "default.live");
        assertThat(first.code()).as(first.err()).isZero();
        assertThat(first.out().trim()).startsWith("{\"deliveries\":1,\"parts\":6,\"rows\":12000,");
        assertThat(ch.query("SELECT count(), uniqExact(id), sum(id) FROM live"))
                .isEqualTo("12001\t12001\t" + (99999999L + 11999L * 12000 / 2));
        CommandRun again = deliver("posts", "default.live");
        assertThat(again.code()).as(again.err()).isZero();
        assertThat(again.out().trim()).startsWith("{\"deliveries\":0,\"parts\":0,\"rows\":0,");
        insert(table, 12_000, 5);
        CommandRun more = deliver("posts", "default.live");
        assertThat(more.out().trim()).startsWith("{\"deliveries\":1,\"parts\":3,\"rows\":5,");
        assertThat(ch.query("SELECT count() FROM live")).isEqualTo("12006");
    }

    @Test
    void badTargetsAreOneLineBeforeAnythingIsSent() throws Exception {
        insert(table("other"), 0, 10);
        CommandRun missing = deliver("other", "default.nope");
        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.err().lines().findFirst().orElseThrow())
                .contains("default.nope does not exist")
                .contains("create it first");
        ch.query(
                "CREATE TABLE wrong (id UInt64, p UInt8, s String) ENGINE = MergeTree PARTITION BY p ORDER BY (p, id)");
        CommandRun wrong = deliver("other", "default.wrong");
        assertThat(wrong.code()).isEqualTo(1);
        assertThat(wrong.err())
                .contains("ORDER BY is id in the written table but (p, id) on the server");
        assertThat(ch.query("SELECT count() FROM wrong")).isEqualTo("0");
        CommandRun password =
                deliver(
                        "other",
                        "default.wrong",
                        "--clickhouse-user",
                        "nobody",
                        "--clickhouse-password",
                        "pw-not-shown");
        assertThat(password.code()).isEqualTo(1);
        assertThat(password.err()).contains("--clickhouse-user").doesNotContain("pw-not-shown");
        CommandRun restoreLocal = deliver("other", "default.wrong", "--deliver", "restore");
        assertThat(restoreLocal.code()).isEqualTo(2);
        assertThat(restoreLocal.err()).contains("needs the table on S3");
    }

    /**
     * {@code --table-path} is parsed as the sink parses a table path ({@code TableLocation}): what
     * it cannot open is a usage error naming the value, before any server is asked.
     */
    @Test
    void aTablePathTheSinkCannotOpenIsAUsageErrorNamingIt() {
        CommandRun otherScheme =
                CommandRun.of(
                        "deliver",
                        "--table-path",
                        "hdfs://nn/tables/t",
                        "--clickhouse-url",
                        "http://127.0.0.1:1",
                        "--clickhouse-table",
                        "default.t");
        assertThat(otherScheme.code()).isEqualTo(2);
        assertThat(otherScheme.err())
                .contains("--table-path: unsupported table path 'hdfs://nn/tables/t'");
        CommandRun badBucket =
                CommandRun.of(
                        "deliver",
                        "--table-path",
                        "s3://Bad_Bucket/tables/t",
                        "--clickhouse-url",
                        "http://127.0.0.1:1",
                        "--clickhouse-table",
                        "default.t",
                        "--s3-access-key",
                        "k",
                        "--s3-secret-key",
                        "secret-not-shown");
        assertThat(badBucket.code()).isEqualTo(2);
        assertThat(badBucket.err())
                .contains("invalid bucket 'Bad_Bucket'")
                .doesNotContain("secret-not-shown");
    }
}
