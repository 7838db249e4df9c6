package io.github.s3mergetree.source.s3.format.typeinfo;

import io.github.s3mergetree.engine.column.ArrayColumn;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FixedBytesColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.column.TupleColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link Block}s column by column: per column its flat vectors as little-endian bulk
 * arrays (numbers, null maps, string offsets + bytes, array offsets + elements), never value by
 * value. A block whose names and types equal the declared {@link TargetSchema} is written without a
 * header; any other block (and every block of a serializer without a declared schema, {@link
 * BlockTypeInfo#anySchema()}) carries its names and type names inline.
 *
 * <p>Layout: {@code int rows}, {@code byte 0|1} (declared / inline schema), [inline: {@code int n},
 * n × (UTF name, UTF type)], then each column.
 */
@PublicEvolving
public final class BlockSerializer extends TypeSerializer<Block> {
    private static final long serialVersionUID = 1L;

    private final TargetSchema schema;

    /**
     * @param schema the declared schema; null: none, every block carries its own
     */
    public BlockSerializer(@Nullable TargetSchema schema) {
        this.schema = schema;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<Block> duplicate() {
        return this; // stateless
    }

    @Override
    public Block createInstance() {
        return schema == null
                ? new Block(List.of(), List.of(), List.of())
                : Block.empty(schema.names(), schema.types(), 0);
    }

    @Override
    public Block copy(Block from) {
        Block b = from.newEmpty(from.rows());
        b.appendRange(from, 0, from.rows());
        return b;
    }

    @Override
    public Block copy(Block from, Block reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Block block, DataOutputView out) throws IOException {
        int rows = block.rows();
        out.writeInt(rows);
        boolean declared =
                schema != null
                        && block.names().equals(schema.names())
                        && block.types().equals(schema.types());
        out.writeByte(declared ? 0 : 1);
        if (!declared) {
            out.writeInt(block.columnCount());
            for (int i = 0; i < block.columnCount(); i++) {
                out.writeUTF(block.names().get(i));
                out.writeUTF(block.types().get(i).name());
            }
        }
        for (Column c : block.columns()) {
            writeColumn(c, c.size(), out);
        }
    }

    @Override
    public Block deserialize(DataInputView in) throws IOException {
        int rows = in.readInt();
        List<String> names;
        List<DataType> types;
        if (in.readByte() == 0) {
            if (schema == null) {
                throw new IOException("a block without its schema, but none is declared");
            }
            names = schema.names();
            types = schema.types();
        } else {
            int n = in.readInt();
            names = new ArrayList<>(n);
            types = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                names.add(in.readUTF());
                types.add(DataTypeParser.parse(in.readUTF()));
            }
        }
        Block b = Block.empty(names, types, rows);
        for (Column c : b.columns()) {
            readColumn(c, rows, in);
        }
        return b;
    }

    @Override
    public Block deserialize(Block reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        serialize(deserialize(source), target);
    }

    private static void writeColumn(Column c, int n, DataOutputView out) throws IOException {
        if (c instanceof NullableColumn nc) {
            writeColumn(nc.nullMap(), n, out);
            writeColumn(nc.nested(), n, out);
        } else if (c instanceof ArrayColumn ac) {
            writeInts(ac.offsets(), n, out);
            writeColumn(ac.elements(), n == 0 ? 0 : ac.offsets()[n - 1], out);
        } else if (c instanceof TupleColumn tc) {
            for (int i = 0; i < tc.arity(); i++) {
                writeColumn(tc.element(i), n, out);
            }
        } else if (c instanceof StringColumn sc) {
            writeInts(sc.offsets(), n, out);
            int bytes = n == 0 ? 0 : sc.offsets()[n - 1];
            out.write(sc.bytes(), 0, bytes);
        } else if (c instanceof ByteColumn bc) {
            out.write(bc.data(), 0, n);
        } else if (c instanceof ShortColumn sc) {
            ByteBuffer bb = le(n * 2);
            bb.asShortBuffer().put(sc.data(), 0, n);
            out.write(bb.array(), 0, n * 2);
        } else if (c instanceof IntColumn ic) {
            writeInts(ic.data(), n, out);
        } else if (c instanceof LongColumn lc) {
            ByteBuffer bb = le(n * 8);
            bb.asLongBuffer().put(lc.data(), 0, n);
            out.write(bb.array(), 0, n * 8);
        } else if (c instanceof FloatColumn fc) {
            ByteBuffer bb = le(n * 4);
            bb.asFloatBuffer().put(fc.data(), 0, n);
            out.write(bb.array(), 0, n * 4);
        } else if (c instanceof DoubleColumn dc) {
            ByteBuffer bb = le(n * 8);
            bb.asDoubleBuffer().put(dc.data(), 0, n);
            out.write(bb.array(), 0, n * 8);
        } else if (c instanceof FixedBytesColumn fc) {
            out.write(fc.data(), 0, n * fc.width());
        } else {
            throw new IOException("cannot serialize column " + c.getClass().getName());
        }
    }

    private static void readColumn(Column c, int n, DataInputView in) throws IOException {
        if (c instanceof NullableColumn nc) {
            readColumn(nc.nullMap(), n, in);
            readColumn(nc.nested(), n, in);
        } else if (c instanceof ArrayColumn ac) {
            int[] ends = readInts(n, in);
            readColumn(ac.elements(), n == 0 ? 0 : ends[n - 1], in);
            ac.appendOffsets(ends);
        } else if (c instanceof TupleColumn tc) {
            for (int i = 0; i < tc.arity(); i++) {
                readColumn(tc.element(i), n, in);
            }
        } else if (c instanceof StringColumn sc) {
            int[] ends = readInts(n, in);
            int total = n == 0 ? 0 : ends[n - 1];
            byte[] bytes = new byte[total];
            in.readFully(bytes);
            int prev = 0;
            for (int i = 0; i < n; i++) {
                sc.add(bytes, prev, ends[i] - prev);
                prev = ends[i];
            }
        } else if (c instanceof ByteColumn bc) {
            byte[] d = bc.reserve(n);
            in.readFully(d, bc.size(), n);
            bc.setSize(bc.size() + n);
        } else if (c instanceof ShortColumn sc) {
            ByteBuffer bb = readLe(n * 2, in);
            short[] d = sc.reserve(n);
            bb.asShortBuffer().get(d, sc.size(), n);
            sc.setSize(sc.size() + n);
        } else if (c instanceof IntColumn ic) {
            ByteBuffer bb = readLe(n * 4, in);
            int[] d = ic.reserve(n);
            bb.asIntBuffer().get(d, ic.size(), n);
            ic.setSize(ic.size() + n);
        } else if (c instanceof LongColumn lc) {
            ByteBuffer bb = readLe(n * 8, in);
            long[] d = lc.reserve(n);
            bb.asLongBuffer().get(d, lc.size(), n);
            lc.setSize(lc.size() + n);
        } else if (c instanceof FloatColumn fc) {
            ByteBuffer bb = readLe(n * 4, in);
            float[] d = fc.reserve(n);
            bb.asFloatBuffer().get(d, fc.size(), n);
            fc.setSize(fc.size() + n);
        } else if (c instanceof DoubleColumn dc) {
            ByteBuffer bb = readLe(n * 8, in);
            double[] d = dc.reserve(n);
            bb.asDoubleBuffer().get(d, dc.size(), n);
            dc.setSize(dc.size() + n);
        } else if (c instanceof FixedBytesColumn fc) {
            byte[] d = new byte[n * fc.width()];
            in.readFully(d);
            for (int i = 0; i < n; i++) {
                fc.add(d, i * fc.width());
            }
        } else {
            throw new IOException("cannot deserialize column " + c.getClass().getName());
        }
    }

    private static ByteBuffer le(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static ByteBuffer readLe(int bytes, DataInputView in) throws IOException {
        byte[] b = new byte[bytes];
        in.readFully(b);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void writeInts(int[] data, int n, DataOutputView out) throws IOException {
        ByteBuffer bb = le(n * 4);
        bb.asIntBuffer().put(data, 0, n);
        out.write(bb.array(), 0, n * 4);
    }

    private static int[] readInts(int n, DataInputView in) throws IOException {
        int[] out = new int[n];
        readLe(n * 4, in).asIntBuffer().get(out);
        return out;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BlockSerializer s && java.util.Objects.equals(s.schema, schema);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hashCode(schema);
    }

    @Override
    public TypeSerializerSnapshot<Block> snapshotConfiguration() {
        return new BlockSerializerSnapshot(schema);
    }

    /**
     * Snapshot of a {@link BlockSerializer}: its declared schema. Versions (each stays readable):
     *
     * <ul>
     *   <li>1: {@code int n}, n × (UTF name, UTF type name);
     *   <li>2: {@code byte 0|1} (no declared schema / declared), then version 1's layout when
     *       declared.
     * </ul>
     */
    public static final class BlockSerializerSnapshot implements TypeSerializerSnapshot<Block> {
        /** The version written. */
        public static final int VERSION = 2;

        @Nullable private TargetSchema schema;

        /** For reflective instantiation when restoring. */
        public BlockSerializerSnapshot() {}

        BlockSerializerSnapshot(@Nullable TargetSchema schema) {
            this.schema = schema;
        }

        @Override
        public int getCurrentVersion() {
            return VERSION;
        }

        @Override
        public void writeSnapshot(DataOutputView out) throws IOException {
            out.writeByte(schema == null ? 0 : 1);
            if (schema != null) {
                writeSchema(schema, out);
            }
        }

        private static void writeSchema(TargetSchema schema, DataOutputView out)
                throws IOException {
            out.writeInt(schema.size());
            for (int i = 0; i < schema.size(); i++) {
                out.writeUTF(schema.names().get(i));
                out.writeUTF(schema.types().get(i).name());
            }
        }

        @Override
        public void readSnapshot(int readVersion, DataInputView in, ClassLoader cl)
                throws IOException {
            switch (readVersion) {
                case 1:
                    schema = readSchema(in);
                    break;
                case 2:
                    schema = in.readByte() == 0 ? null : readSchema(in);
                    break;
                default:
                    throw new IOException(
                            "unknown BlockSerializer snapshot version "
                                    + readVersion
                                    + " (this build reads 1 to "
                                    + VERSION
                                    + ")");
            }
        }

        private static TargetSchema readSchema(DataInputView in) throws IOException {
            int n = in.readInt();
            List<String> names = new ArrayList<>(n);
            List<DataType> types = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                names.add(in.readUTF());
                types.add(DataTypeParser.parse(in.readUTF()));
            }
            return TargetSchema.of(names, types);
        }

        /** The declared schema (null: none). */
        @Nullable
        public TargetSchema schema() {
            return schema;
        }

        @Override
        public TypeSerializer<Block> restoreSerializer() {
            return new BlockSerializer(schema);
        }

        @Override
        public TypeSerializerSchemaCompatibility<Block> resolveSchemaCompatibility(
                TypeSerializerSnapshot<Block> oldSnapshot) {
            if (!(oldSnapshot instanceof BlockSerializerSnapshot old)) {
                return TypeSerializerSchemaCompatibility.incompatible();
            }
            if (java.util.Objects.equals(old.schema, schema)) {
                return TypeSerializerSchemaCompatibility.compatibleAsIs();
            }
            // every block the old serializer wrote is readable by it, and this one writes any
            // block (inline schema): Flink reads with the old one and rewrites with this one
            return TypeSerializerSchemaCompatibility.compatibleAfterMigration();
        }
    }
}
