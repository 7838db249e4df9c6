package io.github.s3mergetree.source.s3.enumerator;

import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of {@link S3EnumeratorState}. Version 1: pending split count + splits (the
 * split serializer's version-1 layout), listing-done flag, last key (flag + UTF), tracked key count
 * + (UTF key, long millis), parked count + (UTF key, UTF reason). Version 2 (current): the same
 * with the splits in the split serializer's version-2 layout.
 */
public final class S3EnumeratorStateSerializer
        implements SimpleVersionedSerializer<S3EnumeratorState> {
    public static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(S3EnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(state.pendingSplits().size());
        for (S3ObjectSplit s : state.pendingSplits()) {
            S3ObjectSplitSerializer.write(s, out);
        }
        out.writeBoolean(state.initialListingDone());
        out.writeBoolean(state.lastKey() != null);
        if (state.lastKey() != null) {
            out.writeUTF(state.lastKey());
        }
        out.writeInt(state.trackedKeys().size());
        for (Map.Entry<String, Long> e : state.trackedKeys().entrySet()) {
            out.writeUTF(e.getKey());
            out.writeLong(e.getValue());
        }
        out.writeInt(state.parkedObjects().size());
        for (Map.Entry<String, String> e : state.parkedObjects().entrySet()) {
            out.writeUTF(e.getKey());
            String reason = e.getValue();
            out.writeUTF(reason.length() > 2000 ? reason.substring(0, 2000) : reason);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public S3EnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != 1 && version != 2) {
            throw new IOException(
                    "unknown S3EnumeratorState serializer version " + version + " (known: 1, 2)");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int n = in.readInt();
        List<S3ObjectSplit> pending = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            pending.add(S3ObjectSplitSerializer.read(in, version));
        }
        boolean done = in.readBoolean();
        String lastKey = in.readBoolean() ? in.readUTF() : null;
        int t = in.readInt();
        Map<String, Long> tracked = new LinkedHashMap<>();
        for (int i = 0; i < t; i++) {
            tracked.put(in.readUTF(), in.readLong());
        }
        int p = in.readInt();
        Map<String, String> parked = new LinkedHashMap<>();
        for (int i = 0; i < p; i++) {
            parked.put(in.readUTF(), in.readUTF());
        }
        return new S3EnumeratorState(pending, done, lastKey, tracked, parked);
    }
}
