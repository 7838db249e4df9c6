package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.merge.MergingMode;
import io.github.s3mergetree.engine.part.PartWriterOptions;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.engine.testing.TestStores;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Removing a temporary part works on an interrupted thread, on S3: Flink interrupts a cancelled
 * task's threads (the task thread that closes the writer, the insert threads it shuts down), and
 * the AWS SDK refuses every call of an interrupted thread, so a cleanup on one left the {@code
 * tmp_*} objects of an abandoned part in the table. The thread's interrupt status is kept.
 */
class InterruptedCleanupTest {
    private static S3ProxyServer server;
    private static int tables;

    @BeforeAll
    static void start() throws Exception {
        server = new S3ProxyServer();
        server.createBucket("interrupts");
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
    }

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static TableLayout layout() {
        return TestLayouts.of(
                "t",
                "d Date, id UInt64, s String",
                "id",
                "toYYYYMM(d)",
                MergingMode.ORDINARY,
                TableSettings.defaults().withOldPartsLifetime(Duration.ZERO),
                PartWriterOptions.defaults());
    }

    private static List<String> keys(TableStore store) throws Exception {
        return store.list("").stream().map(ObjectSummary::key).toList();
    }

    @Test
    void aTemporaryPartIsRemovedByAnInterruptedThread() throws Exception {
        TableStore store = TestStores.s3(server.endpoint(), "interrupts", "t" + tables++ + "/");
        try (MergeTreeTable t = MergeTreeTable.open(store, layout(), Clock.systemUTC())) {
            List<TemporaryPart> parts = t.writeTemporaryParts(InsertWorker.batch(layout(), 0));
            assertThat(keys(store)).anyMatch(k -> k.contains("tmp_"));

            Thread.currentThread().interrupt();
            for (TemporaryPart p : parts) {
                p.abort();
            }
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt kept").isTrue();
            Thread.interrupted();
            assertThat(keys(store)).noneMatch(k -> k.contains("tmp_"));
        }
    }
}
