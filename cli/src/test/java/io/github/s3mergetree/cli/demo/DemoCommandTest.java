package io.github.s3mergetree.cli.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.S3MergeTreeCommand;
import io.github.s3mergetree.cli.s3server.LocalS3Server;
import io.github.s3mergetree.engine.part.PartReader;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code s3-mergetree demo} in-process and checks its table with our reader and chDB. */
class DemoCommandTest {
    @TempDir Path tmp;

    @Test
    void demoWritesPartsThatClickHouseAttaches() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path work = tmp.resolve("work");
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(
                                new String[] {
                                    "demo",
                                    "--rows",
                                    "2000",
                                    "--files",
                                    "4",
                                    "--parallelism",
                                    "2",
                                    "--work-dir",
                                    work.toString()
                                });
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; stderr:\n%s", stderr).isZero();

        String[] lines = stdout.strip().split("\n");
        String json = lines[lines.length - 1];
        assertThat(json).startsWith("{\"rows\":8000,");
        long activeParts = field(json, "active_parts");
        assertThat(activeParts).isGreaterThanOrEqualTo(1);
        assertThat(field(json, "parts_written")).isGreaterThanOrEqualTo(activeParts);
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
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(
                                        new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(new String[] {"demo", "--rows", "x"});
        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("--rows must be a positive integer")
                .doesNotContain("\tat ");
    }

    @Test
    void demoWritesAnS3TableThatClickHouseAttachesInPlace() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path work = tmp.resolve("work");
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(out, true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(
                                new String[] {
                                    "demo",
                                    "--rows",
                                    "2000",
                                    "--files",
                                    "4",
                                    "--parallelism",
                                    "2",
                                    "--work-dir",
                                    work.toString(),
                                    "--table-path",
                                    "s3://lake/tables/posts"
                                });
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as("exit code; stderr:\n%s", stderr).isZero();
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
        String[] lines = stdout.strip().split("\n");
        assertThat(lines[lines.length - 1]).startsWith("{\"rows\":8000,");

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
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code =
                new S3MergeTreeCommand(
                                new PrintStream(
                                        new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                                new PrintStream(err, true, StandardCharsets.UTF_8))
                        .run(new String[] {"demo", "--table-path", "/tmp/x"});
        assertThat(code).isNotZero();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("demo --table-path takes s3://bucket/prefix")
                .contains("'/tmp/x'");
    }

    private static long field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":(\\d+)").matcher(json);
        assertThat(m.find()).as("%s in %s", name, json).isTrue();
        return Long.parseLong(m.group(1));
    }
}
