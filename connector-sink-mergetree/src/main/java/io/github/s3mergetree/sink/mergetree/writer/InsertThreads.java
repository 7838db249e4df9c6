package io.github.s3mergetree.sink.mergetree.writer;

import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.part.TemporaryPart;
import io.github.s3mergetree.engine.table.InsertWriter;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;

/**
 * A writer's insert threads ({@code max_insert_threads}): each sorts an insert block, splits it by
 * partition and writes its temporary parts while the writer fills the next block. Blocks are
 * harvested in the order they were submitted. One thread more than {@code max_insert_threads}
 * exists for the partial block of a checkpoint or of the end of the input, written beside those in
 * flight since the writer waits for all of them then (the wait is the longest write, not their
 * sum).
 */
@Internal
final class InsertThreads implements AutoCloseable {
    /** An insert block written: its parts and how long each step took. */
    record Written(
            List<TemporaryPart> parts,
            InsertWriter.Timings timings,
            long bytes,
            long retained,
            long startedNanos) {}

    private record InFlight(
            Future<List<TemporaryPart>> parts,
            InsertWriter.Timings timings,
            long bytes,
            long retained,
            long startedNanos) {}

    private final InsertWriter writer;
    private final int threads;
    private final ExecutorService pool;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();

    /**
     * Starts {@code threads + 1} daemon threads named {@code <namePrefix>-<n>} writing with {@code
     * writer}.
     */
    InsertThreads(InsertWriter writer, int threads, String namePrefix) {
        if (threads < 1) {
            throw new IllegalArgumentException(
                    "max_insert_threads must be positive, got " + threads);
        }
        this.writer = writer;
        this.threads = threads;
        AtomicInteger n = new AtomicInteger();
        this.pool =
                Executors.newFixedThreadPool(
                        threads + 1,
                        r -> {
                            Thread t = new Thread(r, namePrefix + "-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        });
    }

    /**
     * Whether a block can be submitted without harvesting one first: fewer than {@code
     * max_insert_threads} blocks in flight, or one more for the final block of a flush.
     */
    boolean hasRoom(boolean flushing) {
        return inFlight.size() < (flushing ? threads + 1 : threads);
    }

    /** Whether no block is in flight. */
    boolean isEmpty() {
        return inFlight.isEmpty();
    }

    /**
     * Starts writing {@code block} (of {@code bytes} bytes, holding {@code retained} bytes of heap)
     * into temporary parts named for {@code purpose}. The caller makes room first ({@link
     * #hasRoom}).
     */
    void submit(BlockChunks block, String purpose, long bytes, long retained) {
        InsertWriter.Timings timings = new InsertWriter.Timings();
        Future<List<TemporaryPart>> f = pool.submit(() -> writer.write(block, purpose, timings));
        inFlight.add(new InFlight(f, timings, bytes, retained, System.nanoTime()));
    }

    /**
     * Waits for the oldest block in flight and returns its parts; a failure of its write is thrown
     * as it was (an {@link IOException} or a {@link RuntimeException}).
     *
     * @throws IllegalStateException when no block is in flight
     */
    Written harvestOldest() throws IOException, InterruptedException {
        InFlight f = inFlight.poll();
        if (f == null) {
            throw new IllegalStateException("no insert block is being written");
        }
        try {
            return new Written(
                    f.parts().get(), f.timings(), f.bytes(), f.retained(), f.startedNanos());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException("writing an insert block failed", cause);
        }
    }

    /**
     * The heap the blocks in flight hold: each its retained heap plus at most a sorted copy of it
     * (exact-size arrays, about its byte size) plus {@code writerBuffersPerBlock} of compression
     * buffers.
     */
    long heldBytes(long writerBuffersPerBlock) {
        long held = 0;
        for (InFlight f : inFlight) {
            held += f.retained() + f.bytes() + writerBuffersPerBlock;
        }
        return held;
    }

    /** What {@link #stop} found: whether every thread ended, and the parts nobody harvested. */
    record Stopped(boolean terminated, List<TemporaryPart> unharvested) {}

    /**
     * Stops the threads (interrupting the writes), waiting up to {@code timeout} for them, and
     * returns the parts of the blocks that were written but not harvested: nobody will commit them.
     */
    Stopped stop(long timeout, TimeUnit unit) throws InterruptedException {
        pool.shutdownNow();
        boolean stopped = pool.awaitTermination(timeout, unit);
        List<TemporaryPart> unharvested = new ArrayList<>();
        for (InFlight f : inFlight) {
            if (f.parts().isDone() && !f.parts().isCancelled()) {
                try {
                    unharvested.addAll(f.parts().get());
                } catch (ExecutionException | InterruptedException | RuntimeException ignored) {
                    // nothing was written, or its parts were removed by the writer
                }
            }
        }
        inFlight.clear();
        return new Stopped(stopped, unharvested);
    }

    @Override
    public void close() throws InterruptedException {
        stop(30, TimeUnit.SECONDS);
    }
}
