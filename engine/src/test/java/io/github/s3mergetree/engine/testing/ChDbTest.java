package io.github.s3mergetree.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the {@link ChDb} harness against the real engine (chDB, ClickHouse 26.x): queries and
 * errors, detaching a part and attaching a copy of it elsewhere, RowBinary exchange through files,
 * request timeouts, and that closing leaves no process behind.
 */
class ChDbTest {

    @ChDbSession static ChDb chdb;

    @BeforeAll
    static void startChDb() {
        System.out.println("chDB " + chdb.version() + " started in " + chdb.startupTime());
    }

    @Test
    void runsClickHouse26() {
        assertThat(chdb.version()).startsWith("26.");
        assertThat(chdb.query("SELECT version()")).isEqualTo(chdb.version());
        assertThat(chdb.query("SELECT 1 AS x", "JSONEachRow")).isEqualTo("{\"x\":1}\n");
    }

    @Test
    void createsInsertsAndCounts() {
        chdb.execute("CREATE TABLE counted (a UInt32, s String) ENGINE = MergeTree ORDER BY a");
        chdb.execute("INSERT INTO counted SELECT number, toString(number) FROM numbers(1000)");
        chdb.execute("INSERT INTO counted VALUES (7, 'seven')");

        assertThat(chdb.queryLong("SELECT count() FROM counted")).isEqualTo(1001);
        assertThat(chdb.queryLong("SELECT sum(a) FROM counted")).isEqualTo(999 * 1000 / 2 + 7);
        assertThat(chdb.tableDataPath("counted")).isDirectory().startsWith(chdb.sessionDir());
        chdb.assertCheckTablePasses("counted");
    }

    @Test
    void rowsAreSplitAndUnescaped() {
        List<String[]> rows =
                chdb.rows(
                        "SELECT 'a\\tb\\nc', NULL, [1, 2], '' UNION ALL SELECT 'x', 'y', [], 'z'");

        assertThat(rows)
                .hasSize(2)
                .anySatisfy(r -> assertThat(r).containsExactly("a\tb\nc", null, "[1,2]", ""))
                .anySatisfy(r -> assertThat(r).containsExactly("x", "y", "[]", "z"));
        assertThat(chdb.rows("SELECT 1 WHERE 0")).isEmpty();
        assertThat(chdb.rows("SELECT ''")).hasSize(1).first().isEqualTo(new String[] {""});
    }

    @Test
    void badQueryRaisesClickHousesError() {
        assertThatThrownBy(() -> chdb.query("SELECT * FROM no_such_table"))
                .isInstanceOfSatisfying(
                        ChDbException.class,
                        e -> {
                            assertThat(e.code()).isEqualTo(60);
                            assertThat(e.clickHouseMessage()).contains("UNKNOWN_TABLE");
                            assertThat(e.sql()).isEqualTo("SELECT * FROM no_such_table");
                            assertThat(e.getMessage()).contains("no_such_table", "Code: 60");
                        });
        assertThatThrownBy(() -> chdb.execute("SELEKT 1"))
                .isInstanceOf(ChDbException.class)
                .hasMessageContaining("SYNTAX_ERROR");
        // the engine is still usable afterwards
        assertThat(chdb.queryLong("SELECT 41 + 1")).isEqualTo(42);
    }

    @Test
    void detachedPartAttachesToAnotherTable(@TempDir Path elsewhere) throws IOException {
        String ddl = " (a UInt32, s String) ENGINE = MergeTree ORDER BY a";
        chdb.execute("CREATE TABLE source" + ddl);
        chdb.execute("CREATE TABLE target" + ddl);
        chdb.execute("INSERT INTO source SELECT number, repeat('x', number % 7) FROM numbers(500)");
        long sum = chdb.queryLong("SELECT sum(a + length(s)) FROM source");
        chdb.execute("ALTER TABLE source DETACH PART 'all_1_1_0'");
        assertThat(chdb.queryLong("SELECT count() FROM source")).isZero();

        Path detached = chdb.tableDataPath("source").resolve("detached/all_1_1_0");
        assertThat(detached.resolve("checksums.txt")).isRegularFile();
        Path copy = elsewhere.resolve("all_1_1_0");
        io.github.s3mergetree.engine.part.Parts.copyRecursively(detached, copy);

        chdb.attachPart("target", copy);

        chdb.assertCheckTablePasses("target");
        assertThat(chdb.checkTable("target")).startsWith("part_path\tis_passed\tmessage\n");
        assertThat(chdb.queryLong("SELECT count() FROM target")).isEqualTo(500);
        assertThat(chdb.queryLong("SELECT sum(a + length(s)) FROM target")).isEqualTo(sum);
        assertThat(chdb.query("SELECT name FROM system.parts WHERE table = 'target' AND active"))
                .isEqualTo("all_1_1_0");
    }

