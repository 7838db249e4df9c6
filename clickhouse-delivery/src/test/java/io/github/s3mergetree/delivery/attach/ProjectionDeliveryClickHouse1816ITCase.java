package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written with projections delivered to a real ClickHouse 18.16 (ATTACH, portable profile):
 * 18.16 has no projections — it cannot declare them and it refuses a part whose {@code
 * checksums.txt} lists a {@code <name>.proj} sub-part — so {@code check()} refuses the delivery,
 * naming the server, its version and the projections, before anything is copied.
 */
class ProjectionDeliveryClickHouse1816ITCase {
    @TempDir static Path dir;
    private static ClickHouse1816 ch;
    private static ClickHouseHttpClient client;

    private static final String ENGINE = " ENGINE = MergeTree PARTITION BY p ORDER BY id";

    @BeforeAll
    static void start() {
        ch = ClickHouse1816.start(dir.resolve("ch1816"), true);
        client = AttachDeliveries.client(ch);
    }

    @AfterAll
    static void stop() {
        if (ch != null) {
            ch.close();
        }
    }

    @Test
    void aTableWithProjectionsIsRefusedFor1816BeforeAnythingIsCopied() throws Exception {
        String ddl =
                "CREATE TABLE t (id UInt64, p UInt8, s UInt64, PROJECTION by_s (SELECT id, s"
                        + " ORDER BY s), PROJECTION totals (SELECT p, count(), sum(s) GROUP BY p))"
                        + ENGINE
                        + " SETTINGS index_granularity_bytes = 0";
        Path at = dir.resolve("proj");
        MergeTreeTable t = AttachDeliveries.localTable(at, ddl);
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "t", t.layout().columnNames(), t.layout().columnTypes(), ZoneOffset.UTC);
        for (long i = 0; i < 300; i++) {
            b.addRow(i, (int) (i % 3), i * 10);
        }
        t.insert(b.build());
        // 18.16 cannot declare the table as written
        assertThatThrownBy(() -> ch.query(ddl.replace("TABLE t ", "TABLE proj_as_written ")))
                .hasMessageContaining("Syntax error");
        TableName live = new TableName("default", "proj_live");
        ch.query("CREATE TABLE " + live + " (id UInt64, p UInt8, s UInt64)" + ENGINE);
        AttachDelivery delivery =
                AttachDeliveries.delivery(at, TableSchema.parse(ddl), client, live);
        assertThatThrownBy(delivery::check)
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("ClickHouse 18.16")
                .hasMessageContaining("http://127.0.0.1:" + ch.httpPort())
                .hasMessageContaining("has no projections (they came in ClickHouse 21.6)")
                .hasMessageContaining("PROJECTION by_s, totals");
        Path detached = ch.tableDataPath(live.table()).resolve("detached");
        try (Stream<Path> files = Files.list(detached)) {
            assertThat(files).isEmpty();
        }
        // why: 18.16 refuses such a part itself
        String part = t.activeParts().get(0).name().toString();
        assertThat(at.resolve(part).resolve("by_s.proj").resolve("checksums.txt")).exists();
        Parts.copyRecursively(at.resolve(part), detached.resolve(part));
        assertThatThrownBy(() -> ch.query("ALTER TABLE " + live + " ATTACH PART '" + part + "'"))
                .hasMessageContaining("proj");
        assertThat(ch.query("SELECT count() FROM " + live)).isEqualTo("0");
    }
}
