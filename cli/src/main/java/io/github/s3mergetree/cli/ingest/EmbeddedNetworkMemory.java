package io.github.s3mergetree.cli.ingest;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.TaskManagerOptions;

/**
 * Sizes the network memory of the command's embedded MiniCluster for the ingest job instead of
 * Flink's local default of 64 MB.
 *
 * <p>Why: the TaskManager allocates its whole network buffer pool as direct memory when it starts,
 * on the thread that starts the cluster, and the JDK zeroes it: on the 2-core test VM that was
 * ~0.28 CPU-s of the command's main thread (async-profiler, {@code NetworkBufferPool.<init>})
 * before the first row, on the path of the wall-clock. The ingest job has one network edge (the
 * sink's writers to its committers) and needs a few hundred 32-KiB buffers at parallelism 8.
 *
 * <p>The size is the buffers of {@value #EDGES} all-to-all edges at the job's parallelism (per
 * receiving subtask {@code 2 x p} exclusive + 8 floating buffers, per sending subtask {@code p +
 * 1}), at least {@link #FLOOR}; where that reaches Flink's own default (parallelism 14 and up),
 * nothing is set. A configuration that already names a network memory option ({@code
 * --flink-config}) is left as it is.
 */
final class EmbeddedNetworkMemory {

    /** The all-to-all edges the size allows for (the ingest job has one). */
    static final int EDGES = 3;

    /** The smallest size set. */
    static final MemorySize FLOOR = MemorySize.ofMebiBytes(16);

    /** Flink's network memory of a local (MiniCluster) TaskManager when none is configured. */
    static final MemorySize FLINK_LOCAL_DEFAULT = MemorySize.ofMebiBytes(64);

    private EmbeddedNetworkMemory() {}

    /**
     * Sets {@code taskmanager.memory.network.min/max} for a MiniCluster running the ingest at
     * {@code parallelism}, unless {@code conf} sets any network memory option already or the size
     * would not be below Flink's local default. Returns the size set, or null.
     */
    static MemorySize configure(Configuration conf, int parallelism) {
        if (conf.contains(TaskManagerOptions.NETWORK_MEMORY_MIN)
                || conf.contains(TaskManagerOptions.NETWORK_MEMORY_MAX)
                || conf.contains(TaskManagerOptions.NETWORK_MEMORY_FRACTION)) {
            return null;
        }
        MemorySize size = sizeFor(parallelism, conf.get(TaskManagerOptions.MEMORY_SEGMENT_SIZE));
        if (size.compareTo(FLINK_LOCAL_DEFAULT) >= 0) {
            return null;
        }
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, size);
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, size);
        return size;
    }

    /** The network memory for {@link #EDGES} all-to-all edges at {@code parallelism}, >= FLOOR. */
    static MemorySize sizeFor(int parallelism, MemorySize segment) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, not " + parallelism);
        }
        long p = parallelism;
        long receiving = p * (2 * p + 8);
        long sending = p * (p + 1);
        long bytes = EDGES * (receiving + sending) * segment.getBytes();
        return new MemorySize(Math.max(FLOOR.getBytes(), bytes));
    }
}
