package io.github.s3mergetree.source.s3.format.arrow;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.Columns;
import io.github.s3mergetree.engine.convert.ConversionException;
import io.github.s3mergetree.engine.convert.ValueConverter;
import io.github.s3mergetree.engine.types.DataType;
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
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.arrow.compression.CommonsCompressionFactory;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.message.ArrowBlock;
import org.apache.arrow.vector.util.ByteArrayReadableSeekableByteChannel;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.ConfigOption;

/**
 * Apache Arrow IPC objects into columnar {@link Block}s of a {@link TargetSchema}: ClickHouse's
 * formats {@code Arrow} (the IPC <em>file</em> format: magic {@code ARROW1}, record batches located
 * by a footer) and {@code ArrowStream} (the IPC <em>stream</em> format), as written by ClickHouse,
 * chDB, pyarrow or Arrow Java, with LZ4-frame or ZSTD compressed buffers (ClickHouse compresses
 * with lz4_frame by default). Columns are matched by name; a target column missing from the object
 * gets its default. Type mapping: see {@link ArrowColumnDecoder} (ints, floats, decimals, strings,
 * binaries, dates, timestamps of every unit, bool, lists → Array, structs → Tuple, maps → Map,
 * dictionary-encoded columns, nulls).
 *
 * <p>Positions: for {@code Arrow}, (record batch index, rows emitted from it) — a restore seeks to
 * that batch through the footer; the object is read by ranged GETs of {@code
 * max_download_buffer_size} windows. For {@code ArrowStream} (compression by extension allowed),
 * (0, rows emitted) — a restore reads and drops the rows before. Objects are not split.
 *
 * <p>Arrow Java's memory module needs {@code --add-opens=java.base/java.nio=ALL-UNNAMED} on the JVM
 * of the task managers (Flink's default {@code env.java.opts.all} includes it).
 */
@PublicEvolving
public final class ArrowBlockFormat implements ProjectableBlockFormat {
    private static final long serialVersionUID = 1L;

    /** The two Arrow IPC formats, by their ClickHouse names. */
    @PublicEvolving
    public enum Kind {
        /** IPC file format (ClickHouse {@code Arrow}). */
        ARROW("Arrow"),
        /** IPC stream format (ClickHouse {@code ArrowStream}). */
        ARROW_STREAM("ArrowStream");

        private final String clickHouseName;

        Kind(String clickHouseName) {
            this.clickHouseName = clickHouseName;
        }

        public String clickHouseName() {
            return clickHouseName;
        }

        /** The kind named {@code name} (ClickHouse spelling, case-insensitive). */
        public static Kind of(String name) {
            return switch (name.toLowerCase(Locale.ROOT)) {
                case "arrow" -> ARROW;
                case "arrowstream" -> ARROW_STREAM;
                default ->
                        throw new IllegalArgumentException(
                                "unknown Arrow format '" + name + "' (Arrow, ArrowStream)");
            };
        }
    }

    private final Kind kind;
    private final TargetSchema schema;

