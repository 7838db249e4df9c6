package io.github.s3mergetree.engine.serde;

import java.util.HashMap;
import java.util.Map;

/** Per-stream reader state kept across granules while one part is read. */
public final class DeserializationState {
    private final Map<String, Object> byStream = new HashMap<>();

    @SuppressWarnings("unchecked")
    <T> T get(String stream) {
        return (T) byStream.get(stream);
    }

    void put(String stream, Object state) {
        byStream.put(stream, state);
    }
}
