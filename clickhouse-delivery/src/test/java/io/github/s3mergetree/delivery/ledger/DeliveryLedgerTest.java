package io.github.s3mergetree.delivery.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.LocalFileObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectStoreClient;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.WriteCondition;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delivery ledger's records and their compaction into a summary: what the target received stays
 * the same through a compaction, sequence numbers go on counting (a RESTORE id is never reused),
 * the open delivery is never compacted, per-delivery directories of resolved deliveries go with
 * their records, and a reader that lists before a concurrent compaction deleted what it lists reads
 * again instead of returning a ledger that lacks delivered parts.
 */
class DeliveryLedgerTest {
    private static final String TARGET = "t1";

    @TempDir Path dir;

    private TableStore files() {
        return TableStore.local(dir.toString());
    }

    private static DeliveredPart part(String name, long rows) {
        return new DeliveredPart(
                PartName.tryParse(name).orElseThrow(),
                rows,
                rows * 10,
                UUID.nameUUIDFromBytes(name.getBytes(StandardCharsets.UTF_8)));
    }

    /** Delivery {@code i} carries part {@code 2008_i_i_0} of {@code i} rows, delivered if odd. */
    private DeliveryLedger deliveries(int n) throws IOException {
        DeliveryLedger l = DeliveryLedger.load(files(), TARGET);
        for (int i = 1; i <= n; i++) {
            DeliveryIntent intent =
                    l.begin("restore", List.of(part("2008_" + i + "_" + i + "_0", i)), 100, 1000);
            assertThat(intent.sequence()).isEqualTo(i);
            Files.createDirectories(dir.resolve(l.deliveryDirectory(intent)).resolve("p"));
            Files.writeString(
                    dir.resolve(l.deliveryDirectory(intent)).resolve("p/checksums.txt"), "x");
            l.complete(intent, i % 2 == 1, "test");
        }
        return l;
    }

    @Test
    void compactionKeepsWhatTheTargetReceivedAndTheSequence() throws Exception {
        DeliveryLedger l = deliveries(5);
        Map<PartName, DeliveredPart> before = l.deliveredParts();
        assertThat(before).hasSize(3);

        assertThat(l.compact(10)).as("fewer resolved deliveries than asked").isZero();
        assertThat(l.compact(5)).isEqualTo(5);

        Path ledgerDir = dir.resolve(DeliveryLedger.directory(TARGET));
        try (var list = Files.list(ledgerDir)) {
            assertThat(list.map(p -> p.getFileName().toString()).toList())
                    .as("records and delivery directories replaced by the summary")
                    .containsExactly("0000000005.summary");
        }
        DeliveryLedger reread = DeliveryLedger.load(files(), TARGET);
        assertThat(reread.deliveredParts()).isEqualTo(before);
        assertThat(reread.deliveredRows()).isEqualTo(1 + 3 + 5);
        assertThat(reread.summarizedThrough()).isEqualTo(5);
        assertThat(reread.isResolved(3)).isTrue();
        assertThat(reread.isResolved(6)).isFalse();
        assertThat(reread.pending()).isEmpty();
        DeliveryIntent next = reread.begin("restore", List.of(part("2008_6_6_0", 6)), 100, 1000);
        assertThat(next.sequence()).as("ids are never reused").isEqualTo(6);
        assertThat(next.id()).startsWith("s3mt-" + TARGET + "-").endsWith("-6");
        assertThat(next.parts().get(0).uuid())
                .as("part UUIDs come from the delivery's id")
                .isEqualTo(
                        io.github.s3mergetree.delivery.ledger.DeliveryIds.partUuid(
                                next.id(), next.parts().get(0).name()));
        reread.complete(next, true, "test");
        for (int i = 7; i <= 8; i++) {
            reread.complete(
                    reread.begin("restore", List.of(part("2008_" + i + "_" + i + "_0", i)), 1, 1),
                    true,
                    "test");
        }
        // a second compaction builds on the first summary
        assertThat(reread.compact(3)).isEqualTo(8);
        DeliveryLedger third = DeliveryLedger.load(files(), TARGET);
        assertThat(third.deliveredParts()).hasSize(6);
        assertThat(third.deliveredRows()).isEqualTo(1 + 3 + 5 + 6 + 7 + 8);
        try (var list = Files.list(ledgerDir)) {
            assertThat(list.map(p -> p.getFileName().toString()).toList())
                    .containsExactly("0000000008.summary");
        }
    }

