package io.github.s3mergetree.sink.mergetree.writer;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.annotation.Internal;

/**
 * How many sink writers are open in this JVM (a TaskManager runs several subtasks): they share its
 * heap, so each sizes its insert blocks for its share ({@link InsertBlockSize#sized}).
 */
@Internal
final class WritersInJvm {
    private static final AtomicInteger OPEN = new AtomicInteger();

    private WritersInJvm() {}

    /** Counts a writer opened. */
    static void opened() {
        OPEN.incrementAndGet();
    }

    /** Counts a writer closed. */
    static void closed() {
        OPEN.decrementAndGet();
    }

    /** The writers open now, at least 1. */
    static int open() {
        return Math.max(1, OPEN.get());
    }
}
