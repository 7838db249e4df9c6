package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.testing.WrittenTable;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import io.github.s3mergetree.engine.testing.RowsHash;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * ATTACH delivery into a real ClickHouse 18.16 server process (Debian's package, HTTP on
 * 127.0.0.1): parts in the portable profile copied into the table's detached/ and attached over
 * HTTP; every result checked with clickhouse-client against rows 18.16 computes itself.
 */
class AttachDeliveryITCase {
    @TempDir static Path dir;
    private static ClickHouse1816 ch;
    private static ClickHouseHttpClient client;
    private static int tables;

    @BeforeAll
    static void start() {
        ch = ClickHouse1816.start(dir.resolve("ch1816"), true);
        client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of("http://127.0.0.1:" + ch.httpPort()));
    }

    @AfterAll
    static void stop() {
        if (ch != null) {
            ch.close();
        }
    }

    @AfterEach
    void noHook() {
        DeliveryFaultPoints.install(null);
    }

    private static final class Setup {
        final WrittenTable table;
        final TableName live;
        final long earlier = 77;

        Setup(String settings) throws Exception {
            this(WrittenTable.COLUMNS, settings);
        }

        /** A written table with {@code columns} (codecs, say) and a live table without codecs. */
        Setup(String columns, String settings) throws Exception {
            int n = ++tables;
            table = WrittenTable.withColumns(dir.resolve("written" + n), columns, settings);
            live = new TableName("default", "live" + n);
            ch.query(
                    "CREATE TABLE "
                            + live
                            + " "
                            + WrittenTable.COLUMNS
                            + " "
                            + WrittenTable.ENGINE);
            ch.query("INSERT INTO " + live + " " + select(1_000_000, earlier));
        }

        AttachDelivery delivery() throws Exception {
            return new AttachDelivery(
                    TableStore.local(table.dir().toString()),
                    table.schema(),
                    DeliveryTarget.resolve(client, live),
                    client,
                    null,
                    Clock.systemUTC(),
                    DeliveryOptions.defaults().withLease(Duration.ZERO));
        }

        void assertExactly(long rows) {
            String expected =
                    ch.query(
                            "SELECT count(), "
                                    + RowsHash.of("id, p, s")
                                    + " FROM ("
                                    + select(1_000_000, earlier)
                                    + " UNION ALL "
                                    + select(0, rows)
                                    + ")");
            assertThat(ch.query("SELECT count(), " + RowsHash.of("id, p, s") + " FROM " + live))
                    .isEqualTo(expected);
            assertThat(
                            ch.query(
                                    "SELECT count() FROM (SELECT id FROM "
                                            + live
                                            + " GROUP BY id HAVING count() > 1)"))
                    .isEqualTo("0");
        }
    }

    /** ClickHouse 18.16's own rows [from, from + n) of the written table's generator. */
    private static String select(long from, long n) {
        return "SELECT toUInt64(number) AS id, toUInt8(number % 3) AS p, concat('v', toString(number)) AS s FROM system.numbers WHERE number >= "
                + from
                + " LIMIT "
                + n;
    }

    @Test
    void attachesPortablePartsInto1816OnceAndThenOnlyNewOnes() throws Exception {
        Setup s = new Setup("SETTINGS index_granularity_bytes = 0");
        s.table.insert(0, 20_000);
        s.table.insert(20_000, 5_000);
        AttachDelivery d = s.delivery();
        d.check();
        DeliveryResult r = d.deliverPending();
        assertThat(r.parts()).isEqualTo(6);
        s.assertExactly(25_000);
        assertThat(s.delivery().deliverPending().isEmpty()).isTrue();
        s.table.table().optimizeFinal(false);
        assertThat(s.delivery().deliverPending().isEmpty()).isTrue();
        s.table.insert(25_000, 1_000);
        assertThat(s.delivery().deliverPending().rows()).isEqualTo(1_000);
        s.assertExactly(26_000);
        // 18.16 merges what it received, as its own inserts
        ch.query("OPTIMIZE TABLE " + s.live + " FINAL");
        s.assertExactly(26_000);
    }

    @Test
    void adaptivePartsAreRefusedFor1816BeforeAnythingIsCopied() throws Exception {
        Setup s = new Setup("");
        s.table.insert(0, 100);
        assertThatThrownBy(() -> s.delivery().check())
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("index_granularity_bytes = 0");
        s.assertExactly(0);
    }

    @Test
    void tablesWithTtlAreRefusedFor1816BeforeAnythingIsCopied() throws Exception {
        Setup s =
                new Setup(
                        "TTL toDateTime(id) + INTERVAL 1 DAY SETTINGS index_granularity_bytes = 0");
        s.table.insert(0, 100);
        assertThatThrownBy(() -> s.delivery().check())
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("has no TTL (table and column TTL came in ClickHouse 19.6)");
        s.assertExactly(0);
    }

    @Test
    void portablePartsWithZstdLz4hcAndNoneColumnsAreReadBy1816() throws Exception {
        Setup s =
                new Setup(
                        "(id UInt64 CODEC(ZSTD(3)), p UInt8 CODEC(LZ4HC(9)), s String CODEC(NONE))",
                        "SETTINGS index_granularity_bytes = 0, default_compression_codec = 'ZSTD(1)'");
        s.table.insert(0, 20_000);
        AttachDelivery d = s.delivery();
        d.check();
        assertThat(d.deliverPending().parts()).isEqualTo(3);
        s.assertExactly(20_000);
        ch.query("OPTIMIZE TABLE " + s.live + " FINAL");
        s.assertExactly(20_000);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "(id UInt64 CODEC(Delta, ZSTD), p UInt8, s String)",
                "(id UInt64 CODEC(T64), p UInt8, s String)",
                "(id UInt64 CODEC(DoubleDelta, LZ4), p UInt8, s String CODEC(ZSTD(3)))"
            })
    void codecChainsAndSpecialisedCodecsAreRefusedFor1816BeforeAnythingIsCopied(String columns)
            throws Exception {
        Setup s = new Setup(columns, "SETTINGS index_granularity_bytes = 0");
        s.table.insert(0, 100);
        assertThatThrownBy(() -> s.delivery().check())
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("reads only blocks compressed with NONE, LZ4, LZ4HC or ZSTD")
                .hasMessageContaining("column id of the written table has CODEC(");
        s.assertExactly(0);
    }

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
        Setup s = new Setup("SETTINGS index_granularity_bytes = 0");
        s.table.insert(0, 3000);
        AtomicBoolean crashed = new AtomicBoolean();
        DeliveryFaultPoints.install(
                p -> {
                    if (p.equals(point) && crashed.compareAndSet(false, true)) {
                        throw new IllegalStateException("crash at " + p);
                    }
                });
        assertThatThrownBy(() -> s.delivery().deliverPending()).hasMessageContaining("crash at");
        DeliveryFaultPoints.install(null);
        s.delivery().deliverPending();
        s.assertExactly(3000);
        s.table.insert(3000, 10);
        s.delivery().deliverPending();
        s.assertExactly(3010);
    }
}
