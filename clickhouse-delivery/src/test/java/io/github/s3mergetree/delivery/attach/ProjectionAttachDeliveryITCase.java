package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import java.nio.file.Path;
import java.time.ZoneOffset;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table written with a normal and an aggregating projection delivered by ATTACH into ClickHouse
 * 26.7 (chDB behind its HTTP interface): every part is copied with its {@code <name>.proj}
 * sub-parts, attached, passes CHECK TABLE, and queries the server must answer from the projections
 * ({@code force_optimize_projection_name}) give the rows it computes without them.
 */
class ProjectionAttachDeliveryITCase {
    @TempDir static Path dir;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient client;

    @BeforeAll
    static void start() throws Exception {
        server = ChDbHttpServer.start(dir.resolve("chdb"));
        server.awaitUptimeAbove(2);
        client = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static String q(String sql) throws Exception {
        return client.query(Sql.of(sql)).strip();
    }

    @Test
    void partsAreDeliveredWithTheirProjectionsAndTheServerUsesThem() throws Exception {
        String ddl =
                "CREATE TABLE t (id UInt64, p UInt8, s UInt64, PROJECTION by_s (SELECT id, s"
                        + " ORDER BY s), PROJECTION totals (SELECT p, count(), sum(s) GROUP BY p))"
                        + " ENGINE = MergeTree ORDER BY id SETTINGS index_granularity = 256";
        Path at = dir.resolve("written");
        MergeTreeTable t = AttachDeliveries.localTable(at, ddl);
        for (int insert = 0; insert < 2; insert++) {
            RowBlockBuilder b =
                    new RowBlockBuilder(
                            "t",
                            t.layout().columnNames(),
                            t.layout().columnTypes(),
                            ZoneOffset.UTC);
            for (long i = 0; i < 5000; i++) {
                b.addRow(i + insert * 5000L, (int) (i % 3), (i * 7919) % 10007);
            }
            t.insert(b.build());
        }
        TableSchema schema = TableSchema.parse(ddl);
        TableName live = new TableName("default", "proj_live");
        q(schema.toCreateTableSql().replaceFirst("CREATE TABLE `?t`?", "CREATE TABLE proj_live"));
        AttachDelivery delivery = AttachDeliveries.delivery(at, schema, client, live);
        delivery.check();
        assertThat(delivery.deliverPending().rows()).isEqualTo(10_000);
        assertThat(q("CHECK TABLE proj_live SETTINGS check_query_single_value_result = 1"))
                .isEqualTo("1");
        assertThat(
                        q(
                                "SELECT count() FROM system.projection_parts WHERE table ="
                                        + " 'proj_live' AND active"))
                .isEqualTo("4");
        String[] queries = {
            "SELECT count(), sum(id) FROM proj_live WHERE s BETWEEN 100 AND 300 SETTINGS %s"
                    + " force_optimize_projection_name = 'by_s'",
            "SELECT p, count(), sum(s) FROM proj_live GROUP BY p ORDER BY p SETTINGS %s"
                    + " force_optimize_projection_name = 'totals'",
        };
        for (String query : queries) {
            String expected =
                    q(
                            String.format(query, "optimize_use_projections = 0,")
                                    .replaceFirst(", *force_optimize_projection_name = '\\w+'", "")
                                    .replace(",  ", " "));
            assertThat(q(String.format(query, "force_optimize_projection = 1,")))
                    .as(query)
                    .isEqualTo(expected)
                    .isNotEmpty();
        }
    }
}
