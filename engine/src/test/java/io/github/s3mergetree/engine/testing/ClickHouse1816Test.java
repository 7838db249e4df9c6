package io.github.s3mergetree.engine.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.s3mergetree.engine.testing.ClickHouse1816.ClickHouse1816Exception;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves the {@link ClickHouse1816} harness: start, query, data paths, part copy + attach, stop.
 */
class ClickHouse1816Test {
    @TempDir Path tmp;

    @Test
    void startsQueriesAttachesACopiedPartAndStops() throws Exception {
        ClickHouse1816 ch = ClickHouse1816.start(tmp.resolve("ch"));
        long pid;
        int port;
        try (ch) {
            port = ch.port();
            pid = ch.pid();
            assertThat(ch.version()).startsWith("18.16");
            assertThat(ch.query("SELECT timezone()")).isIn("UTC", "Etc/UTC");
            assertThat(ch.queryLong("SELECT 6 * 7")).isEqualTo(42);

            String columns = "(d Date, id UInt64, s String)";
            String engine = " ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY id";
            ch.execute("CREATE TABLE src " + columns + engine);
            ch.execute("CREATE TABLE dst " + columns + engine);
            ch.execute(
                    "INSERT INTO src SELECT toDate('2024-01-01') + number % 50, number,"
                            + " concat('s', toString(number)) FROM system.numbers LIMIT 30000");
            ch.query(
                    "INSERT INTO src FORMAT TabSeparated",
                    "2024-02-29\t30000\ttab\\there\n2024-01-31\t30001\t\n"
                            .getBytes(StandardCharsets.UTF_8));
            assertThat(ch.queryLong("SELECT count() FROM src")).isEqualTo(30002);
            assertThat(ch.query("SELECT s FROM src WHERE id = 30000 FORMAT TabSeparatedRaw"))
                    .isEqualTo("tab\there");

            Path srcPath = ch.tableDataPath("src");
            assertThat(srcPath).isEqualTo(ch.dataDir().resolve("data/default/src"));
            assertThat(ch.tableDataPath("default.dst"))
                    .isEqualTo(ch.dataDir().resolve("data/default/dst"));
            assertThatThrownBy(() -> ch.tableDataPath("nope"))
                    .isInstanceOf(IllegalArgumentException.class);

            // 18.16 has no DETACH PART: detach the January partition (one part per insert).
            List<String> january =
                    List.of(
                            ch.query(
                                            "SELECT name FROM system.parts WHERE table = 'src'"
                                                    + " AND active AND partition_id = '202401'"
                                                    + " ORDER BY name")
                                    .split("\n"));
            long janRows = ch.queryLong("SELECT count() FROM src WHERE toYYYYMM(d) = 202401");
            String janHash =
                    ch.query(
                            "SELECT "
                                    + RowsHash.of("d, id, s")
                                    + " FROM src WHERE toYYYYMM(d) = 202401");
            ch.execute("ALTER TABLE src DETACH PARTITION 202401");
            assertThat(ch.queryLong("SELECT count() FROM src WHERE toYYYYMM(d) = 202401")).isZero();
            for (String part : january) {
                Path detached = srcPath.resolve("detached").resolve(part);
                assertThat(detached.resolve("id.mrk")).isRegularFile();
                assertThat(detached.resolve("primary.idx")).isRegularFile();
                ch.attachPart("dst", detached);
            }
            assertThat(ch.queryLong("SELECT count() FROM dst")).isEqualTo(janRows).isPositive();
            assertThat(ch.query("SELECT " + RowsHash.of("d, id, s") + " FROM dst"))
                    .isEqualTo(janHash);
            // attached parts got fresh block numbers in dst
            assertThat(
                            ch.query(
                                    "SELECT groupUniqArray(partition_id) FROM system.parts"
                                            + " WHERE table = 'dst' AND active"))
                    .isEqualTo("['202401']");

            // 18.16 renames an attached part to a fresh block number but keeps its level
            ch.execute("CREATE TABLE lvl " + columns + engine);
            Path renamed = tmp.resolve("202401_7_9_3");
            io.github.s3mergetree.engine.part.Parts.copyRecursively(
                    srcPath.resolve("detached").resolve(january.get(0)), renamed);
            ch.attachPart("lvl", renamed);
            assertThat(ch.query("SELECT name FROM system.parts WHERE table = 'lvl' AND active"))
                    .isEqualTo("202401_1_1_3");

            // and attach back into src: both tables again hold the same January rows
            for (String part : january) {
                ch.execute("ALTER TABLE src ATTACH PART '" + part + "'");
            }
            assertThat(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.of("d, id, s")
                                            + " FROM src WHERE toYYYYMM(d) ="
                                            + " 202401"))
                    .isEqualTo(ch.query("SELECT " + RowsHash.of("d, id, s") + " FROM dst"));
            assertThat(ch.queryLong("SELECT count() FROM src")).isEqualTo(30002);

            ClickHouse1816Exception e =
                    assertThrows(
                            ClickHouse1816Exception.class,
                            () -> ch.query("SELECT * FROM no_such_table"));
            assertThat(e.code()).isEqualTo(60);
            assertThat(e.stderr()).contains("no_such_table");
            assertThatThrownBy(() -> ch.attachPart("dst", tmp.resolve("missing")))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        // closed: the server process is gone and the port is free
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        try (Socket s = new Socket()) {
            assertThatThrownBy(
                            () ->
                                    s.connect(
                                            new InetSocketAddress(
                                                    InetAddress.getLoopbackAddress(), port),
                                            500))
                    .isInstanceOf(IOException.class);
        }
        assertThatThrownBy(() -> ch.query("SELECT 1")).isInstanceOf(IllegalStateException.class);
        ch.close(); // idempotent
        assertThat(Files.readString(tmp.resolve("ch/config.xml")))
                .contains("<listen_host>127.0.0.1</listen_host>")
                .doesNotContain("http_port");
    }
}
