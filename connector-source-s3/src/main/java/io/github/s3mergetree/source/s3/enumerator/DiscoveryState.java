package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.objectstore.KeyOrder;
import io.github.s3mergetree.objectstore.ObjectSummary;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a continuous source remembers about objects it has already turned into splits, kept bounded
 * as in ClickHouse's S3Queue (instead of Flink FileSource's ever-growing path set).
 *
 * <ul>
 *   <li>{@link DiscoveryMode#ORDERED}: keys arrive in lexicographic order; only the greatest key
 *       discovered so far is kept, and listings start after it. Keys compare as S3 lists them
 *       ({@link KeyOrder}: by UTF-8 bytes, not by Java's UTF-16 order).
 *   <li>{@link DiscoveryMode#UNORDERED}: recently discovered keys with their discovery time, at
 *       most {@code limit} of them (oldest forgotten first) and for at most {@code ttlMillis} (0:
 *       no TTL). A forgotten key that is still in the bucket is read again, so {@code limit} must
 *       exceed the number of objects that stay under the pattern.
 * </ul>
 *
 * Not thread-safe: used from the enumerator's coordinator thread only.
 */
@org.apache.flink.annotation.Internal
public final class DiscoveryState {
    private final DiscoveryMode mode;
    private final int limit;
    private final long ttlMillis;
    private String lastKey;
    private final LinkedHashMap<String, Long> tracked = new LinkedHashMap<>();

    public DiscoveryState(DiscoveryMode mode, int limit, long ttlMillis) {
        if (limit < 1) {
            throw new IllegalArgumentException(
                    "s3queue_tracked_files_limit must be >= 1, got " + limit);
        }
        if (ttlMillis < 0) {
            throw new IllegalArgumentException(
                    "s3queue_tracked_file_ttl_sec must be >= 0, got " + ttlMillis / 1000);
        }
        this.mode = mode;
        this.limit = limit;
        this.ttlMillis = ttlMillis;
    }

    public DiscoveryMode mode() {
        return mode;
    }

    /** Where the next listing may start (ORDERED), or null. */
    public String startAfter() {
        return mode == DiscoveryMode.ORDERED ? lastKey : null;
    }

    /** Whether {@code object} has not been discovered before. */
    public boolean isNew(ObjectSummary object) {
        if (mode == DiscoveryMode.ORDERED) {
            return lastKey == null || KeyOrder.compare(object.key(), lastKey) > 0;
        }
        return !tracked.containsKey(object.key());
    }

    /** Remembers {@code object} as discovered at {@code nowMillis}. */
    public void markDiscovered(ObjectSummary object, long nowMillis) {
        if (mode == DiscoveryMode.ORDERED) {
            if (lastKey == null || KeyOrder.compare(object.key(), lastKey) > 0) {
                lastKey = object.key();
            }
            return;
        }
        tracked.remove(object.key());
        tracked.put(object.key(), nowMillis);
        while (tracked.size() > limit) {
            Iterator<String> it = tracked.keySet().iterator();
            it.next();
            it.remove();
        }
    }

    /** Forgets keys older than the TTL. */
    public void expire(long nowMillis) {
        if (mode != DiscoveryMode.UNORDERED || ttlMillis <= 0) {
            return;
        }
        Iterator<Map.Entry<String, Long>> it = tracked.entrySet().iterator();
        while (it.hasNext()) {
            if (it.next().getValue() + ttlMillis <= nowMillis) {
                it.remove();
            } else {
                break; // insertion order is discovery order
            }
        }
    }

    public String lastKey() {
        return lastKey;
    }

    /** The tracked keys and their discovery times, oldest first (UNORDERED). */
    public Map<String, Long> tracked() {
        return java.util.Collections.unmodifiableMap(tracked);
    }

    /** Number of keys held: 0 or 1 (ORDERED) or the tracked keys (UNORDERED). */
    public int size() {
        return mode == DiscoveryMode.ORDERED ? (lastKey == null ? 0 : 1) : tracked.size();
    }

    void restore(String restoredLastKey, Map<String, Long> restoredTracked) {
        this.lastKey = restoredLastKey;
        tracked.clear();
        tracked.putAll(restoredTracked);
        while (tracked.size() > limit) {
            Iterator<String> it = tracked.keySet().iterator();
            it.next();
            it.remove();
        }
    }
}
