package io.github.s3mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.attach.AttachDelivery;
import io.github.s3mergetree.delivery.errors.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.DeliveryIntent;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.restore.RestoreDelivery;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.testing.ChDbHttpServer;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two written tables delivering into one live table (chDB behind its HTTP interface; the tables on
 * S3Proxy for RESTORE, in directories for ATTACH): each table's ledger counts its deliveries from 1
 * and both write parts of the same names, yet the target must end with exactly the rows of both,
 * whether they deliver one after the other, alternately or at the same time, and whatever crashed
 * in between. Judged by the server: count and {@code sum(cityHash64(*))} against ClickHouse's own
 * rows of the union.
 */
class TwoSourceTablesDeliveryITCase {
    private static final String BUCKET = "two";
    private static final long EARLIER_FROM = 10_000_000;
    private static final long EARLIER = 123;

    @TempDir static Path dir;
    private static S3ProxyServer s3;
    private static ChDbHttpServer server;
    private static ClickHouseHttpClient client;
    private static int serial;
    private static final List<TableStore> STORES = new java.util.ArrayList<>();

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
        STORES.forEach(TableStore::close);
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

    /**
     * The live table, with earlier rows of its own, and the rows every source delivered into it.
     */
    private static final class Live {
        final TableName table;
        final List<long[]> ranges = new ArrayList<>();

        Live() throws Exception {
            table = new TableName("default", "two_live" + ++serial);
            q(
                    "CREATE TABLE "
                            + table.sql()
                            + " "
                            + WrittenTable.COLUMNS
                            + " "
                            + WrittenTable.ENGINE);
            q(
                    "INSERT INTO "
                            + table.sql()
                            + " "
                            + WrittenTable.referenceSelect(EARLIER_FROM, EARLIER));
        }

        DeliveryTarget target() throws Exception {
            return DeliveryTarget.resolve(client, table);
        }

        /** The live table holds exactly its earlier rows plus {@link #ranges} (each once). */
        void assertExactly() throws Exception {
            StringBuilder union =
                    new StringBuilder(WrittenTable.referenceSelect(EARLIER_FROM, EARLIER));
            for (long[] r : ranges) {
                union.append(" UNION ALL ").append(WrittenTable.referenceSelect(r[0], r[1]));
            }
            String expected = q("SELECT count(), sum(cityHash64(*)) FROM (" + union + ")");
            assertThat(q("SELECT count(), sum(cityHash64(*)) FROM " + table.sql()))
                    .as("count and content hash of %s", table)
                    .isEqualTo(expected);
        }
    }

    /** A written table that delivers into a live table. */
    private static final class Source {
        final String name;
        final WrittenTable table;
        final String prefix;
        final TableStore s3Files;
        final Live live;

        Source(String name, Live live) throws Exception {
            this.name = name;
            this.live = live;
            int n = ++serial;
            table = WrittenTable.create(dir.resolve(name + n), "");
            prefix = "tables/" + name + n;
            s3Files = TestStores.s3(s3.endpoint(), BUCKET, prefix + "/");
            STORES.add(s3Files);
        }

        /**
         * Inserts and uploads rows {@code [from, from + n)}; once delivered, the live table has
         * them.
         */
        void commit(long from, int n) throws Exception {
            table.insert(from, n);
            table.upload(s3.client(), BUCKET, prefix);
            live.ranges.add(new long[] {from, n});
        }

        /** The engine's store of the table's S3 copy (closed after all tests). */
        TableStore s3Files() {
            return s3Files;
        }

        RestoreDelivery restore() throws Exception {
            return new RestoreDelivery(
                    s3Files(),
                    table.schema(),
                    new RestoreDelivery.Source(
                            s3.endpoint() + "/" + BUCKET + "/" + prefix,
                            S3ProxyServer.ACCESS_KEY,
                            S3ProxyServer.SECRET_KEY),
                    live.target(),
                    client,
                    Clock.systemUTC(),
                    DeliveryOptions.defaults().withLease(Duration.ZERO));
        }

