package io.github.s3mergetree.sink.mergetree.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CommitToVisibleLatencyTest {
    private final AtomicLong now = new AtomicLong(1_000_000_000L);
    private final CommitToVisibleLatency latency = new CommitToVisibleLatency(now::get);

    private void advanceMillis(long ms) {
        now.addAndGet(ms * 1_000_000);
    }

    @Test
    void noDeliveryYetIsMinusOne() {
        assertThat(latency.lastMillis()).isEqualTo(-1);
        latency.committed();
        latency.roundSucceeded(false);
        assertThat(latency.lastMillis()).isEqualTo(-1);
    }

    @Test
    void theEarliestUndeliveredCommitStartsTheClock() {
        latency.committed();
        advanceMillis(300);
        latency.committed(); // a second commit while the first is pending
        advanceMillis(200);
        latency.roundSucceeded(true);
        assertThat(latency.lastMillis()).isEqualTo(500);
    }

    @Test
    void aFailedRoundKeepsTheClockRunning() {
        latency.committed();
        advanceMillis(1000);
        // the round failed: nothing recorded, the commit still pending
        advanceMillis(2000);
        latency.roundSucceeded(true);
        assertThat(latency.lastMillis()).isEqualTo(3000);
    }

    @Test
    void anEmptyRoundStopsTheClockWithoutRecording() {
        latency.committed();
        advanceMillis(100);
        latency.roundSucceeded(true);
        advanceMillis(5000);
        latency.committed();
        latency.roundSucceeded(false); // already carried by the earlier round
        advanceMillis(50);
        latency.committed();
        advanceMillis(70);
        latency.roundSucceeded(true);
        assertThat(latency.lastMillis()).isEqualTo(70);
    }
}
