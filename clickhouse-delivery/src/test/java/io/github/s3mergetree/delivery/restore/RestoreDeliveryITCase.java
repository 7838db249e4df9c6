package io.github.s3mergetree.delivery.restore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.errors.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.ClickHouseServerException;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.DeliveryIntent;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RESTORE delivery end to end against real components: parts written by the engine, on an S3 API
 * server (S3Proxy 2.9.0 on loopback), delivered into a live ClickHouse 26.x (chDB behind its HTTP
 * interface) that reads them from the bucket. Every check is the server's own: count, {@code
 * RowsHash} against ClickHouse computing the same rows, CHECK TABLE, system.parts.
 */
class RestoreDeliveryITCase {
    private static final String BUCKET = "bkt";

    @TempDir static Path dir;
    private static S3ProxyServer s3;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient client;
    private static int tables;
    private static final List<TableStore> stores = new ArrayList<>();

    /** The engine's store of the table under {@code prefix} of the bucket, closed after all. */
    private static TableStore store(String prefix) {
        TableStore store = TestStores.s3(s3.endpoint(), BUCKET, prefix + "/");
        stores.add(store);
        return store;
    }

    @BeforeAll
    static void start() throws Exception {
        s3 = new S3ProxyServer();
        s3.createBucket(BUCKET);
        server = ChDbHttpServer.start(dir.resolve("chdb"));
        server.awaitUptimeAbove(2);
        client = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
    }

