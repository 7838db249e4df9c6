package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The writer lease on both stores (a directory and S3 through S3Proxy, which enforces {@code
 * If-None-Match} and {@code If-Match}), with an injected clock: a live lease refuses a second
 * writer with one line, an expired one is taken over at a higher epoch by exactly one of several
 * takers, renewals keep it, a holder that lost it cannot renew and is fenced out of the table's
 * commits.
 */
class WriterLeaseTest {
    private static final Duration TTL = Duration.ofSeconds(30);
    private static final String KEY = "s3mergetree_metadata/ingest-k/lease.json";
    private static final WriterLease.Holder A = new WriterLease.Holder("host-a", 11, "m/11/1");
    private static final WriterLease.Holder B = new WriterLease.Holder("host-b", 22, "m/22/2");

    private static S3ProxyServer server;
    private static int tables;

    @TempDir Path tmp;

    @BeforeAll
    static void startS3() throws Exception {
        server = new S3ProxyServer();
        server.createBucket("leases");
    }

    @AfterAll
    static void stopS3() throws Exception {
        server.close();
    }

    /** A clock the test moves. */
    private static final class TestClock extends Clock {
        final AtomicLong millis =
                new AtomicLong(Instant.parse("2026-12-07T17:00:00Z").toEpochMilli());

        void advance(Duration d) {
            millis.addAndGet(d.toMillis());
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }

    private TableStore store(String kind) {
        return TestStores.of(kind, tmp, server, "leases", "t" + tables++);
    }

