package io.github.s3mergetree.sink.mergetree.committer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.Internal;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Serializes {@link MergeTreeCommittable}s into checkpoints. Version 1: a flag and the token, the
 * end-of-input flag, the part count, then per part its directory name, partition id, rows, marks
 * and sizes. Version 2 adds, after the end-of-input flag, a flag and the writer's job id (version 1
 * committables restore with an unknown job).
 */
@Internal
public final class MergeTreeCommittableSerializer
        implements SimpleVersionedSerializer<MergeTreeCommittable> {
    /** The current version. */
    public static final int VERSION = 2;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MergeTreeCommittable c) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 96 * c.parts().size());
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeBoolean(c.token() != null);
        if (c.token() != null) {
            out.writeUTF(c.token());
        }
        out.writeBoolean(c.endOfInput());
        out.writeBoolean(c.jobId() != null);
        if (c.jobId() != null) {
            out.writeUTF(c.jobId());
        }
        out.writeInt(c.parts().size());
        for (MergeTreeCommittable.PendingPart p : c.parts()) {
            out.writeUTF(p.directoryName());
            out.writeUTF(p.partitionId());
            out.writeLong(p.rows());
            out.writeInt(p.marks());
            out.writeLong(p.bytesOnDisk());
            out.writeLong(p.dataUncompressedBytes());
            out.writeLong(p.bytesInMemory());
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public MergeTreeCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version < 1 || version > VERSION) {
            throw new IOException(
                    "unknown MergeTreeCommittable serializer version "
                            + version
                            + " (this sink reads versions 1 to "
                            + VERSION
                            + ")");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        String token = in.readBoolean() ? in.readUTF() : null;
        boolean endOfInput = in.readBoolean();
        String jobId = version >= 2 && in.readBoolean() ? in.readUTF() : null;
        int n = in.readInt();
        List<MergeTreeCommittable.PendingPart> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parts.add(
                    new MergeTreeCommittable.PendingPart(
                            in.readUTF(),
                            in.readUTF(),
                            in.readLong(),
                            in.readInt(),
                            in.readLong(),
                            in.readLong(),
                            in.readLong()));
        }
        return new MergeTreeCommittable(token, parts, endOfInput, jobId);
    }
}