    @Test
    void onlyATargetChecksProbeIsACheckLeftover() {
        assertThat(DeliveryLedger.isCheckLeftover(DeliveryLedger.probePath("db-t-0123456789")))
                .isTrue();
        assertThat(DeliveryLedger.probePath("db-t-0123456789"))
                .isEqualTo("s3mergetree_metadata/deliveries/db-t-0123456789/probe.txt");
        // directory markers on its path, as stores that list directories show them
        for (String marker :
                List.of(
                        "s3mergetree_metadata/",
                        "s3mergetree_metadata/deliveries/",
                        "s3mergetree_metadata/deliveries/db-t-0123456789/")) {
            assertThat(DeliveryLedger.isCheckLeftover(marker)).as(marker).isTrue();
        }
        for (String other :
                List.of(
                        "s3mergetree_metadata/deliveries/db-t-0123456789/0000000001.intent",
                        "s3mergetree_metadata/deliveries/probe.txt",
                        "s3mergetree_metadata/deliveries/a/b/probe.txt",
                        "s3mergetree_metadata/table.sql",
                        "s3mergetree_metadata/log/",
                        "s3mergetree_metadata/deliveries/db-t/0000000001/",
                        "x/s3mergetree_metadata/deliveries/db-t/probe.txt",
                        "probe.txt")) {
            assertThat(DeliveryLedger.isCheckLeftover(other)).as(other).isFalse();
        }
    }

    @Test
    void theOpenDeliveryIsNeverCompacted() throws Exception {
        DeliveryLedger l = deliveries(3);
        DeliveryIntent open = l.begin("restore", List.of(part("2008_4_4_0", 4)), 100, 1000);
        Files.createDirectories(dir.resolve(l.deliveryDirectory(open)));
        Files.writeString(dir.resolve(l.deliveryDirectory(open)).resolve("table.sql"), "x");

        assertThat(l.compact(1)).isEqualTo(3);

        DeliveryLedger reread = DeliveryLedger.load(files(), TARGET);
        assertThat(reread.pending()).map(DeliveryIntent::id).contains(open.id());
        assertThat(Files.exists(dir.resolve(l.deliveryDirectory(open)).resolve("table.sql")))
                .as("the open delivery's own files stay")
                .isTrue();
        assertThat(reread.deliveredParts()).hasSize(2);
        reread.complete(reread.pending().orElseThrow(), true, "test");
        assertThat(DeliveryLedger.load(files(), TARGET).deliveredParts()).hasSize(3);
    }

    @Test
    void aReaderListingBeforeAConcurrentCompactionReadsAgain() throws Exception {
        DeliveryLedger l = deliveries(4);
        Map<PartName, DeliveredPart> before = l.deliveredParts();
        String ledgerDir = DeliveryLedger.directory(TARGET) + "/";
        ObjectStoreClient real = LocalFileObjectStoreClient.of(dir.toString());
        ObjectStoreClient.ListPage staleListing = real.list(ledgerDir, "/", null, null, 1000);
        l.compact(1); // another deliverer, between this reader's listing and its reads
        AtomicInteger listings = new AtomicInteger();
        TableStore staleOnce =
                TableStore.of(
                        new StaleListing(
                                real,
                                ledgerDir,
                                staleListing,
                                () -> listings.getAndIncrement() == 0),
                        "",
                        dir.toString());
        DeliveryLedger reread = DeliveryLedger.load(staleOnce, TARGET);
        assertThat(listings.get()).as("read again").isEqualTo(2);
        assertThat(reread.deliveredParts()).isEqualTo(before);

        TableStore alwaysStale =
                TableStore.of(
                        new StaleListing(real, ledgerDir, staleListing, () -> true),
                        "",
                        dir.toString());
        assertThatThrownBy(() -> DeliveryLedger.load(alwaysStale, TARGET))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("kept changing");
    }

    /**
     * A client whose listing of one directory is an earlier one while {@code stale} says so (a
     * listing made before a concurrent compaction); every other call goes to the real client.
     */
    private static final class StaleListing implements ObjectStoreClient {
        private final ObjectStoreClient real;
        private final String directory;
        private final ListPage staleListing;
        private final BooleanSupplier stale;

        StaleListing(
                ObjectStoreClient real,
                String directory,
                ListPage staleListing,
                BooleanSupplier stale) {
            this.real = real;
            this.directory = directory;
            this.staleListing = staleListing;
            this.stale = stale;
        }

        @Override
        public ListPage list(
                String prefix, String startAfter, String continuationToken, int maxKeys)
                throws IOException {
            return real.list(prefix, startAfter, continuationToken, maxKeys);
        }

        @Override
        public ListPage list(
                String prefix,
                String delimiter,
                String startAfter,
                String continuationToken,
                int maxKeys)
                throws IOException {
            if (prefix.equals(directory) && "/".equals(delimiter) && stale.getAsBoolean()) {
                return staleListing;
            }
            return real.list(prefix, delimiter, startAfter, continuationToken, maxKeys);
        }

        @Override
        public ObjectSummary head(String key) throws IOException {
            return real.head(key);
        }

        @Override
        public InputStream get(String key, String etag, long start, long endExclusive)
                throws IOException {
            return real.get(key, etag, start, endExclusive);
        }

        @Override
        public String put(String key, byte[] content, WriteCondition condition) throws IOException {
            return real.put(key, content, condition);
        }

        @Override
        public void delete(String key) throws IOException {
            real.delete(key);
        }

        @Override
        public boolean supportsConditionalWrites() {
            return real.supportsConditionalWrites();
        }

        @Override
        public String describe(String key) {
            return real.describe(key);
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
