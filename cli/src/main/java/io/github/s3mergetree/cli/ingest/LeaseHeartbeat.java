package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.table.WriterLease;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews a {@link WriterLease} every {@code interval} on a daemon thread while an ingest runs, so
 * that the lease stays live however long the job takes. A renewal that fails on a store error is
 * tried again at the next beat (the lease lasts three beats); one that finds the lease taken over
 * stops the beats and is logged: the job's commits are fenced from then on.
 */
final class LeaseHeartbeat implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaseHeartbeat.class);

    private final ScheduledExecutorService beats;

    LeaseHeartbeat(WriterLease lease, Duration interval) {
        beats =
                Executors.newSingleThreadScheduledExecutor(
                        r -> {
                            Thread t = new Thread(r, "ingest-lease-heartbeat");
                            t.setDaemon(true);
                            return t;
                        });
        long ms = Math.max(1, interval.toMillis());
        beats.scheduleWithFixedDelay(() -> beat(lease), ms, ms, TimeUnit.MILLISECONDS);
    }

    private void beat(WriterLease lease) {
        try {
            if (!lease.renew()) {
                LOG.error(
                        "the writer lease {} was taken over by another run: this run commits"
                                + " nothing more",
                        lease.key());
                beats.shutdown();
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("renewing the writer lease {} failed; trying again", lease.key(), e);
        }
    }

    /** Stops the beats and waits for one in flight. */
    @Override
    public void close() {
        beats.shutdownNow();
        try {
            beats.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
