package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.DeliveryCliOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.flink.configuration.Configuration;

/**
 * Delivers an ingest's commits into a live server from the command's own process while the job
 * runs: a daemon thread runs a delivery round every {@code interval} (each round sends whatever was
 * committed since the last, exactly once by the delivery ledger), and {@link #finish} runs a last
 * round after the job ended. Rounds that fail are retried at the next interval; the last error is
 * thrown by {@link #finish} if the last round fails too. {@link #open} opens the delivery before
 * the job starts.
 */
final class ClientDelivery implements AutoCloseable {
    /** Tries of the last round before {@link #finish} gives up with its error. */
    static final int LAST_ROUND_ATTEMPTS = 3;

    private final PartDelivery delivery;
    private final PrintStream err;
    private final Duration interval;
    private final Thread thread;
    private final AtomicReference<Exception> lastError = new AtomicReference<>();
    private final Object wake = new Object();
    private volatile boolean stop;
    private long parts;
    private long rows;

    ClientDelivery(PartDelivery delivery, PrintStream err, Duration interval) {
        this.delivery = delivery;
        this.err = err;
        this.interval = interval;
        this.thread = new Thread(this::loop, "s3mergetree-delivery");
        this.thread.setDaemon(true);
    }

    /**
     * The delivery of the ingest's table into the server {@code d} names, opened before the job
     * starts (so a target that does not fit fails first). The server reads an S3 table with the
     * table's own keys unless {@code --clickhouse-s3-access-key} says otherwise.
     */
    static DeliveryCoordinator.Opened open(
            DeliveryCliOptions d, IngestOptions o, TableStorage storage, TableSchema table)
            throws IOException {
        Configuration tableOptions = new Configuration();
        if (o.tableOnS3() && o.tableS3().accessKey() != null) {
            tableOptions.set(MergeTreeSinkOptions.TABLE_S3_ACCESS_KEY, o.tableS3().accessKey());
            tableOptions.set(MergeTreeSinkOptions.TABLE_S3_SECRET_KEY, o.tableS3().secretKey());
        }
        return d.open(storage, table, tableOptions);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        while (!stop) {
            round();
            try {
                synchronized (wake) {
                    if (!stop) {
                        wake.wait(interval.toMillis());
                    }
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Stops the loop without interrupting a round in flight: an interrupt aborted the round's S3
     * requests ("Thread was interrupted") and left a broken connection that failed the last round's
     * next request (Broken pipe), so a finished ingest exited 1 though everything was delivered.
     */
    private void stopLoop() {
        stop = true;
        synchronized (wake) {
            wake.notifyAll();
        }
    }

    private synchronized void round() {
        try {
            DeliveryResult r = delivery.deliverPending();
            if (!r.isEmpty()) {
                parts += r.parts();
                rows += r.rows();
                err.printf(
                        Locale.ROOT,
                        "delivered %d parts (%d rows) into %s in %.1f s%n",
                        r.parts(),
                        r.rows(),
                        delivery.target(),
                        r.latencyMillis() / 1e3);
            }
            lastError.set(null);
        } catch (Exception e) {
            if (lastError.getAndSet(e) == null) {
                err.println(
                        "delivery into "
                                + delivery.target()
                                + " failed, retrying: "
                                + e.getMessage());
            }
        }
    }

    /** Stops the loop, runs a last round and returns the totals {parts, rows}. */
    long[] finish() throws IOException {
        stopLoop();
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // the last round, tried again after a failure like every round of the loop (each round
        // delivers exactly once by the ledger)
        for (int attempt = 0; attempt < LAST_ROUND_ATTEMPTS; attempt++) {
            round();
            if (lastError.get() == null || Thread.currentThread().isInterrupted()) {
                break;
            }
            try {
                Thread.sleep(1000L * (attempt + 1));
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Exception e = lastError.get();
        if (e != null) {
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
        return new long[] {parts, rows};
    }

    @Override
    public void close() {
        stopLoop();
    }
}