    @Test
    void corruptPartFailsTheCheck(@TempDir Path elsewhere) throws IOException {
        String ddl = " (a UInt32, s String) ENGINE = MergeTree ORDER BY a";
        chdb.execute("CREATE TABLE healthy" + ddl);
        chdb.execute("CREATE TABLE corrupt" + ddl);
        chdb.execute("INSERT INTO healthy SELECT number, toString(number) FROM numbers(100)");
        chdb.execute("ALTER TABLE healthy DETACH PART 'all_1_1_0'");
        Path copy = elsewhere.resolve("all_1_1_0");
        io.github.s3mergetree.engine.part.Parts.copyRecursively(
                chdb.tableDataPath("healthy").resolve("detached/all_1_1_0"), copy);
        byte[] data = Files.readAllBytes(copy.resolve("data.bin"));
        data[data.length - 1] ^= (byte) 0xff;
        Files.write(copy.resolve("data.bin"), data);

        // ATTACH PART does not read the data files; CHECK TABLE does
        chdb.attachPart("corrupt", copy);

        assertThatThrownBy(() -> chdb.assertCheckTablePasses("corrupt"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("all_1_1_0\t0\t")
                .hasMessageContaining("CHECKSUM_DOESNT_MATCH");
    }

    @Test
    void checkOfATableWithoutPartsFails() {
        chdb.execute("CREATE TABLE empty (a UInt32) ENGINE = MergeTree ORDER BY a");
        assertThatThrownBy(() -> chdb.assertCheckTablePasses("empty"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no part");
    }

    @Test
    void rowBinaryRoundTripThroughFiles(@TempDir Path outside) throws IOException {
        chdb.execute("CREATE TABLE rb1 (a UInt32, s String) ENGINE = MergeTree ORDER BY a");
        chdb.execute("CREATE TABLE rb2 (a UInt32, s String) ENGINE = MergeTree ORDER BY a");
        chdb.execute("INSERT INTO rb1 VALUES (1, 'one'), (2, 'two'), (300000, 'é\\t\\n')");

        // an absolute path outside the session directory
        Path bin = outside.resolve("rows.bin");
        chdb.execute(
                "SELECT * FROM rb1 ORDER BY a INTO OUTFILE "
                        + ChDb.quoteString(bin.toString())
                        + " FORMAT RowBinary");
        // RowBinary: UInt32 little-endian, then a LEB128 length and the bytes of the String
        byte[] bytes = Files.readAllBytes(bin);
        assertThat(bytes).startsWith(1, 0, 0, 0, 3, 'o', 'n', 'e');
        chdb.execute(
                "INSERT INTO rb2 SELECT * FROM file("
                        + ChDb.quoteString(bin.toString())
                        + ", RowBinary, 'a UInt32, s String')");
        assertThat(chdb.query("SELECT * FROM rb2 ORDER BY a", "TSV"))
                .isEqualTo(chdb.query("SELECT * FROM rb1 ORDER BY a", "TSV"))
                .contains("300000\té\\t\\n");

        // a relative path means userFilesDir()
        chdb.execute("SELECT * FROM rb1 ORDER BY a INTO OUTFILE 'rel.bin' FORMAT RowBinary");
        assertThat(Files.readAllBytes(chdb.userFilesDir().resolve("rel.bin"))).isEqualTo(bytes);
        String relative = "SELECT count() FROM file('rel.bin', RowBinary, 'a UInt32, s String')";
        assertThat(chdb.queryLong(relative)).isEqualTo(3);

        // data written by Java is read back by ClickHouse
        Files.write(outside.resolve("java.bin"), new byte[] {5, 0, 0, 0, 2, 'h', 'i'});
        assertThat(
                        chdb.query(
                                "SELECT a, s FROM file("
                                        + ChDb.quoteString(outside.resolve("java.bin").toString())
                                        + ", RowBinary, 'a UInt32, s String')"))
                .isEqualTo("5\thi");
    }

    @Test
    void fileOrderSettingsReadAFileInOneStreamFromSourceToSink(@TempDir Path outside) {
        String csv = ChDb.quoteString(outside.resolve("ordered.csv").toString());
        chdb.execute(
                "INSERT INTO FUNCTION file("
                        + csv
                        + ", CSV, 'id UInt64') SELECT number FROM numbers(1000)");
        String copy =
                "EXPLAIN PIPELINE INSERT INTO FUNCTION file("
                        + ChDb.quoteString(outside.resolve("copy.bin").toString())
                        + ", RowBinary, 'id UInt64') SELECT * FROM file("
                        + csv
                        + ", CSV, 'id UInt64') SETTINGS ";

        // by default the chunks read are spread over max_threads streams: their order is lost
        assertThat(streamsAfterTheSource(chdb.query(copy + "max_threads = 2", "TSVRaw")))
                .isEqualTo(2);
        assertThat(streamsAfterTheSource(chdb.query(copy + ChDb.FILE_ORDER_SETTINGS, "TSVRaw")))
                .as("one chain of processors, so the sink receives the rows in file order")
                .isEqualTo(1);
    }

    @Test
    void readFileAsRowBinaryReturnsTheRowsInFileOrderOrRefuses(@TempDir Path outside)
            throws IOException {
        // a text file parsed in many chunks, not sorted, under a name that needs quoting
        int n = 200_000;
        StringBuilder csv = new StringBuilder();
        ByteBuffer expected = ByteBuffer.allocate(n * 10).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i++) {
            long id = (i * 7919L) % n;
            csv.append(id).append(",x\n");
            expected.putLong(id).put((byte) 1).put((byte) 'x'); // UInt64, String "x"
        }
        Path file = outside.resolve("it's.csv");
        Files.writeString(file, csv);
        for (int run = 0; run < 3; run++) {
            byte[] rows =
                    chdb.readFileAsRowBinary(
                            file, "CSV", "id UInt64, s String", ", max_block_size = 1000");
            assertThat(Arrays.mismatch(rows, expected.array()))
                    .as("run %s: the first byte that differs from the file's rows in order", run)
                    .isEqualTo(-1);
        }

        Path empty = Files.writeString(outside.resolve("empty.csv"), "");
        assertThat(chdb.readFileAsRowBinary(empty, "CSV", "id UInt64", "")).isEmpty();
        assertThatThrownBy(() -> chdb.readFileAsRowBinary(file, "CSV", "id UInt64, s Date", ""))
                .isInstanceOf(ChDbException.class)
                .hasMessageContaining("it\\'s.csv");
        try (Stream<Path> left = Files.list(chdb.sessionDir())) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("outputs are removed after reading")
                    .noneMatch(name -> name.startsWith("file-order-"));
        }
    }

    /** The widest fan-out of an EXPLAIN PIPELINE digraph: the most edges leaving one processor. */
    private static long streamsAfterTheSource(String digraph) {
        return digraph
                .lines()
                .filter(l -> l.contains("->"))
                .collect(Collectors.groupingBy(l -> l.trim().split(" ")[0], Collectors.counting()))
                .values()
                .stream()
                .mapToLong(Long::longValue)
                .max()
                .orElseThrow();
    }

    @Test
    void sessionPersistsAndCloseLeavesNoProcess(@TempDir Path dir) {
        Set<Long> before = childPids();
        try (ChDb first = ChDb.start(dir)) {
            first.execute("CREATE TABLE kept (a UInt8) ENGINE = MergeTree ORDER BY a");
            first.execute("INSERT INTO kept VALUES (1), (2), (3)");
            assertThat(childPids()).hasSizeGreaterThan(before.size());
        }
        assertThat(childPids()).isEqualTo(before);

        try (ChDb second = ChDb.start(dir)) {
            assertThat(second.queryLong("SELECT sum(a) FROM kept")).isEqualTo(6);
        }
        assertThat(childPids()).isEqualTo(before);
    }

    @Test
    void hungRequestTimesOutAndKillsTheEngine(@TempDir Path dir) {
        Set<Long> before = childPids();
        // the timeout also bounds the start (SELECT version()): long enough for a busy machine,
        // far below the 20 s the query needs
        ChDb slow = ChDb.start(dir, Duration.ofSeconds(8));
        try {
            long t0 = System.nanoTime();
            assertThatThrownBy(
                            () ->
                                    slow.query(
                                            "SELECT sleepEachRow(0.5) FROM numbers(40)"
                                                    + " SETTINGS max_block_size = 1"))
                    .isInstanceOf(ChDbException.class)
                    .hasMessageContaining("no answer from chDB within");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(18));
            assertThatThrownBy(() -> slow.query("SELECT 1"))
                    .isInstanceOf(ChDbException.class)
                    .hasMessageContaining("unusable");
        } finally {
            slow.close();
        }
        assertThat(childPids()).isEqualTo(before);
    }

    @Test
    void missingInstallationFailsWithAHint(@TempDir Path empty) {
        String saved = System.getProperty("chdb.dir");
        System.setProperty("chdb.dir", empty.toString());
        try {
            assertThatThrownBy(() -> ChDb.start(empty.resolve("session")))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("tools/install-test-engines.sh");
        } finally {
            if (saved == null) {
                System.clearProperty("chdb.dir");
            } else {
                System.setProperty("chdb.dir", saved);
            }
        }
    }

    private static Set<Long> childPids() {
        return ProcessHandle.current()
                .descendants()
                .filter(ProcessHandle::isAlive)
                .map(ProcessHandle::pid)
                .collect(Collectors.toSet());
    }
}