    private static WriterLease acquire(TableStore s, Clock c, WriterLease.Holder h)
            throws Exception {
        return WriterLease.acquire(s, KEY, TTL, c, h, WriterLease.Liveness.NEVER_DEAD);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void aLiveLeaseRefusesASecondWriterWithOneLineNamingTableHolderAndExpiry(String kind)
            throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            WriterLease first = acquire(s, clock, A);
            assertThat(first.epoch()).isEqualTo(1);
            clock.advance(Duration.ofSeconds(29));
            assertThatThrownBy(() -> acquire(s, clock, B))
                    .isInstanceOf(WriterLeaseHeldException.class)
                    .hasMessageNotContaining("\n")
                    .hasMessageContaining(s.location())
                    .hasMessageContaining("host host-a, pid 11")
                    .hasMessageContaining("expires at 2026-12-07T17:00:30Z");
            first.check(); // still held
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void renewalKeepsTheLeaseAndAReleasedLeaseIsTakenAtOnceAtTheNextEpoch(String kind)
            throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            WriterLease first = acquire(s, clock, A);
            for (int i = 0; i < 5; i++) {
                clock.advance(Duration.ofSeconds(20));
                assertThat(first.renew()).isTrue();
            }
            // 100 s after it was taken, 20 s after the last renewal: still live
            assertThatThrownBy(() -> acquire(s, clock, B))
                    .isInstanceOf(WriterLeaseHeldException.class)
                    .hasMessageContaining("expires at 2026-12-07T17:02:10Z");
            first.close();
            WriterLease second = acquire(s, clock, B);
            assertThat(second.epoch()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void anExpiredLeaseIsTakenOverAndTheOldHolderCanNeitherRenewNorPassTheFence(String kind)
            throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            WriterLease paused = acquire(s, clock, A);
            clock.advance(Duration.ofSeconds(31)); // the holder was paused past its expiry
            WriterLease taker = acquire(s, clock, B);
            assertThat(taker.epoch()).isEqualTo(2);
            assertThat(paused.renew()).isFalse();
            assertThat(paused.lost()).isTrue();
            assertThatThrownBy(paused::check)
                    .isInstanceOf(WriterFencedException.class)
                    .hasMessageContaining("lease epoch 1")
                    .hasMessageContaining("took it over at epoch 2");
            taker.check();
            // the lost holder's release leaves the taker's lease alone
            paused.close();
            assertThat(taker.renew()).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void aFencedWriterCommitsNothingToTheTable(String kind) throws Exception {
        TestClock clock = new TestClock();
        TableLayout l =
                TestLayouts.of(
                        "t",
                        "d Date, id UInt64, s String",
                        "id",
                        "toYYYYMM(d)",
                        io.github.s3mergetree.engine.merge.MergingMode.ORDINARY,
                        TableSettings.defaults(),
                        PartWriterOptions.defaults());
        String name = "t" + tables++;
        try (TableStore s = TestStores.of(kind, tmp, server, "leases", name)) {
            MergeTreeTable old = MergeTreeTable.open(s, l, Clock.systemUTC());
            WriterLease paused = acquire(s, clock, A);
            old.setCommitFence(paused.fence().on(s));
            old.commit(old.writeTemporaryParts(InsertWorker.batch(l, 0)), "old-0");
            assertThat(old.sequence()).isEqualTo(1);

            List<TemporaryPart> pending = old.writeTemporaryParts(InsertWorker.batch(l, 1));
            clock.advance(Duration.ofMinutes(1));
            WriterLease taker = acquire(s, clock, B);
            assertThatThrownBy(() -> old.commit(pending, "old-1"))
                    .isInstanceOf(WriterFencedException.class);
            MergeTreeTable reread = MergeTreeTable.open(s, l, Clock.systemUTC());
            assertThat(reread.sequence()).isEqualTo(1);
            assertThat(reread.isCommitted("old-1")).isFalse();

            reread.setCommitFence(taker.fence().on(s));
            reread.commit(reread.writeTemporaryParts(InsertWorker.batch(l, 1)), "new-1");
            assertThat(reread.sequence()).isEqualTo(2);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void ofManyTakersOfAnExpiredLeaseExactlyOneWins(String kind) throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            acquire(s, clock, A);
            clock.advance(Duration.ofMinutes(5));
            int takers = 8;
            ExecutorService pool = Executors.newFixedThreadPool(takers);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<Long>> results = new ArrayList<>();
                for (int i = 0; i < takers; i++) {
                    WriterLease.Holder h = new WriterLease.Holder("taker-" + i, 100 + i, "x");
                    Callable<Long> take =
                            () -> {
                                go.await();
                                try {
                                    return acquire(s, clock, h).epoch();
                                } catch (WriterLeaseHeldException e) {
                                    return -1L;
                                }
                            };
                    results.add(pool.submit(take));
                }
                go.countDown();
                List<Long> epochs = new ArrayList<>();
                for (Future<Long> f : results) {
                    epochs.add(f.get());
                }
                assertThat(epochs.stream().filter(e -> e > 0).toList()).containsExactly(2L);
            } finally {
                pool.shutdownNow();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void aLiveLeaseOfAHolderKnownDeadIsTakenOverWithoutWaiting(String kind) throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            acquire(s, clock, A);
            WriterLease taker = WriterLease.acquire(s, KEY, TTL, clock, B, h -> h.equals(A));
            assertThat(taker.epoch()).isEqualTo(2);
            assertThat(new String(s.read(KEY), StandardCharsets.UTF_8))
                    .contains("\"host\":\"host-b\"", "\"epoch\":2");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"posix", "s3"})
    void anAdoptedLeaseKeepsTheFenceOfTheJobItsPreviousHolderStarted(String kind) throws Exception {
        TestClock clock = new TestClock();
        try (TableStore s = store(kind)) {
            WriterLease.Fence jobs = acquire(s, clock, A).fence();
            clock.advance(Duration.ofMinutes(1)); // its process died; its job runs on
            WriterLease adopter =
                    WriterLease.acquire(
                            s, KEY, TTL, clock, B, WriterLease.Liveness.NEVER_DEAD, true);
            assertThat(adopter.fence()).isEqualTo(jobs);
            jobs.on(s).check(); // the job still commits
            assertThat(new String(s.read(KEY), StandardCharsets.UTF_8)).contains("host-b");
            assertThatThrownBy(() -> acquire(s, clock, A))
                    .isInstanceOf(WriterLeaseHeldException.class)
                    .hasMessageContaining("host host-b");
        }
    }
}
