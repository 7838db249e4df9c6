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
 * Versioned serializer of {@link S3EnumeratorState}. Every version stays readable (golden bytes of
 * each are in the tests):
 *
 * <ul>
 *   <li>1: pending split count + splits (the split serializer's version-1 layout inline),
 *       listing-done flag, last key (flag + UTF), tracked key count + (UTF key, long millis),
 *       parked count + (UTF key, UTF reason);
 *   <li>2: as version 1 with the splits in the split serializer's version-2 layout inline;
 *   <li>3 (current): the split serializer's version, pending split count + (length, the split
 *       serializer's bytes) — so that a new split layout needs no new version here —, then as
 *       version 1.
 * </ul>
 */
@org.apache.flink.annotation.Internal
public final class S3EnumeratorStateSerializer
        implements SimpleVersionedSerializer<S3EnumeratorState> {
    public static final int VERSION = 3;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(S3EnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        S3ObjectSplitSerializer splits = S3ObjectSplitSerializer.INSTANCE;
        out.writeInt(splits.getVersion());
        out.writeInt(state.pendingSplits().size());
        for (S3ObjectSplit s : state.pendingSplits()) {
            byte[] b = splits.serialize(s);
            out.writeInt(b.length);
            out.write(b);
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
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "unknown S3EnumeratorState serializer version "
                            + version
                            + " (this build reads 1 to "
                            + VERSION
                            + ")");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        List<S3ObjectSplit> pending;
        if (version <= 2) {
            // the split layout of the same number, inline
            int n = in.readInt();
            pending = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                pending.add(S3ObjectSplitSerializer.read(in, version));
            }
        } else {
            int splitVersion = in.readInt();
            int n = in.readInt();
            pending = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] b = new byte[in.readInt()];
                in.readFully(b);
                pending.add(S3ObjectSplitSerializer.INSTANCE.deserialize(splitVersion, b));
            }
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
