package io.github.s3mergetree.sink.mergetree.writer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Serializes {@link MergeTreeWriterState}. Version 1: sink id, subtask, checkpoint, rows. */
@Internal
public final class MergeTreeWriterStateSerializer
        implements SimpleVersionedSerializer<MergeTreeWriterState> {
    /** The current version. */
    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MergeTreeWriterState s) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeUTF(s.sinkId());
        out.writeInt(s.subtask());
        out.writeLong(s.checkpointId());
        out.writeLong(s.rowsWritten());
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public MergeTreeWriterState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "unknown MergeTreeWriterState serializer version "
                            + version
                            + " (this sink reads version "
                            + VERSION
                            + ")");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        return new MergeTreeWriterState(in.readUTF(), in.readInt(), in.readLong(), in.readLong());
    }
}