    @AfterAll
    static void stop() throws Exception {
        stores.forEach(TableStore::close);
        if (server != null) {
            server.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    @AfterEach
    void noHook() {
        DeliveryFaultPoints.install(null);
    }

    /** One test's written table, its S3 copy, and a live target with earlier rows. */
    private static final class Setup {
        final WrittenTable table;
        final String prefix;
        final TableStore store;
        final TableName live;
        final long earlier;

        Setup(String settings) throws Exception {
            this("default", settings);
        }

        /**
         * In {@code database}: an Atomic one gives the table a UUID, which identifies the target.
         */
        Setup(String database, String settings) throws Exception {
            int n = ++tables;
            table = WrittenTable.create(dir.resolve("written" + n), "");
            prefix = "tables/t" + n;
            store = store(prefix);
            live = new TableName(database, "live" + n);
            q(
                    "CREATE DATABASE IF NOT EXISTS "
                            + TableName.quote(database)
                            + (database.equals("default") ? "" : " ENGINE = Atomic"));
            earlier = 123;
            q(
                    "CREATE TABLE "
                            + live.sql()
                            + " "
                            + WrittenTable.COLUMNS
                            + " "
                            + WrittenTable.ENGINE
                            + (settings.isEmpty() ? "" : " " + settings));
            q("INSERT INTO " + live.sql() + " " + WrittenTable.referenceSelect(1_000_000, earlier));
        }

        RestoreDelivery delivery() {
            return delivery(DeliveryOptions.defaults());
        }

        RestoreDelivery delivery(DeliveryOptions options) {
            return new RestoreDelivery(
                    store,
                    table.schema(),
                    new RestoreDelivery.Source(
                            s3.endpoint() + "/" + BUCKET + "/" + prefix,
                            S3ProxyServer.ACCESS_KEY,
                            S3ProxyServer.SECRET_KEY),
                    target(live),
                    client,
                    Clock.systemUTC(),
                    options);
        }

        void upload() throws Exception {
            table.upload(s3.client(), BUCKET, prefix);
        }

        /** Asserts the live table holds exactly the earlier rows plus written rows [0, rows). */
        void assertExactly(long rows) throws Exception {
            String expected =
                    q(
                            "SELECT count(), "
                                    + RowsHash.ALL_COLUMNS
                                    + " FROM ("
                                    + WrittenTable.referenceSelect(1_000_000, earlier)
                                    + " UNION ALL "
                                    + WrittenTable.referenceSelect(0, rows)
                                    + ")");
            assertThat(q("SELECT count(), " + RowsHash.ALL_COLUMNS + " FROM " + live.sql()))
                    .isEqualTo(expected);
            assertThat(
                            q(
                                    "SELECT count() FROM (SELECT id FROM "
                                            + live.sql()
                                            + " GROUP BY id HAVING count() > 1)"))
                    .isEqualTo("0");
        }
    }

    private static DeliveryTarget target(TableName table) {
        try {
            return DeliveryTarget.resolve(client, table);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** CHECK TABLE passes for every part (26.x answers one row per part). */
    private static void assertCheckPasses(TableName table) throws Exception {
        List<List<String>> rows =
                client.rows(
                        Sql.of(
                                "CHECK TABLE "
                                        + table.sql()
                                        + " SETTINGS check_query_single_value_result = 1"));
        assertThat(rows).isEqualTo(List.of(List.of("1")));
    }

    private static String q(String sql) throws Exception {
        return client.query(Sql.of(sql)).trim();
    }

    @Test
    void restoresCommittedPartsIntoANonEmptyTableOnceAndThenOnlyNewOnes() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 3000);
        s.table.insert(3000, 2000);
        s.upload();
        RestoreDelivery d = s.delivery();
        d.check();
        DeliveryResult r = d.deliverPending();
        assertThat(r.parts()).isEqualTo(6);
        assertThat(r.rows()).isEqualTo(5000);
        s.assertExactly(5000);
        assertCheckPasses(s.live);
        // the parts carry the UUIDs the ledger recorded
        List<String> uuids =
                client
                        .rows(
                                Sql.of(
                                        "SELECT toString(uuid) FROM system.parts WHERE database = 'default' AND table = '"
                                                + s.live.table()
                                                + "' AND active AND uuid != toUUID('00000000-0000-0000-0000-000000000000') ORDER BY 1"))
                        .stream()
                        .map(row -> row.get(0))
                        .toList();
        List<String> recorded =
                d.ledger().intents().get(0).parts().stream()
                        .map(p -> p.uuid().toString())
                        .sorted()
                        .toList();
        assertThat(uuids).isEqualTo(recorded);
        // nothing new: nothing sent
        assertThat(s.delivery().deliverPending().isEmpty()).isTrue();
        s.assertExactly(5000);
        // a merge in the written table changes nothing for the target
        s.table.table().optimizeFinal(false);
        s.upload();
        assertThat(s.delivery().deliverPending().isEmpty()).isTrue();
        // a new commit: only its parts go
        s.table.insert(5000, 1000);
        s.upload();
        DeliveryResult again = s.delivery().deliverPending();
        assertThat(again.parts()).isEqualTo(3);
        assertThat(again.rows()).isEqualTo(1000);
        s.assertExactly(6000);
        assertCheckPasses(s.live);
        // the manifest slot is free again
        assertThat(s.store.readIfExists(RestoreDelivery.MANIFEST)).isEmpty();
    }

    @Test
    void aCompactedLedgerStillKnowsWhatTheTargetHas() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 3000);
        s.table.insert(3000, 2000);
        s.upload();
        DeliveryOptions options =
                DeliveryOptions.defaults().withMaxPartsPerDelivery(2).withCompactAfter(2);
        DeliveryResult r = s.delivery(options).deliverPending();
        assertThat(r.deliveryIds()).hasSize(3); // 6 parts, 2 per RESTORE
        s.assertExactly(5000);
        TableStore files = s.store;
        DeliveryLedger ledger = s.delivery(options).ledger();
        assertThat(ledger.summarizedThrough()).isEqualTo(3);
        String dir = DeliveryLedger.directory(ledger.targetKey());
        assertThat(files.listFileNames(dir + "/"))
                .as("records through the summary are gone")
                .containsExactly("0000000003.summary");
        assertThat(files.listDirectories(dir + "/"))
                .as("the deliveries' own files (checksums.txt with uuid.txt, table.sql) are gone")
                .isEmpty();
        // a merge of delivered parts in the written table sends nothing: the summary knows them
        s.table.table().optimizeFinal(false);
        s.upload();
        assertThat(s.delivery(options).deliverPending().isEmpty()).isTrue();
        s.assertExactly(5000);
        // a new commit: only its parts go, under the next id
        s.table.insert(5000, 1000);
        s.upload();
        DeliveryResult again = s.delivery(options).deliverPending();
        assertThat(again.rows()).isEqualTo(1000);
        assertThat(again.deliveryIds().get(0)).endsWith("-4");
        s.assertExactly(6000);
        assertCheckPasses(s.live);
    }