        AttachDelivery attach() throws Exception {
            return new AttachDelivery(
                    TableStore.local(table.dir().toString()),
                    table.schema(),
                    live.target(),
                    client,
                    null,
                    Clock.systemUTC(),
                    DeliveryOptions.defaults().withLease(Duration.ZERO));
        }
    }

    private static String q(String sql) throws Exception {
        return client.query(Sql.of(sql)).trim();
    }

    @Test
    void restoresFromTwoTablesOneAfterTheOtherDeliverBoth() throws Exception {
        Live live = new Live();
        Source a = new Source("a", live);
        Source b = new Source("b", live);
        a.commit(0, 3000);
        a.commit(3000, 2000);
        DeliveryResult ra = a.restore().deliverPending();
        assertThat(ra.rows()).isEqualTo(5000);
        live.assertExactly();

        b.commit(500_000, 20_000);
        DeliveryResult rb = b.restore().deliverPending();
        assertThat(rb.rows()).isEqualTo(20_000);
        live.assertExactly();
        assertThat(rb.deliveryIds()).doesNotContainAnyElementsOf(ra.deliveryIds());

        // and on: each table's next commit, one after the other
        a.commit(5000, 1000);
        b.commit(520_000, 1000);
        assertThat(a.restore().deliverPending().rows()).isEqualTo(1000);
        assertThat(b.restore().deliverPending().rows()).isEqualTo(1000);
        live.assertExactly();
        assertThat(a.restore().ledger().deliveredRows()).isEqualTo(6000);
        assertThat(b.restore().ledger().deliveredRows()).isEqualTo(21_000);
        assertThat(a.s3Files().readIfExists(RestoreDelivery.MANIFEST)).isEmpty();
        assertThat(b.s3Files().readIfExists(RestoreDelivery.MANIFEST)).isEmpty();
    }

    @Test
    void restoresFromTwoTablesInterleavedAndAtTheSameTimeDeliverBoth() throws Exception {
        Live live = new Live();
        Source a = new Source("a", live);
        Source b = new Source("b", live);
        long nextA = 0;
        long nextB = 700_000;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 3; round++) {
                a.commit(nextA, 1500);
                nextA += 1500;
                b.commit(nextB, 1000);
                nextB += 1000;
                switch (round) {
                    case 0 -> {
                        a.restore().deliverPending();
                        b.restore().deliverPending();
                    }
                    case 1 -> {
                        b.restore().deliverPending();
                        a.restore().deliverPending();
                    }
                    default -> {
                        RestoreDelivery da = a.restore();
                        RestoreDelivery db = b.restore();
                        Future<DeliveryResult> fa = pool.submit(da::deliverPending);
                        Future<DeliveryResult> fb = pool.submit(db::deliverPending);
                        assertThat(fa.get(5, TimeUnit.MINUTES).rows()).isEqualTo(1500);
                        assertThat(fb.get(5, TimeUnit.MINUTES).rows()).isEqualTo(1000);
                    }
                }
                live.assertExactly();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(a.restore().ledger().deliveredRows()).isEqualTo(4500);
        assertThat(b.restore().ledger().deliveredRows()).isEqualTo(3000);
    }

