package io.github.s3mergetree.delivery.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.store.LocalTableFiles;
import io.github.s3mergetree.delivery.store.TableFiles;
import io.github.s3mergetree.engine.part.PartName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
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

    private TableFiles files() {
        return new LocalTableFiles(dir);
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
        TableFiles real = files();
        String ledgerDir = DeliveryLedger.directory(TARGET);
        List<String> staleListing = real.listFiles(ledgerDir);
        l.compact(1); // another deliverer, between this reader's listing and its reads
        AtomicInteger listings = new AtomicInteger();
        TableFiles staleOnce =
                new Delegating(real) {
                    @Override
                    public List<String> listFiles(String d) throws IOException {
                        if (d.equals(ledgerDir) && listings.getAndIncrement() == 0) {
                            return staleListing;
                        }
                        return super.listFiles(d);
                    }
                };
        DeliveryLedger reread = DeliveryLedger.load(staleOnce, TARGET);
        assertThat(listings.get()).as("read again").isEqualTo(2);
        assertThat(reread.deliveredParts()).isEqualTo(before);

        TableFiles alwaysStale =
                new Delegating(real) {
                    @Override
                    public List<String> listFiles(String d) throws IOException {
                        return d.equals(ledgerDir) ? staleListing : super.listFiles(d);
                    }
                };
        assertThatThrownBy(() -> DeliveryLedger.load(alwaysStale, TARGET))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("kept changing");
    }

    /** A {@link TableFiles} passing every call on to another. */
    private static class Delegating implements TableFiles {
        private final TableFiles d;

        Delegating(TableFiles d) {
            this.d = d;
        }

        @Override
        public Optional<byte[]> read(String path) throws IOException {
            return d.read(path);
        }

        @Override
        public InputStream open(String path) throws IOException {
            return d.open(path);
        }

        @Override
        public long size(String path) throws IOException {
            return d.size(path);
        }

        @Override
        public void write(String path, byte[] content) throws IOException {
            d.write(path, content);
        }

        @Override
        public boolean createIfAbsent(String path, byte[] content) throws IOException {
            return d.createIfAbsent(path, content);
        }

        @Override
        public void delete(String path) throws IOException {
            d.delete(path);
        }

        @Override
        public List<String> listFiles(String dir) throws IOException {
            return d.listFiles(dir);
        }

        @Override
        public List<String> listDirectories(String dir) throws IOException {
            return d.listDirectories(dir);
        }

        @Override
        public String describe(String path) {
            return d.describe(path);
        }
    }
}
