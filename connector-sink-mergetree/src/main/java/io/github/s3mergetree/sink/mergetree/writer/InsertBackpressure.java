package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertDelay;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.TooManyPartsException;
import java.io.IOException;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ClickHouse's insert delay as the writer's backpressure: after each insert block the writer asks
 * the table how long an insert into the block's partitions waits ({@link
 * MergeTreeTable#insertDelayMillis(List)}, the engine's one policy: {@link InsertDelay}, from
 * {@code parts_to_delay_insert} active parts in a partition) and sleeps that long; where the table
 * refuses the insert ({@code parts_to_throw_insert}, {@link TooManyPartsException}) the writer
 * waits for merges instead of failing, asking again every {@code max(100 ms, max_delay_to_insert)}.
 * Part counts come from the table's commit log state (no part is opened).
 */
@Internal
final class InsertBackpressure {
    private static final Logger LOG = LoggerFactory.getLogger(InsertBackpressure.class);

    /** How long an insert into the partitions of some parts waits: the table's policy. */
    @FunctionalInterface
    interface Policy {
        /**
         * @return milliseconds to wait (0: none)
         * @throws TooManyPartsException while the table refuses the insert
         */
        long delayMillis(List<TemporaryPart> parts) throws IOException;
    }

    /** Sleeps; returns the milliseconds slept. */
    @FunctionalInterface
    interface Sleeper {
        long sleep(long millis) throws InterruptedException;

        /** {@link Thread#sleep}, measured. */
        Sleeper THREAD =
                millis -> {
                    long t0 = System.nanoTime();
                    Thread.sleep(millis);
                    return (System.nanoTime() - t0) / 1_000_000;
                };
    }

    private final Policy policy;
    private final long retryMillis;
    private final Sleeper sleeper;
    private final String writer;
    private long sleptMillis;

    /**
     * Backpressure of {@code writer} (named in log messages) asking {@code policy}, retrying a
     * refused insert every {@code max(100, maxDelayToInsertMillis)} ms.
     */
    InsertBackpressure(Policy policy, long maxDelayToInsertMillis, Sleeper sleeper, String writer) {
        this.policy = policy;
        this.retryMillis = Math.max(100, maxDelayToInsertMillis);
        this.sleeper = sleeper;
        this.writer = writer;
    }

    /** The backpressure of inserts into {@code table}, sleeping with {@code sleeper}. */
    static InsertBackpressure of(MergeTreeTable table, Sleeper sleeper, String writer) {
        return new InsertBackpressure(
                table::insertDelayMillis,
                table.layout().settings().maxDelayToInsert().toMillis(),
                sleeper,
                writer);
    }

    /**
     * Waits as long as an insert into the partitions of {@code parts} would; returns the
     * milliseconds slept.
     */
    long afterInsert(List<TemporaryPart> parts) throws IOException, InterruptedException {
        if (parts.isEmpty()) {
            return 0;
        }
        long slept = 0;
        long waited = 0;
        while (true) {
            long delay;
            try {
                delay = policy.delayMillis(parts);
            } catch (TooManyPartsException e) {
                if (waited % 60_000 < retryMillis) {
                    LOG.warn(
                            "{} waits for merges: {} active parts in partition {} ({})",
                            writer,
                            e.parts(),
                            e.partitionId(),
                            e.getMessage());
                }
                slept += sleeper.sleep(retryMillis);
                waited += retryMillis;
                continue;
            }
            if (delay > 0) {
                slept += sleeper.sleep(delay);
            }
            sleptMillis += slept;
            return slept;
        }
    }

    /** Milliseconds slept so far. */
    long sleptMillis() {
        return sleptMillis;
    }
}
