package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.table.WriterFencedException;
import io.github.s3mergetree.engine.table.WriterLease;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run lock of an ingest is its writer lease in the table's store: a second holder of the same
 * ingest is refused with one line while the first runs, the state a later holder sees is the one
 * the previous holder left (read again after the lease is taken), and a holder whose lease was
 * taken over cannot write the ingest's state any more.
 */
class IngestStateLeaseTest {
    @TempDir Path tmp;

    @Test
    void aSecondRunIsRefusedWhileTheFirstHoldsTheLeaseAndSeesItsStateAfterwards() throws Exception {
        Path table = tmp.resolve("table");
        Files.createDirectories(table);
        try (IngestState first = IngestState.open(table, "k");
                IngestState second = IngestState.open(table, "k")) {
            IngestState.RunLock held = first.lockRun();
            assertThatThrownBy(second::lockRun)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("this ingest is already running: the table ")
                    .hasMessageContaining("pid " + ProcessHandle.current().pid())
                    .hasMessageContaining("expires at ")
                    .hasMessageNotContaining("\n");
            first.setPartLogStart(7);
            first.markFinished();
            held.close();

            // opened before the first finished: reads the state again once it holds the lease
            assertThat(second.finished()).isFalse();
            try (IngestState.RunLock mine = second.lockRun()) {
                assertThat(second.finished()).isTrue();
                assertThat(second.partLogStart()).contains(7L);
                assertThat(mine.fence().epoch()).isEqualTo(2);
            }
        }
    }

    @Test
    void aRunWhoseLeaseWasTakenOverCannotWriteTheIngestState() throws Exception {
        Path table = tmp.resolve("table");
        Files.createDirectories(table);
        try (IngestState state = IngestState.open(table, "k");
                IngestState.RunLock lock = state.lockRun()) {
            Path lease = table.resolve("s3mergetree_metadata/ingest-k/lease.json");
            // another run took the lease over (this one was paused past its expiry)
            String taken =
                    Files.readString(lease, StandardCharsets.UTF_8)
                            .replace(
                                    "\"epoch\":" + lock.fence().epoch(),
                                    "\"epoch\":" + (lock.fence().epoch() + 1));
            Files.writeString(lease, taken, StandardCharsets.UTF_8);
            assertThatThrownBy(() -> state.setPartLogStart(3))
                    .isInstanceOf(WriterFencedException.class)
                    .hasMessageContaining("took it over at epoch 2");
            assertThatThrownBy(state::markFinished).isInstanceOf(WriterFencedException.class);
            WriterLease.Fence f = lock.fence();
            assertThat(f.key()).isEqualTo("s3mergetree_metadata/ingest-k/lease.json");
        }
        try (IngestState reread = IngestState.open(table, "k")) {
            assertThat(reread.finished()).isFalse();
        }
    }
}
