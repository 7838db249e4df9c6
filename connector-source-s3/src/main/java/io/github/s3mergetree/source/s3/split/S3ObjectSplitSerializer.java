package io.github.s3mergetree.source.s3.split;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer of {@link S3ObjectSplit}s. Version 1: key (UTF), ETag (UTF), object size,
 * range start, range end, offset, records to skip (longs). Version 2 (current) adds rows read
 * (long) and the failure (boolean present + UTF, at most {@value #MAX_FAILURE_CHARS} characters).
 * Version-1 splits are read with no rows read and no failure.
 */
@org.apache.flink.annotation.Internal
public final class S3ObjectSplitSerializer implements SimpleVersionedSerializer<S3ObjectSplit> {
    public static final S3ObjectSplitSerializer INSTANCE = new S3ObjectSplitSerializer();
    public static final int VERSION = 2;

    /** Longer failure messages are cut (DataOutput.writeUTF holds at most 64 KiB). */
    static final int MAX_FAILURE_CHARS = 4000;

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
        return read(new DataInputDeserializer(serialized), version);
    }

    /** Writes a split in the current layout (used inside enumerator checkpoints too). */
    public static void write(S3ObjectSplit split, DataOutputView out) throws IOException {
        out.writeUTF(split.key());
        out.writeUTF(split.etag());
        out.writeLong(split.objectSize());
        out.writeLong(split.rangeStart());
        out.writeLong(split.rangeEnd());
        out.writeLong(split.offset());
        out.writeLong(split.recordsToSkip());
        out.writeLong(split.rowsRead());
        out.writeBoolean(split.isFailed());
        if (split.isFailed()) {
            String f = split.failure().orElseThrow();
            out.writeUTF(f.length() > MAX_FAILURE_CHARS ? f.substring(0, MAX_FAILURE_CHARS) : f);
        }
    }

    /** Reads a split written by {@link #write} in the current layout. */
    public static S3ObjectSplit read(DataInputView in) throws IOException {
        return read(in, VERSION);
    }

    /** Reads a split written in layout {@code version}. */
    public static S3ObjectSplit read(DataInputView in, int version) throws IOException {
        if (version != 1 && version != 2) {
            throw new IOException(
                    "unknown S3ObjectSplit serializer version " + version + " (known: 1, 2)");
        }
        String key = in.readUTF();
        String etag = in.readUTF();
        long size = in.readLong();
        long start = in.readLong();
        long end = in.readLong();
        long offset = in.readLong();
        long skip = in.readLong();
        if (version == 1) {
            return new S3ObjectSplit(key, etag, size, start, end, offset, skip);
        }
        long rowsRead = in.readLong();
        String failure = in.readBoolean() ? in.readUTF() : null;
        return new S3ObjectSplit(key, etag, size, start, end, offset, skip, rowsRead, failure);
    }
}
