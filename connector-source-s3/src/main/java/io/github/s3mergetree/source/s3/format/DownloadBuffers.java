package io.github.s3mergetree.source.s3.format;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.annotation.VisibleForTesting;

/**
 * A split reader's pool of download arrays: the arrays that whole small objects are prefetched into
 * and that a Parquet row group's column chunks are downloaded into, taken for one object or row
 * group and given back when its reader no longer reads them.
 *
 * <p>Why: these arrays are tens of MB each (a 20-MB object, a 36-MB row group), so every fresh one
 * is a humongous allocation that the JVM zeroes and the kernel faults in page by page: 0.8–1.1
 * CPU-s of a 2.4M-row ingest (async-profiler, BENCHMARKS.md), for bytes that the next download
 * overwrites anyway. An array is given back only by the reader that owns it and only after nothing
 * reads it (a failed or abandoned download keeps its array out of the pool, since a cancelled
 * ranged GET may still be writing it).
 *
 * <p>At most {@code maxRetainedBytes} are kept between uses; arrays are rounded up in size (to an
 * eighth of their power of two) so that objects of similar sizes share them. Thread-safe: arrays
 * are taken on download threads and given back on the fetcher's.
 */
@Internal
public final class DownloadBuffers {
    private static final int MIN_ROUNDING = 64 * 1024;

    private final long maxRetainedBytes;
    private final List<byte[]> free = new ArrayList<>();
    private long retainedBytes;
    private long reuses;
    private boolean poisonGiven;

    DownloadBuffers(long maxRetainedBytes) {
        if (maxRetainedBytes < 0) {
            throw new IllegalArgumentException("maxRetainedBytes " + maxRetainedBytes + " < 0");
        }
        this.maxRetainedBytes = maxRetainedBytes;
    }

    /**
     * An array of at least {@code length} bytes: the smallest free one that fits, else a new one
     * (contents undefined, the caller overwrites {@code [0, length)}).
     */
    synchronized byte[] take(int length) {
        int best = -1;
        for (int i = 0; i < free.size(); i++) {
            int size = free.get(i).length;
            if (size >= length && (best < 0 || size < free.get(best).length)) {
                best = i;
            }
        }
        if (best >= 0) {
            byte[] a = free.remove(best);
            retainedBytes -= a.length;
            reuses++;
            return a;
        }
        return new byte[roundUp(length)];
    }

    /** Gives back an array from {@link #take}; kept if the pool has room, else left to the GC. */
    synchronized void give(byte[] array) {
        if (poisonGiven) {
            java.util.Arrays.fill(array, (byte) 0x5A);
        }
        if (retainedBytes + array.length > maxRetainedBytes) {
            return;
        }
        for (byte[] a : free) {
            if (a == array) {
                throw new IllegalStateException("an array given back twice");
            }
        }
        free.add(array);
        retainedBytes += array.length;
    }

    /** How many times {@link #take} returned a given-back array. */
    @VisibleForTesting
    public synchronized long reuses() {
        return reuses;
    }

    /**
     * Tests: overwrite every array given back, so that a reader still reading one after giving it
     * back decodes garbage instead of the right values by luck.
     */
    @VisibleForTesting
    public synchronized void poisonGivenArrays() {
        poisonGiven = true;
    }

    /** Bytes kept in free arrays. */
    @VisibleForTesting
    public synchronized long retainedBytes() {
        return retainedBytes;
    }

    public static int roundUp(int length) {
        if (length <= MIN_ROUNDING) {
            return length;
        }
        long step = Math.max(MIN_ROUNDING, Integer.highestOneBit(length) / 8);
        long rounded = (length + step - 1) / step * step;
        return (int) Math.min(rounded, Integer.MAX_VALUE - 16);
    }
}
