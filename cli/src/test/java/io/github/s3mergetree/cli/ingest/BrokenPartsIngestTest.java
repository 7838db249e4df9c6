package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.cli.demo.PostsGenerator;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, item 5, end to end with the real command: parts of a table damaged on disk (one byte
 * flipped in a column's compressed data, in a mark file, in {@code primary.idx} and in {@code
 * checksums.txt}) do not block the next ingest. Its merges (and {@code --optimize-final}) find
 * them, move them to {@code detached/broken_<name>} with a part log record, and the new rows are
 * committed; chDB judges the rest of the table: exactly every source row but those of the detached
 * parts, and CHECK TABLE passes.
 */
class BrokenPartsIngestTest {
    @TempDir static Path tmp;
    static IngestFixture fx;
    private static final PostsGenerator GEN = new PostsGenerator(11);

    @BeforeAll
    static void setUp() throws Exception {
        fx = new IngestFixture(tmp);
    }

    @AfterAll
    static void tearDown() throws Exception {
        fx.close();
    }

    /** Writes {@code n} posts files of {@code rows} rows under {@code dir/} of the bucket. */
    private static List<Path> addFiles(String dir, int n, long firstId, long rows)
            throws Exception {
        List<Path> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path f =
                    fx.store
                            .resolve(IngestFixture.BUCKET)
                            .resolve(dir)
                            .resolve(String.format(Locale.ROOT, "f-%03d.parquet", i));
            Path staging = tmp.resolve("staging-" + dir + "-" + i + ".parquet");
            GEN.write(staging, firstId + i * rows, rows);
            Files.createDirectories(f.getParent());
            Files.move(staging, f);
            out.add(f);
        }
        return out;
    }

    private static List<String> args(Path table, String dir, String... extra) {
        List<String> a = new ArrayList<>(fx.ingestArgs(table, extra));
        a.set(a.indexOf("--source") + 1, "s3://" + IngestFixture.BUCKET + "/" + dir + "/*.parquet");
        return a;
    }

    private static void flipByte(Path f) throws Exception {
        byte[] b = Files.readAllBytes(f);
        b[b.length / 2] ^= 0x5A;
        Files.write(f, b);
    }

    private static Path fileOf(Path part, String which) throws Exception {
        try (Stream<Path> s = Files.list(part)) {
            return s.filter(
                            p -> {
                                String n = p.getFileName().toString();
                                return which.equals("marks")
                                        ? n.startsWith("Body.") && n.contains("mrk")
                                        : n.equals(which);
                            })
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no " + which + " in " + part));
        }
    }

    @Test
    void damagedPartsAreDetachedAndTheNextIngestCommitsItsRows() throws Exception {
        Path table = tmp.resolve("t");
        List<Path> files = new ArrayList<>(addFiles("first", 4, 1, 2500));
        // small blocks and commits: the first ingest leaves several parts per year
        IngestFixture.Result first =
                IngestFixture.runInProcess(
                        args(
                                table,
                                "first",
                                "--checkpoint-interval",
                                "1s",
                                "--setting",
                                "min_insert_block_size_rows=800"));
        assertThat(first.code()).as("stderr:\n%s", first.err()).isZero();
        MergeTreeTable t =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(
                                table.toAbsolutePath().toString()),
                        TableLayouts.fromDdl(PostsGenerator.DDL),
                        Clock.systemUTC());
        List<ActivePart> active = t.activeParts();
        assertThat(active).as("active parts after the first ingest").hasSizeGreaterThanOrEqualTo(4);

        // damage four parts, each in another file; keep intact copies for the judge
        String[] kinds = {"Body.bin", "marks", "primary.idx", "checksums.txt"};
        List<String> victims = new ArrayList<>();
        Path intact = tmp.resolve("intact");
        for (int k = 0; k < kinds.length; k++) {
            String name = active.get(k).name().toString();
            victims.add(name);
            Path part = table.resolve(name);
            copyTree(part, intact.resolve(name));
            flipByte(fileOf(part, kinds[k]));
        }

        files.addAll(addFiles("second", 2, 100_001, 2500));
        IngestFixture.Result second =
                IngestFixture.runInProcess(
                        args(table, "second", "--checkpoint-interval", "1s", "--optimize-final"));
        assertThat(second.code()).as("stderr:\n%s", second.err()).isZero();
        assertThat(second.field("rows")).isEqualTo(5000);

        for (String v : victims) {
            assertThat(table.resolve(v)).doesNotExist();
            assertThat(table.resolve("detached").resolve("broken_" + v)).isDirectory();
        }
        List<String> log =
                io.github.s3mergetree.engine.table.PartLog.of(
                                io.github.s3mergetree.engine.store.TableStore.local(
                                        table.toAbsolutePath().toString()))
                        .lines();
        for (String v : victims) {
            assertThat(log)
                    .anySatisfy(
                            l ->
                                    assertThat(l)
                                            .contains("\"event_type\":\"RemovePart\"")
                                            .contains("\"part_name\":\"" + v + "\"")
                                            .contains("detached as broken"));
        }
        // OPTIMIZE FINAL merged what is left: one part per year
        MergeTreeTable after =
                MergeTreeTable.open(
                        io.github.s3mergetree.engine.store.TableStore.local(
                                table.toAbsolutePath().toString()),
                        TableLayouts.fromDdl(PostsGenerator.DDL),
                        Clock.systemUTC());
        assertThat(after.activePartsByPartition().values())
                .allSatisfy(p -> assertThat(p).hasSize(1));

        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            ch.execute(PostsGenerator.DDL);
            ch.execute(PostsGenerator.DDL.replace("CREATE TABLE posts", "CREATE TABLE ref"));
            ch.execute(PostsGenerator.DDL.replace("CREATE TABLE posts", "CREATE TABLE lost"));
            for (ActivePart p : after.activeParts()) {
                ch.attachPart("posts", table.resolve(p.name().toString()));
            }
            ch.assertCheckTablePasses("posts");
            for (String v : victims) {
                ch.attachPart("lost", intact.resolve(v));
            }
            Path userFiles = ch.userFilesDir();
            Files.createDirectories(userFiles);
            int i = 0;
            for (Path f : files) {
                String name = "src-" + i++ + ".parquet";
                Files.copy(f, userFiles.resolve(name));
                ch.execute("INSERT INTO ref SELECT * FROM file('" + name + "', Parquet)");
            }
            long lost = ch.queryLong("SELECT count() FROM lost");
            assertThat(lost).isPositive();
            assertThat(ch.queryLong("SELECT count() FROM ref")).isEqualTo(15000);
            assertThat(ch.queryLong("SELECT count() FROM posts")).isEqualTo(15000 - lost);
            assertThat(ch.query("SELECT " + RowsHash.ALL_COLUMNS + " FROM posts"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.ALL_COLUMNS
                                            + " FROM ref"
                                            + " WHERE Id NOT IN (SELECT Id FROM lost)"));
            // every row of the second ingest is there
            assertThat(ch.queryLong("SELECT count() FROM posts WHERE Id > 100000")).isEqualTo(5000);
        }
    }

    private static void copyTree(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (Stream<Path> s = Files.list(from)) {
            for (Path f : s.toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
    }
}
