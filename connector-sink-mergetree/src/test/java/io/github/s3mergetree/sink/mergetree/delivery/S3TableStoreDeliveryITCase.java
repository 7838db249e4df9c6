package io.github.s3mergetree.sink.mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TableLayouts;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Delivery of an {@code s3://} table (S3Proxy 2.9.0 on loopback) reads the table through the
 * engine's {@code TableStore} that the table path and the sink's S3 settings open ({@link
 * TableLocation#parse}, as the sink's writers open it): the engine writes the table on S3, {@link
 * DeliveryCoordinator#open} delivers it by RESTORE into a live ClickHouse 26.x table (chDB behind
 * its HTTP interface) that already has rows, and the server's count and RowsHash equal ClickHouse's
 * own rows. With a wrong secret in those same settings delivery cannot read the table (it has no
 * client of its own), fails with a message naming the table and not the secret, and delivers
 * nothing.
 */
class S3TableStoreDeliveryITCase {
    private static final String BUCKET = "bkt";
    private static final String DDL =
            "CREATE TABLE t " + WrittenTable.COLUMNS + " " + WrittenTable.ENGINE;

    @TempDir static Path tmp;
    private static S3ProxyServer s3;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient ch;

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3ProxyServer(tmp.resolve("s3"));
        s3.createBucket(BUCKET);
        server = ChDbHttpServer.start(tmp.resolve("chdb"));
        ch = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    private static String q(String sql) throws Exception {
        return ch.query(Sql.of(sql)).trim();
    }

    /** The sink's S3 settings of the table: S3Proxy's endpoint, path-style, these keys. */
    private static TableLocation.S3Settings settings(String accessKey, String secretKey) {
        TableLocation.S3Settings d = TableLocation.S3Settings.defaults();
        return new TableLocation.S3Settings(
                s3.endpoint(),
                "us-east-1",
                true,
                accessKey,
                secretKey,
                d.connectTimeout(),
                d.requestTimeout());
    }

    /** The sink's delivery options: the live table, and the server reads with the table's keys. */
    private static Configuration options(String live) {
        Configuration c = new Configuration();
        c.set(MergeTreeSinkOptions.CLICKHOUSE_URL, server.url());
        c.set(MergeTreeSinkOptions.CLICKHOUSE_TABLE, live);
        c.set(MergeTreeSinkOptions.TABLE_S3_ACCESS_KEY, S3ProxyServer.ACCESS_KEY);
        c.set(MergeTreeSinkOptions.TABLE_S3_SECRET_KEY, S3ProxyServer.SECRET_KEY);
        return c;
    }

    /** Writes rows {@code [from, from + n)} into the table of {@code storage} with the engine. */
    private static void write(TableStorage storage, long from, int n) throws IOException {
        try (MergeTreeTable table = storage.open(TableLayouts.fromDdl(DDL), Clock.systemUTC())) {
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
    }

    private static void createLive(String name, long earlier) throws Exception {
        q("CREATE TABLE " + name + " " + WrittenTable.COLUMNS + " " + WrittenTable.ENGINE);
        q("INSERT INTO " + name + " " + WrittenTable.referenceSelect(1_000_000, earlier));
    }

    private static String contents(String table) throws Exception {
        return q("SELECT count(), " + RowsHash.of("id, p, s") + " FROM " + table);
    }

    @Test
    void anS3TableIsDeliveredThroughTheStoreTheSinksSettingsOpen() throws Exception {
        TableStorage storage =
                TableLocation.parse(
                        "s3://" + BUCKET + "/tables/delivered",
                        settings(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY));
        write(storage, 0, 3000);
        write(storage, 3000, 2000);
        createLive("live", 77);

        try (DeliveryCoordinator.Opened d =
                DeliveryCoordinator.open(
                        TableSchema.parse(DDL), storage, options("default.live"))) {
            assertThat(d.store().location()).isEqualTo("s3://" + BUCKET + "/tables/delivered");
            d.delivery().check();
            DeliveryResult r = d.delivery().deliverPending();
            assertThat(r.rows()).isEqualTo(5000);
            assertThat(d.delivery().deliverPending().isEmpty()).as("nothing twice").isTrue();
        }
        createLive("ref", 77);
        q("INSERT INTO ref " + WrittenTable.referenceSelect(0, 5000));
        assertThat(contents("live")).isEqualTo(contents("ref")).startsWith("5077\t");
        assertThat(
                        Long.parseLong(
                                q(
                                        "SELECT count() FROM system.backups"
                                                + " WHERE status = 'RESTORED'")))
                .as("delivered by RESTORE from the bucket")
                .isPositive();
    }

    @Test
    void aWrongSecretInTheSinksSettingsDeliversNothingAndIsNotPrinted() throws Exception {
        String path = "s3://" + BUCKET + "/tables/refused";
        write(
                TableLocation.parse(
                        path, settings(S3ProxyServer.ACCESS_KEY, S3ProxyServer.SECRET_KEY)),
                0,
                1000);
        createLive("other", 5);
        TableStorage wrongSecret =
                TableLocation.parse(path, settings(S3ProxyServer.ACCESS_KEY, "wrong-secret-91"));
        try (DeliveryCoordinator.Opened d =
                DeliveryCoordinator.open(
                        TableSchema.parse(DDL), wrongSecret, options("default.other"))) {
            assertThatThrownBy(() -> d.delivery().deliverPending())
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("tables/refused")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong-secret-91"));
        }
        assertThat(q("SELECT count() FROM other")).isEqualTo("5");
    }
}