    /** Differential: ClickHouse's own BACKUP lists every file with the checksum we compute. */
    @Test
    void ourFileChecksumsAreTheOnesClickHousesOwnBackupWrites() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 5000);
        s.upload();
        s.delivery().deliverPending();
        q(
                "BACKUP TABLE "
                        + s.live.sql()
                        + " TO S3('"
                        + s3.endpoint()
                        + "/"
                        + BUCKET
                        + "/ref"
                        + tables
                        + "', '"
                        + S3ProxyServer.ACCESS_KEY
                        + "', '"
                        + S3ProxyServer.SECRET_KEY
                        + "')");
        TableStore ref = store("ref" + tables);
        String xml =
                new String(
                        ref.readIfExists(".backup").orElseThrow(),
                        java.nio.charset.StandardCharsets.UTF_8);
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile(
                                "<file><name>([^<]*)</name><size>(\\d+)</size>(?:<checksum>([0-9a-f]{32})</checksum>)?(?:<data_file>([^<]*)</data_file>)?")
                        .matcher(xml);
        int checked = 0;
        while (m.find()) {
            if (m.group(3) == null) {
                continue;
            }
            byte[] bytes =
                    ref.readIfExists(m.group(4) != null ? m.group(4) : m.group(1)).orElseThrow();
            assertThat(bytes.length).as(m.group(1)).isEqualTo(Integer.parseInt(m.group(2)));
            assertThat(
                            io.github.s3mergetree.engine.hash.HashingOutput.hash(
                                            bytes, 0, bytes.length)
                                    .toHex())
                    .as(m.group(1))
                    .isEqualTo(m.group(3));
            checked++;
        }
        assertThat(checked).isGreaterThan(20);
    }

    @Test
    void aTargetThatDoesNotFitIsRefusedBeforeAnythingIsSent() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 10);
        s.upload();
        q(
                "CREATE TABLE default.other_order "
                        + WrittenTable.COLUMNS
                        + " ENGINE = MergeTree PARTITION BY p ORDER BY (id, s)");
        RestoreDelivery wrongOrder =
                new RestoreDelivery(
                        s.store,
                        s.table.schema(),
                        new RestoreDelivery.Source(
                                s3.endpoint() + "/" + BUCKET + "/" + s.prefix,
                                S3ProxyServer.ACCESS_KEY,
                                S3ProxyServer.SECRET_KEY),
                        target(TableName.parse("default.other_order")),
                        client,
                        Clock.systemUTC(),
                        DeliveryOptions.defaults());
        assertThatThrownBy(wrongOrder::check)
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining(
                        "ORDER BY is id in the written table but (id, s) on the server");
        RestoreDelivery missing =
                new RestoreDelivery(
                        s.store,
                        s.table.schema(),
                        new RestoreDelivery.Source(
                                s3.endpoint() + "/" + BUCKET + "/" + s.prefix,
                                S3ProxyServer.ACCESS_KEY,
                                S3ProxyServer.SECRET_KEY),
                        new DeliveryTarget(
                                ClickHouseEndpoint.of(server.url()),
                                TableName.parse("default.nope")),
                        client,
                        Clock.systemUTC(),
                        DeliveryOptions.defaults());
        assertThatThrownBy(missing::check)
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("create it first");
        RestoreDelivery badKeys =
                new RestoreDelivery(
                        s.store,
                        s.table.schema(),
                        new RestoreDelivery.Source(
                                s3.endpoint() + "/" + BUCKET + "/" + s.prefix,
                                S3ProxyServer.ACCESS_KEY,
                                "wrong-secret-42"),
                        target(s.live),
                        client,
                        Clock.systemUTC(),
                        DeliveryOptions.defaults());
        assertThatThrownBy(badKeys::check)
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("cannot read the table's objects")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("wrong-secret-42"));
        assertThat(q("SELECT count() FROM " + s.live.sql())).isEqualTo(Long.toString(s.earlier));
        // the refused check took its probe away again, and so does one that passes
        TableStore files = s.store;
        String ledgerDir = DeliveryLedger.directory(target(s.live).key());
        assertThat(files.listFileNames(ledgerDir + "/")).isEmpty();
        s.delivery().check();
        assertThat(files.listFileNames(ledgerDir + "/")).isEmpty();
    }

    /** A crash at each point of the protocol, then a fresh deliverer: every row exactly once. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                DeliveryFaultPoints.AFTER_INTENT,
                DeliveryFaultPoints.AFTER_MANIFEST,
                DeliveryFaultPoints.AFTER_SEND,
                DeliveryFaultPoints.AFTER_APPLIED,
                DeliveryFaultPoints.AFTER_OUTCOME
            })
    void aCrashAtAnyPointIsRecoveredExactlyOnce(String point) throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 2000);
        s.upload();
        AtomicBoolean crashed = new AtomicBoolean();
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(point) && crashed.compareAndSet(false, true)) {
                        throw new Crash(p);
                    }
                });
        RestoreDelivery first = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        first.check();
        assertThatThrownBy(first::deliverPending).isInstanceOf(Crash.class);
        DeliveryFaultPoints.install(null);
        // a new process: only what storage and the server hold
        RestoreDelivery second = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        second.deliverPending();
        s.assertExactly(2000);
        assertThat(second.ledger().pending()).isEmpty();
        // and more commits go on normally
        s.table.insert(2000, 500);
        s.upload();
        s.delivery().deliverPending();
        s.assertExactly(2500);
        assertCheckPasses(s.live);
    }

    @Test
    void aRestoreNeverSentIsFencedSoALateSenderCannotDuplicate() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 700);
        s.upload();
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(DeliveryFaultPoints.AFTER_MANIFEST)) {
                        throw new Crash(p);
                    }
                });
        RestoreDelivery slow = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        assertThatThrownBy(slow::deliverPending).isInstanceOf(Crash.class);
        DeliveryIntent stalled = slow.ledger().pending().orElseThrow();
        DeliveryFaultPoints.install(null);
        s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO)).deliverPending();
        s.assertExactly(700);
        assertThat(slow.ledger().outcome(stalled.sequence()).orElseThrow().delivered()).isFalse();
        // the stalled deliverer wakes up and sends its RESTORE: the server refuses the fenced id
        String backupTable = RestoreDelivery.backupTable(stalled);
        assertThatThrownBy(
                        () ->
                                client.query(
                                        Sql.of(
                                                "RESTORE TABLE s3mergetree_delivery."
                                                        + backupTable
                                                        + " AS "
                                                        + s.live.sql()
                                                        + " FROM S3('"
                                                        + s3.endpoint()
                                                        + "/"
                                                        + BUCKET
                                                        + "/"
                                                        + s.prefix
                                                        + "', '"
                                                        + S3ProxyServer.ACCESS_KEY
                                                        + "', '"
                                                        + S3ProxyServer.SECRET_KEY
                                                        + "')"
                                                        + " SETTINGS allow_non_empty_tables = true, id = '"
                                                        + stalled.id()
                                                        + "' ASYNC")))
                .isInstanceOfSatisfying(
                        ClickHouseServerException.class,
                        e -> assertThat(e.serverMessage()).contains("same ID"));
        s.assertExactly(700);
    }

    @Test
    void afterAServerRestartThePartUuidsProveADelivery() throws Exception {
        // an Atomic database: the table's UUID identifies the target, whatever port the server
        // listens on after its restart
        Setup s = new Setup("atomic_db", "");
        s.table.insert(0, 800);
        s.upload();
        crashAt(DeliveryFaultPoints.AFTER_APPLIED, s);
        // merged on the server, but the merged-away parts (with the UUIDs) are still listed
        q("OPTIMIZE TABLE " + s.live.sql() + " FINAL");
        restartServer();
        RestoreDelivery second = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        second.deliverPending();
        s.assertExactly(800);
        assertThat(second.ledger().outcome(1).orElseThrow().evidence()).contains("system.parts");
    }

    @Test
    void afterAServerRestartAMergedAwayDeliveryIsUnknownUntilResolved() throws Exception {
        Setup s =
                new Setup(
                        "atomic_db",
                        "SETTINGS old_parts_lifetime = 1, cleanup_delay_period = 1, cleanup_delay_period_random_add = 0");
        s.table.insert(0, 900);
        s.upload();
        crashAt(DeliveryFaultPoints.AFTER_APPLIED, s);
        // the server merges the delivered parts away and removes them (their UUIDs with them):
        // as its cleanup would after old_parts_lifetime, which chDB's embedded engine does not run
        q("OPTIMIZE TABLE " + s.live.sql() + " FINAL");
        List<String> outdated =
                client
                        .rows(
                                Sql.of(
                                        "SELECT path FROM system.parts WHERE database = 'atomic_db' AND table = '"
                                                + s.live.table()
                                                + "' AND NOT active"))
                        .stream()
                        .map(r -> r.get(0))
                        .toList();
        assertThat(outdated).isNotEmpty();
        server.close();
        for (String path : outdated) {
            io.github.s3mergetree.engine.part.Parts.deleteRecursively(Path.of(path));
        }
        restartServer();
        RestoreDelivery second = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        assertThatThrownBy(second::deliverPending)
                .isInstanceOf(DeliveryStateUnknownException.class)
                .hasMessageContaining("restarted")
                .hasMessageContaining("deliver --resolve");
        s.assertExactly(900); // nothing was re-sent
        String id = second.ledger().pending().orElseThrow().id();
        second.resolve(id, true);
        s.table.insert(900, 100);
        s.upload();
        second.deliverPending();
        s.assertExactly(1000);
    }

    private static void crashAt(String point, Setup s) throws Exception {
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(point)) {
                        throw new Crash(p);
                    }
                });
        RestoreDelivery first = s.delivery(DeliveryOptions.defaults().withLease(Duration.ZERO));
        assertThatThrownBy(first::deliverPending).isInstanceOf(Crash.class);
        DeliveryFaultPoints.install(null);
    }

    private static void restartServer() throws Exception {
        server.close();
        server = ChDbHttpServer.start(dir.resolve("chdb"));
        client = ClickHouseHttpClient.create(ClickHouseEndpoint.of(server.url()));
        Thread.sleep(2100); // the server's start time must be later than the intent's server time
    }

    /** A simulated crash: nothing after the point runs. */
    static final class Crash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Crash(String point) {
            super("crash at " + point);
        }
    }
}
