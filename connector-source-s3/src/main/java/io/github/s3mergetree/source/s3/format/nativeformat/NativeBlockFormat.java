package io.github.s3mergetree.source.s3.format.nativeformat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.io.ByteSource;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.DeserializationState;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.engine.types.LowCardinalityType;
import io.github.s3mergetree.source.s3.format.FormatContext;
import io.github.s3mergetree.source.s3.format.FormatReader;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ProjectableBlockFormat;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.format.compression.Compression;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;

/**
 * ClickHouse's {@code Native} format (as written by {@code clickhouse-local}, chDB or {@code INTO
 * OUTFILE ... FORMAT Native}) into {@link Block}s of a {@link TargetSchema}: per block the column
 * count, row count and, per column, its name, type and bulk column data, decoded with the engine's
 * column serializations. Columns are matched by name; a target column missing from the object gets
 * its default; an object column's type must equal the target type (up to {@code LowCardinality}),
 * otherwise the read fails naming the object, block and column.
 *
 * <p>Objects are read whole (compression by extension); the position is the number of rows emitted.
 */
@PublicEvolving
public final class NativeBlockFormat implements ProjectableBlockFormat {
    private static final long serialVersionUID = 1L;

    private final TargetSchema schema;

    public NativeBlockFormat(TargetSchema schema) {
        this.schema = java.util.Objects.requireNonNull(schema, "schema");
    }

    @Override
    public TargetSchema schema() {
        return schema;
    }

    @Override
    public NativeBlockFormat withSchema(TargetSchema columns) {
        return new NativeBlockFormat(columns);
    }

    @Override
    public TypeInformation<Block> getProducedType() {
        return new BlockTypeInfo(schema);
    }

    @Override
    public boolean isSplittable(String key) {
        return false;
    }

    @Override
    public FormatReader<Block> createReader(FormatContext context, S3ObjectSplit split)
            throws IOException {
        return new Reader(context, split);
    }

    private static final java.util.regex.Pattern SIZE_STREAM =
            java.util.regex.Pattern.compile("\\.size\\d+$");

    /** Turns Native's cumulative UInt64 array offsets into the sizes the engine reads. */
    private static final class CumulativeOffsets implements ByteSource {
        private final ByteSource in;
        private long previous;

        CumulativeOffsets(ByteSource in) {
            this.in = in;
        }

        @Override
        public long readLongLE() {
            long offset = in.readLongLE();
            long size = offset - previous;
            previous = offset;
            return size;
        }

        @Override
        public int readByte() {
            return in.readByte();
        }

        @Override
        public void readFully(byte[] b, int off, int len) {
            in.readFully(b, off, len);
        }

        @Override
        public boolean eof() {
            return in.eof();
        }
    }

    /** A {@link ByteSource} over a stream. */
    private static final class StreamSource implements ByteSource {
        private final InputStream in;

        StreamSource(InputStream in) {
            this.in = in;
        }

