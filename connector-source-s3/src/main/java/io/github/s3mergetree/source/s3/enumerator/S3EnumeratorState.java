package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.annotation.PublicEvolving;

/**
 * The enumerator's checkpoint: splits not yet assigned, whether the (bounded) listing completed,
 * the bounded discovery state of continuous mode (last key, or recent keys with their discovery
 * time) and the parked objects (key → reason) that kept failing.
 */
@PublicEvolving
public final class S3EnumeratorState {
    private final List<S3ObjectSplit> pendingSplits;
    private final boolean initialListingDone;
    private final String lastKey;
    private final Map<String, Long> trackedKeys;
    private final Map<String, String> parkedObjects;

    public S3EnumeratorState(
            List<S3ObjectSplit> pendingSplits,
            boolean initialListingDone,
            String lastKey,
            Map<String, Long> trackedKeys,
            Map<String, String> parkedObjects) {
        this.pendingSplits = List.copyOf(pendingSplits);
        this.initialListingDone = initialListingDone;
        this.lastKey = lastKey;
        this.trackedKeys = new LinkedHashMap<>(trackedKeys);
        this.parkedObjects = new LinkedHashMap<>(parkedObjects);
    }

    /** The state of a source that has not listed anything yet. */
    public static S3EnumeratorState initial() {
        return new S3EnumeratorState(List.of(), false, null, Map.of(), Map.of());
    }

    public List<S3ObjectSplit> pendingSplits() {
        return pendingSplits;
    }

    public boolean initialListingDone() {
        return initialListingDone;
    }

    public String lastKey() {
        return lastKey;
    }

    public Map<String, Long> trackedKeys() {
        return java.util.Collections.unmodifiableMap(trackedKeys);
    }

    public Map<String, String> parkedObjects() {
        return java.util.Collections.unmodifiableMap(parkedObjects);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof S3EnumeratorState s
                && s.pendingSplits.equals(pendingSplits)
                && s.initialListingDone == initialListingDone
                && Objects.equals(s.lastKey, lastKey)
                && s.trackedKeys.equals(trackedKeys)
                && List.copyOf(s.trackedKeys.keySet()).equals(List.copyOf(trackedKeys.keySet()))
                && s.parkedObjects.equals(parkedObjects);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pendingSplits, initialListingDone, lastKey, trackedKeys, parkedObjects);
    }

    @Override
    public String toString() {
        return "S3EnumeratorState{pending="
                + pendingSplits.size()
                + ", listingDone="
                + initialListingDone
                + ", lastKey="
                + lastKey
                + ", tracked="
                + trackedKeys.size()
                + ", parked="
                + parkedObjects.size()
                + "}";
    }
}
