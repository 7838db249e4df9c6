package io.github.s3mergetree.source.s3.format.arrow;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flatbuf.KeyValue;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.Type;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Arrow IPC schemas that Arrow Java (19) refuses to read but ClickHouse reads: {@code decimal32}
 * and {@code decimal64} (Arrow 18+, pyarrow writes them) fail the schema with "Library only
 * supports 128-bit and 256-bit decimal values". Such a field is read as a {@code FixedSizeBinary(4
 * / 8)} — the same buffers: validity and 4 / 8 bytes per value — whose field metadata {@link
 * #DECIMAL_KEY} keeps the precision and scale, and {@link ArrowColumnDecoder} decodes it as the
 * decimal it is.
 *
 * <p>{@link #compatibleStream} rewrites the schema message at the start of an IPC stream (and of
 * the stream inside an IPC file, after its 8 magic bytes) when, and only when, it holds such a
 * type: the stream's other messages are passed through untouched.
 */
final class ArrowSchemas {
    /** Field metadata of a decimal32/64 read as a fixed-size binary: "precision,scale". */
    static final String DECIMAL_KEY = "s3mergetree.arrow.decimal";

    private ArrowSchemas() {}

    /**
     * The IPC stream in {@code in} after {@code skip} bytes (0 for a stream, 8 for the stream
     * inside an IPC file), its schema message rewritten if it needs to be.
     */
    static InputStream compatibleStream(InputStream in, int skip) throws IOException {
        in.skipNBytes(skip);
        byte[] prefix = in.readNBytes(8);
        if (prefix.length < 8) {
            throw new EOFException("the stream ends before its schema message");
        }
        ByteBuffer p = ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN);
        int first = p.getInt(0);
        boolean continuation = first == -1;
        int length = continuation ? p.getInt(4) : first;
        byte[] head = continuation ? prefix : java.util.Arrays.copyOf(prefix, 4);
        byte[] rest = continuation ? new byte[0] : java.util.Arrays.copyOfRange(prefix, 4, 8);
        if (length <= 0 || length > 64 << 20) {
            throw new IOException(
                    "not an Arrow IPC stream (a schema message of " + length + " bytes)");
        }
        byte[] meta = new byte[length];
        System.arraycopy(rest, 0, meta, 0, rest.length);
        int got = in.readNBytes(meta, rest.length, length - rest.length);
        if (got != length - rest.length) {
            throw new EOFException("the stream ends inside its schema message");
        }
        Message m = Message.getRootAsMessage(ByteBuffer.wrap(meta).order(ByteOrder.LITTLE_ENDIAN));
        Schema rewritten = m.headerType() == MessageHeader.Schema ? rewrite(m) : null;
        byte[] original;
        if (rewritten == null) {
            ByteArrayOutputStream o = new ByteArrayOutputStream(head.length + 4 + length);
            o.write(head);
            o.write(meta);
            original = o.toByteArray();
        } else {
            ByteArrayOutputStream o = new ByteArrayOutputStream();
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(o)), rewritten);
            original = o.toByteArray();
        }
        return new SequenceInputStream(new java.io.ByteArrayInputStream(original), in);
    }

    /** The schema with narrow decimals as fixed-size binaries, or null if it has none. */
    private static Schema rewrite(Message m) {
        org.apache.arrow.flatbuf.Schema s =
                (org.apache.arrow.flatbuf.Schema) m.header(new org.apache.arrow.flatbuf.Schema());
        boolean changed = false;
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < s.fieldsLength(); i++) {
            org.apache.arrow.flatbuf.Field f = s.fields(i);
            Field converted;
            try {
                converted = Field.convertField(f);
            } catch (IllegalArgumentException e) {
                converted = convert(f, e);
                changed = true;
            }
            fields.add(converted);
        }
        if (!changed) {
            return null;
        }
        Map<String, String> meta = new LinkedHashMap<>();
        for (int i = 0; i < s.customMetadataLength(); i++) {
            KeyValue kv = s.customMetadata(i);
            meta.put(kv.key(), kv.value());
        }
        return new Schema(fields, meta);
    }

    private static Field convert(org.apache.arrow.flatbuf.Field f, IllegalArgumentException why) {
        try {
            return Field.convertField(f);
        } catch (IllegalArgumentException e) {
            // this field or one below it is a narrow decimal
        }
        if (f.dictionary() != null) {
            throw why; // a dictionary of narrow decimals: not supported
        }
        Map<String, String> meta = new LinkedHashMap<>();
        for (int i = 0; i < f.customMetadataLength(); i++) {
            KeyValue kv = f.customMetadata(i);
            meta.put(kv.key(), kv.value());
        }
        ArrowType type;
        if (f.typeType() == Type.Decimal) {
            org.apache.arrow.flatbuf.Decimal d =
                    (org.apache.arrow.flatbuf.Decimal)
                            f.type(new org.apache.arrow.flatbuf.Decimal());
            if (d.bitWidth() != 32 && d.bitWidth() != 64) {
                throw why;
            }
            type = new ArrowType.FixedSizeBinary(d.bitWidth() / 8);
            meta.put(DECIMAL_KEY, d.precision() + "," + d.scale());
        } else {
            type = ArrowType.getTypeForField(f);
        }
        List<Field> children = new ArrayList<>();
        for (int i = 0; i < f.childrenLength(); i++) {
            children.add(convert(f.children(i), why));
        }
        return new Field(f.name(), new FieldType(f.nullable(), type, null, meta), children);
    }
}