        @Override
        public int readByte() {
            try {
                int b = in.read();
                if (b < 0) {
                    throw new UncheckedIOException(new EOFException("unexpected end of object"));
                }
                return b;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void readFully(byte[] b, int off, int len) {
            try {
                int n = in.readNBytes(b, off, len);
                if (n < len) {
                    throw new UncheckedIOException(new EOFException("unexpected end of object"));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public boolean eof() {
            try {
                in.mark(1);
                int b = in.read();
                in.reset();
                return b < 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private final class Reader implements FormatReader<Block> {
        private final FormatContext ctx;
        private final String object;
        private final InputStream input;
        private final StreamSource source;
        private long rowsEmitted;
        private long toSkip;
        private int blockIndex = -1;
        private Block pending;
        private int pendingPos;

        Reader(FormatContext ctx, S3ObjectSplit split) throws IOException {
            this.ctx = ctx;
            this.object = ctx.describe(split.key());
            Compression c =
                    Compression.of(ctx.options().get(S3SourceOptions.COMPRESSION), split.key());
            this.input =
                    new BufferedInputStream(
                            c.decompress(ctx.open(split, 0, split.objectSize())), 256 * 1024);
            this.source = new StreamSource(input);
            this.toSkip = split.offset() == S3ObjectSplit.NOT_STARTED ? 0 : split.recordsToSkip();
            this.rowsEmitted = toSkip;
        }

        /** The next Native block converted to the target schema, or null at the end. */
        private Block nextNativeBlock() throws IOException {
            try {
                if (source.eof()) {
                    return null;
                }
                blockIndex++;
                long columns = source.readVarUInt();
                long rows = source.readVarUInt();
                if (rows > Integer.MAX_VALUE || columns > 100_000) {
                    throw new ObjectFormatException(
                            object
                                    + ": block "
                                    + blockIndex
                                    + " announces "
                                    + columns
                                    + " columns and "
                                    + rows
                                    + " rows: not a Native object?");
                }
                Block out = Block.empty(schema.names(), schema.types(), (int) rows);
                boolean[] filled = new boolean[schema.size()];
                List<String> blockColumns = new ArrayList<>();
                for (int c = 0; c < columns; c++) {
                    String name = readString();
                    blockColumns.add(name);
                    String typeName = readString();
                    DataType type;
                    try {
                        type = DataTypeParser.parse(typeName);
                    } catch (IllegalArgumentException e) {
                        throw new ObjectFormatException(
                                where(name)
                                        + ": unsupported type "
                                        + typeName
                                        + ": "
                                        + e.getMessage(),
                                e);
                    }
                    int target = schema.indexOf(name);
                    Column col =
                            target >= 0 && compatible(type, schema.types().get(target))
                                    ? out.column(target)
                                    : Columns.create(type, (int) rows);
                    if (target >= 0 && col != out.column(target)) {
                        throw new ObjectFormatException(
                                where(name)
                                        + ": type "
                                        + type.name()
                                        + " differs from the target type "
                                        + schema.types().get(target).name());
                    }
                    BulkSerialization s = BulkSerialization.forColumn(name, type);
                    DeserializationState state = new DeserializationState();
                    // Native writes array offsets cumulatively, MergeTree streams as sizes.
                    java.util.Map<String, ByteSource> sizeStreams = new java.util.HashMap<>();
                    io.github.s3mergetree.engine.serde.StreamSources sources =
                            stream ->
                                    SIZE_STREAM.matcher(stream).find()
                                            ? sizeStreams.computeIfAbsent(
                                                    stream, k -> new CumulativeOffsets(source))
                                            : source;
                    if (rows > 0) {
                        s.readPrefix(sources, state);
                        s.deserialize(col, (int) rows, sources, state);
                    }
                    if (target >= 0) {
                        filled[target] = true;
                    }
                }
                List<String> missing = new ArrayList<>();
                for (int t = 0; t < filled.length; t++) {
                    if (!filled[t]) {
                        missing.add(schema.names().get(t));
                        for (long r = 0; r < rows; r++) {
                            Columns.appendDefault(schema.types().get(t), out.column(t));
                        }
                    }
                }
                if (!missing.isEmpty()) {
                    ctx.missingColumns().check(object, "Native", missing, blockColumns, null, true);
                    ctx.missingColumns().filled(rows);
                }
                return out;
            } catch (UncheckedIOException e) {
                throw new ObjectFormatException(
                        object + ": block " + blockIndex + ": " + e.getCause().getMessage(), e);
            } catch (RuntimeException e) {
                throw new ObjectFormatException(
                        object + ": block " + blockIndex + ": " + e.getMessage(), e);
            }
        }

        private String where(String column) {
            return object + ": block " + blockIndex + ", column '" + column + "'";
        }

        private String readString() {
            long len = source.readVarUInt();
            if (len > 1 << 20) {
                throw new IllegalArgumentException(
                        "name of " + len + " bytes: not a Native object?");
            }
            byte[] b = new byte[(int) len];
            source.readFully(b, 0, b.length);
            return new String(b, StandardCharsets.UTF_8);
        }

        private boolean compatible(DataType file, DataType target) {
            DataType f = file instanceof LowCardinalityType l ? l.nested() : file;
            DataType t = target instanceof LowCardinalityType l ? l.nested() : target;
            return f.equals(t);
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            int max = ctx.maxBlockSize();
            while (pending == null || pendingPos >= pending.rows()) {
                pending = nextNativeBlock();
                pendingPos = 0;
                if (pending == null) {
                    return null;
                }
                if (toSkip > 0) {
                    int skip = (int) Math.min(toSkip, pending.rows());
                    pendingPos = skip;
                    toSkip -= skip;
                }
            }
            int n = Math.min(max, pending.rows() - pendingPos);
            Block out;
            if (pendingPos == 0 && n == pending.rows()) {
                out = pending;
            } else {
                out = pending.newEmpty(n);
                out.appendRange(pending, pendingPos, pendingPos + n);
            }
            pendingPos += n;
            rowsEmitted += n;
            List<PositionedRecord<Block>> r = new ArrayList<>(1);
            r.add(new PositionedRecord<>(out, 0, rowsEmitted));
            return r;
        }

        @Override
        public void close() throws IOException {
            input.close();
        }
    }
}
