package io.github.s3mergetree.source.s3.split;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer of {@link S3ObjectSplit}s. Version 1: key (UTF), ETag (UTF), object size,
 * range start, range end, offset, records to skip (longs).
 */
@org.apache.flink.annotation.Internal
public final class S3ObjectSplitSerializer implements SimpleVersionedSerializer<S3ObjectSplit> {
    public static final S3ObjectSplitSerializer INSTANCE = new S3ObjectSplitSerializer();
    public static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(S3ObjectSplit split) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64 + split.key().length() * 2);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public S3ObjectSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException(
                    "unknown S3ObjectSplit serializer version " + version + " (known: 1)");
        }
        return read(new DataInputDeserializer(serialized));
    }

    /** Writes a split in the version-1 layout (used inside enumerator checkpoints too). */
    public static void write(S3ObjectSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.key());
        out.writeUTF(split.etag());
        out.writeLong(split.objectSize());
        out.writeLong(split.rangeStart());
        out.writeLong(split.rangeEnd());
        out.writeLong(split.offset());
        out.writeLong(split.recordsToSkip());
    }

    /** Reads a split written by {@link #write}. */
    public static S3ObjectSplit read(DataInputView in) throws IOException {
        String key = in.readUTF();
        String etag = in.readUTF();
        long size = in.readLong();
        long start = in.readLong();
        long end = in.readLong();
        long offset = in.readLong();
        long skip = in.readLong();
        return new S3ObjectSplit(key, etag, size, start, end, offset, skip);
    }
}