    public ArrowBlockFormat(Kind kind, TargetSchema schema) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.schema = Objects.requireNonNull(schema, "schema");
    }

    public Kind kind() {
        return kind;
    }

    @Override
    public TargetSchema schema() {
        return schema;
    }

    @Override
    public ArrowBlockFormat withSchema(TargetSchema columns) {
        return new ArrowBlockFormat(kind, columns);
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

    /** Random access to an object by windows of ranged reads. */
    private static final class RangeChannel implements SeekableByteChannel {
        private final FormatContext ctx;
        private final S3ObjectSplit split;
        private final long size;
        private final int window;
        private long position;
        private byte[] buf = new byte[0];
        private long bufStart;
        private boolean open = true;

        RangeChannel(FormatContext ctx, S3ObjectSplit split, int window) {
            this.ctx = ctx;
            this.split = split;
            this.size = split.objectSize();
            this.window = window;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            if (position >= size) {
                return -1;
            }
            if (position < bufStart || position >= bufStart + buf.length) {
                long end = Math.min(size, position + Math.max(window, dst.remaining()));
                buf = ctx.readFully(split, position, end);
                bufStart = position;
            }
            int off = (int) (position - bufStart);
            int n = Math.min(dst.remaining(), buf.length - off);
            dst.put(buf, off, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public long position() {
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) {
            this.position = newPosition;
            return this;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public SeekableByteChannel truncate(long s) {
            throw new UnsupportedOperationException("read-only");
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
            buf = new byte[0];
        }
    }

    /** The JVM flag Arrow Java's memory module needs. */
    static final String ADD_OPENS = "--add-opens=java.base/java.nio=ALL-UNNAMED";

    /**
     * What to tell a user whose read failed because Arrow's memory module cannot work in this JVM
     * (without {@link #ADD_OPENS}: {@code "sun.misc.Unsafe or
     * java.nio.DirectByteBuffer.<init>(long, int) not available"}, an {@code
     * InaccessibleObjectException}, or a bare {@code NoClassDefFoundError} of {@code MemoryUtil}
     * after the first failure); empty otherwise.
     */
    static String jvmHint(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            String m = String.valueOf(c.getMessage());
            if (c instanceof java.lang.reflect.InaccessibleObjectException
                    || m.contains("DirectByteBuffer")
                    || m.contains("sun.misc.Unsafe")
                    || m.contains("add-opens")
                    || (c instanceof LinkageError && m.contains("org.apache.arrow.memory"))) {
                return " — Arrow needs the JVM flag "
                        + ADD_OPENS
                        + " (Flink: env.java.opts.all in config.yaml; Flink's default"
                        + " configuration has it)";
            }
        }
        return "";
    }

    private final class Reader implements FormatReader<Block> {
        private final FormatContext ctx;
        private final String object;
        private final BufferAllocator allocator;
        private final ArrowReader reader;
        private final List<ArrowBlock> recordBlocks; // file format only
        private final ValueConverter converter;
        private int batchIndex = -1;
        private long batchOffset;
        private int batchRows;
        private int batchPos;
        private long rowsBefore; // rows of the object before the current batch
        private long streamToSkip;
        private ArrowColumnDecoder[] decoders;
        private boolean hasMissingColumns;

        Reader(FormatContext ctx, S3ObjectSplit split) throws IOException {
            this.ctx = ctx;
            this.object = ctx.describe(split.key());
            this.converter = new ValueConverter(object, ctx.sessionZone());
            Compression compression =
                    Compression.of(ctx.options().get(S3SourceOptions.COMPRESSION), split.key());
            this.allocator = new RootAllocator();
            boolean started = split.offset() != S3ObjectSplit.NOT_STARTED;
            try {
                if (kind == Kind.ARROW) {
                    SeekableByteChannel channel;
                    if (compression == Compression.NONE) {
                        int window =
                                (int)
                                        Math.min(
                                                Integer.MAX_VALUE - 16,
                                                Math.max(
                                                        64 * 1024,
                                                        ctx.options()
                                                                .get(
                                                                        S3SourceOptions
                                                                                .MAX_DOWNLOAD_BUFFER_SIZE)));
                        channel = new RangeChannel(ctx, split, window);
                    } else {
                        try (InputStream in =
                                compression.decompress(ctx.open(split, 0, split.objectSize()))) {
                            channel = new ByteArrayReadableSeekableByteChannel(in.readAllBytes());
                        }
                    }
                    ArrowFileReader fr =
                            new ArrowFileReader(
                                    channel, allocator, CommonsCompressionFactory.INSTANCE);
                    List<ArrowBlock> blocks;
                    ArrowReader r = fr;
                    try {
                        blocks = fr.getRecordBlocks();
                    } catch (IllegalArgumentException e) {
                        // a type Arrow Java cannot read in the footer's schema (decimal32/64):
                        // the file's stream part (after the 8 magic bytes) with its schema
                        // rewritten (ArrowSchemas), read front to back; positions as a stream's
                        fr.close();
                        InputStream in =
                                ArrowSchemas.compatibleStream(
                                        new BufferedInputStream(
                                                compression.decompress(
                                                        ctx.open(split, 0, split.objectSize())),
                                                256 * 1024),
                                        8);
                        r =
                                new ArrowStreamReader(
                                        in, allocator, CommonsCompressionFactory.INSTANCE);
                        r.getVectorSchemaRoot();
                        blocks = null;
                    }
                    this.reader = r;
                    this.recordBlocks = blocks;
                    if (started) {
                        batchIndex = blocks == null ? -1 : (int) split.offset() - 1;
                        streamToSkip = split.recordsToSkip();
                    }
                } else {
                    InputStream in =
                            ArrowSchemas.compatibleStream(
                                    new BufferedInputStream(
                                            compression.decompress(
                                                    ctx.open(split, 0, split.objectSize())),
                                            256 * 1024),
                                    0);
                    this.reader =
                            new ArrowStreamReader(
                                    in, allocator, CommonsCompressionFactory.INSTANCE);
                    this.recordBlocks = null;
                    reader.getVectorSchemaRoot(); // reads the schema: fails early on non-Arrow
                    if (started) {
                        streamToSkip = split.recordsToSkip();
                    }
                }
            } catch (IOException | RuntimeException | LinkageError e) {
                allocator.close();
                String hint = jvmHint(e);
                throw new ObjectFormatException(
                        object
                                + (hint.isEmpty()
                                        ? ": not a readable "
                                                + kind.clickHouseName()
                                                + " object (cannot read the Arrow schema"
                                                + (kind == Kind.ARROW ? " and footer" : "")
                                                + "): "
                                        : ": cannot read: ")
                                + e.getMessage()
                                + hint,
                        e);
            }
        }

        /** Loads the next record batch; false at the end. */
        private boolean nextBatch0() throws IOException {
            try {
                boolean loaded;
                if (recordBlocks != null) {
                    batchIndex++;
                    if (batchIndex >= recordBlocks.size()) {
                        return false;
                    }
                    ArrowBlock b = recordBlocks.get(batchIndex);
                    batchOffset = b.getOffset();
                    loaded = ((ArrowFileReader) reader).loadRecordBatch(b);
                } else {
                    batchOffset = reader.bytesRead();
                    batchIndex++;
                    loaded = reader.loadNextBatch();
                }
                if (!loaded) {
                    return false;
                }
            } catch (IOException | RuntimeException | LinkageError e) {
                throw new ObjectFormatException(
                        object
                                + ": record batch "
                                + batchIndex
                                + " at byte "
                                + batchOffset
                                + ": cannot read: "
                                + e.getMessage()
                                + jvmHint(e),
                        e);
            }
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            rowsBefore += batchRows;
            batchRows = root.getRowCount();
            batchPos = 0;
            decoders = null; // built lazily: a skipped batch is never decoded
            return true;
        }

        private void buildDecoders() throws IOException {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            ArrowColumnDecoder[] d = new ArrowColumnDecoder[schema.size()];
            List<String> missing = new ArrayList<>();
            for (int c = 0; c < schema.size(); c++) {
                FieldVector v = root.getVector(schema.names().get(c));
                if (v == null) {
                    missing.add(schema.names().get(c)); // default values
                    continue;
                }
                try {
                    d[c] =
                            new ArrowColumnDecoder(
                                    schema.names().get(c),
                                    v,
                                    schema.types().get(c),
                                    converter,
                                    reader);
                } catch (ObjectFormatException e) {
                    throw new ObjectFormatException(
                            object
                                    + ": record batch "
                                    + batchIndex
                                    + " at byte "
                                    + batchOffset
                                    + ", "
                                    + e.getMessage(),
                            e);
                }
            }
            if (!missing.isEmpty()) {
                List<String> objectColumns = new ArrayList<>();
                for (org.apache.arrow.vector.types.pojo.Field f : root.getSchema().getFields()) {
                    objectColumns.add(f.getName());
                }
                ConfigOption<Boolean> allow =
                        S3SourceOptions.INPUT_FORMAT_ARROW_ALLOW_MISSING_COLUMNS;
                ctx.missingColumns()
                        .check(
                                object,
                                kind.clickHouseName(),
                                missing,
                                objectColumns,
                                allow.key(),
                                ctx.options().get(allow));
            }
            hasMissingColumns = !missing.isEmpty();
            decoders = d;
        }

        @Override
        public List<PositionedRecord<Block>> nextBatch() throws IOException {
            while (batchIndex < 0 || batchPos >= batchRows || streamToSkip > 0) {
                if (batchIndex >= 0 && batchPos < batchRows && streamToSkip > 0) {
                    int skip = (int) Math.min(streamToSkip, batchRows - batchPos);
                    batchPos += skip;
                    streamToSkip -= skip;
                    continue;
                }
                if (!nextBatch0()) {
                    return null;
                }
            }
            if (decoders == null) {
                buildDecoders();
            }
            int n = Math.min(ctx.maxBlockSize(), batchRows - batchPos);
            Block block = Block.empty(schema.names(), schema.types(), n);
            for (int c = 0; c < schema.size(); c++) {
                Column col = block.column(c);
                ArrowColumnDecoder d = decoders[c];
                if (d == null) {
                    DataType t = schema.types().get(c);
                    for (int i = 0; i < n; i++) {
                        Columns.appendDefault(t, col);
                    }
                    continue;
                }
                try {
                    d.append(batchPos, batchPos + n, rowsBefore + batchPos, col);
                } catch (RuntimeException e) {
                    throw new ObjectFormatException(
                            object
                                    + ": record batch "
                                    + batchIndex
                                    + " at byte "
                                    + batchOffset
                                    + ", row "
                                    + d.currentRow()
                                    + ", column '"
                                    + schema.names().get(c)
                                    + "' (Arrow "
                                    + d.arrowType()
                                    + " → "
                                    + schema.types().get(c).name()
                                    + "): "
                                    + (e instanceof ConversionException ce
                                            ? ce.problem()
                                            : e.getMessage()),
                            e);
                }
            }
            if (hasMissingColumns) {
                ctx.missingColumns().filled(n);
            }
            batchPos += n;
            PositionedRecord<Block> rec;
            if (recordBlocks != null) {
                rec =
                        batchPos >= batchRows
                                ? new PositionedRecord<>(block, batchIndex + 1, 0)
                                : new PositionedRecord<>(block, batchIndex, batchPos);
            } else {
                rec = new PositionedRecord<>(block, 0, rowsBefore + batchPos);
            }
            return List.of(rec);
        }

        @Override
        public void close() throws IOException {
            try {
                reader.close();
            } finally {
                allocator.close();
            }
        }
    }
}
