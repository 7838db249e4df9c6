package io.github.s3mergetree.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.cli.testing.CommandRun;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code s3-mergetree demo} in-process and checks its table with our reader and chDB. */
class DemoCommandTest {
    @TempDir Path tmp;

    /**
     * {@code demo} of 4 files of 2,000 rows in 2 parallel readers under {@code tmp/work}, with
     * {@code extra}; it succeeded (or the test fails with its stderr).
     */
    private CommandRun demo(String... extra) {
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "demo",
                                "--rows",
                                "2000",
                                "--files",
                                "4",
                                "--parallelism",
                                "2",
                                "--work-dir",
                                tmp.resolve("work").toString()));
        args.addAll(List.of(extra));
        CommandRun run = CommandRun.of(args);
        assertThat(run.code()).as("exit code; stderr:\n%s", run.err()).isZero();
        return run;
    }

    @Test
    void demoWritesPartsThatClickHouseAttaches() throws Exception {
        Path work = tmp.resolve("work");
        CommandRun run = demo();
        String stdout = run.out();

        String json = run.lastLine();
        assertThat(json).startsWith("{\"rows\":8000,");
        long activeParts = run.field("active_parts");
        assertThat(activeParts).isGreaterThanOrEqualTo(1);
        assertThat(run.field("parts_written")).isGreaterThanOrEqualTo(activeParts);
        assertThat(stdout)
                .contains("CREATE TABLE posts (")
                .contains("ALTER TABLE posts ATTACH PART '");

        Path tableDir = work.resolve("table");
        MergeTreeTable table =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(tableDir.toString()),
                        TableLayouts.fromDdl(PostsGenerator.DDL),
                        Clock.systemUTC());
        List<ActivePart> parts = table.activeParts();
        assertThat((long) parts.size()).isEqualTo(activeParts);
        long rows = 0;
        for (ActivePart p : parts) {
            PartReader r = PartReader.open(table.store(), p.name().toString());
            r.verify();
            rows += r.rows();
        }
        assertThat(rows).isEqualTo(8000);

        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            ch.execute(PostsGenerator.DDL);
            for (ActivePart p : parts) {
                ch.attachPart("posts", tableDir.resolve(p.name().toString()));
            }
            ch.assertCheckTablePasses("posts");
            assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(8000);
            assertThat(ch.queryLong("SELECT uniqExact(Id) FROM posts")).isEqualTo(8000);
            assertThat(ch.queryLong("SELECT countIf(PostTypeId = 'Question') FROM posts"))
                    .isBetween(3000L, 5000L);
            assertThat(ch.queryLong("SELECT min(toYear(CreationDate)) FROM posts")).isEqualTo(2008);
            assertThat(ch.queryLong("SELECT max(toYear(CreationDate)) FROM posts")).isEqualTo(2009);
        }
    }

    @Test
    void badUsageFailsWithOneLine() {
        CommandRun run = CommandRun.of("demo", "--rows", "x");
        assertThat(run.code()).isNotZero();
        assertThat(run.err()).contains("--rows must be a positive integer").doesNotContain("\tat ");
    }

    @Test
    void demoWritesAnS3TableThatClickHouseAttachesInPlace() throws Exception {
        Path work = tmp.resolve("work");
        CommandRun run = demo("--table-path", "s3://lake/tables/posts");
        String stdout = run.out();
        assertThat(stdout).doesNotContain("ALTER TABLE posts ATTACH PART");
        assertThat(work.resolve("table")).doesNotExist();
        // the table's objects are in the embedded server's store
        assertThat(work.resolve("s3/lake/tables/posts/format_version.txt")).isRegularFile();
        Matcher attach = Pattern.compile("(?s)(ATTACH TABLE .*?);\n").matcher(stdout);
        assertThat(attach.find()).as(stdout).isTrue();
        Matcher port = Pattern.compile("s3-server --root (\\S+) --port (\\d+)").matcher(stdout);
        assertThat(port.find()).as(stdout).isTrue();
        assertThat(attach.group(1))
                .contains("table_disk = 1")
                .contains("type = s3_plain")
                .contains("/lake/tables/posts/");
        assertThat(run.lastLine()).startsWith("{\"rows\":8000,");

        // served again as the printed command says, ClickHouse reads the table in place
        try (LocalS3Server server =
                        LocalS3Server.start(
                                Path.of(port.group(1)),
                                Integer.parseInt(port.group(2)),
                                DemoCommand.ACCESS_KEY,
                                DemoCommand.SECRET_KEY);
                ChDb ch = ChDb.start(tmp.resolve("chdb-s3"))) {
            ch.execute(attach.group(1));
            ch.assertCheckTablePasses("posts");
            assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(8000);
            assertThat(ch.queryLong("SELECT uniqExact(Id) FROM posts")).isEqualTo(8000);
        }
    }

    @Test
    void demoRefusesATablePathOtherThanS3() {
        CommandRun run = CommandRun.of("demo", "--table-path", "/tmp/x");
        assertThat(run.code()).isNotZero();
        assertThat(run.err())
                .contains("demo --table-path takes s3://bucket/prefix")
                .contains("'/tmp/x'");
    }
}