    /**
     * A RESTORED entry in system.backups under a delivery's id that is another RESTORE's (here:
     * table A's, whose id table B's intent is made to carry) is not believed: B's delivery is not
     * recorded as delivered, and the live table keeps exactly what it had.
     */
    @Test
    void aRestoredEntryOfAnotherRestoreUnderTheSameIdIsNotBelieved() throws Exception {
        Live live = new Live();
        Source a = new Source("a", live);
        Source b = new Source("b", live);
        a.commit(0, 2000);
        DeliveryResult ra = a.restore().deliverPending();
        String idOfA = ra.deliveryIds().get(0);
        live.assertExactly();

        b.table.insert(800_000, 1000);
        b.table.upload(s3.client(), BUCKET, b.prefix);
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(DeliveryFaultPoints.AFTER_MANIFEST)) {
                        throw new IllegalStateException("crash at " + p);
                    }
                });
        assertThatThrownBy(() -> b.restore().deliverPending())
                .hasMessageContaining("crash at " + DeliveryFaultPoints.AFTER_MANIFEST);
        DeliveryFaultPoints.install(null);
        DeliveryIntent pending = b.restore().ledger().pending().orElseThrow();
        // B's open delivery now carries A's id, whose RESTORE the server lists as RESTORED
        String path = b.restore().ledger().path(pending.sequence(), "intent");
        String text =
                new String(b.s3Files().readIfExists(path).orElseThrow(), StandardCharsets.UTF_8);
        b.s3Files()
                .put(
                        path,
                        text.replace("id\t" + pending.id() + "\n", "id\t" + idOfA + "\n")
                                .getBytes(StandardCharsets.UTF_8));
        assertThat(b.restore().ledger().pending().orElseThrow().id()).isEqualTo(idOfA);
        // and so does the record of the backup it made (as if B had sent its RESTORE under A's id)
        String record = b.restore().ledger().deliveryDirectory(pending) + "/restore.expected";
        b.s3Files()
                .readIfExists(record)
                .ifPresent(
                        bytes ->
                                uncheckedWrite(
                                        b.s3Files(),
                                        record,
                                        new String(bytes, StandardCharsets.UTF_8)
                                                .replace(pending.id(), idOfA)));

        assertThatThrownBy(() -> b.restore().deliverPending())
                .isInstanceOf(DeliveryStateUnknownException.class)
                .hasMessageContaining(idOfA)
                .hasMessageContaining("not this delivery's")
                .hasMessageContaining("but this delivery's backup has");
        DeliveryLedger ledger = b.restore().ledger();
        assertThat(ledger.outcome(pending.sequence())).as("nothing recorded").isEmpty();
        assertThat(ledger.deliveredParts()).isEmpty();
        live.assertExactly(); // A's rows and the earlier ones, nothing of B's
    }

    /**
     * ATTACH from two tables whose parts have the same names (and, with {@code same}, the same
     * bytes: the same rows loaded into both): table A stops after its parts are in detached/, table
     * B delivers, then A's delivery is recovered. Both tables' rows are in the target, each once
     * per table.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void attachesFromTwoTablesWithPartsOfTheSameNamesDeliverBoth(boolean same) throws Exception {
        Live live = new Live();
        Source a = new Source("a", live);
        Source b = new Source("b", live);
        a.commit(0, 3000);
        b.commit(same ? 0 : 900_000, 3000);
        assertThat(partNamesOf(a)).isEqualTo(partNamesOf(b));
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(DeliveryFaultPoints.AFTER_MANIFEST)) {
                        throw new IllegalStateException("crash at " + p);
                    }
                });
        assertThatThrownBy(() -> a.attach().deliverPending())
                .hasMessageContaining("crash at " + DeliveryFaultPoints.AFTER_MANIFEST);
        DeliveryFaultPoints.install(null);

        assertThat(b.attach().deliverPending().rows()).isEqualTo(3000);
        // A's open delivery, recovered: its parts are attached now
        assertThat(a.attach().deliverPending().rows()).isEqualTo(3000);
        assertThat(a.attach().ledger().deliveredRows()).isEqualTo(3000);
        assertThat(b.attach().ledger().deliveredRows()).isEqualTo(3000);
        live.assertExactly();

        // and on, interleaved
        a.commit(3000, 1000);
        b.commit(same ? 3000 : 903_000, 1000);
        assertThat(b.attach().deliverPending().rows()).isEqualTo(1000);
        assertThat(a.attach().deliverPending().rows()).isEqualTo(1000);
        live.assertExactly();
    }

    private static void uncheckedWrite(TableStore files, String path, String text) {
        try {
            files.put(path, text.getBytes(StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> partNamesOf(Source s) throws Exception {
        return new io.github.s3mergetree.delivery.part.PartInventory(
                        TableStore.local(s.table.dir().toString()))
                .committedParts().stream().map(Object::toString).sorted().toList();
    }
}
