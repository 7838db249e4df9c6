package io.github.s3mergetree.engine.part;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.compress.CompressionCodec;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.hash.SipHash128;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.BulkSerialization;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.sort.RowComparator;
import io.github.s3mergetree.engine.sort.RowComparators;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.FloatingPoint;
import io.github.s3mergetree.engine.types.NullableType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes one Wide MergeTree part, byte-compatible with ClickHouse, from a block that is already
 * sorted by the table's sorting key and holds rows of a single partition (ClickHouse's {@code
 * MergedBlockOutputStream} + {@code MergeTreeDataPartWriterWide}).
 *
 * <p>Layout: per column stream a {@code .bin} of compressed blocks and a marks file ({@code .mrk2}
 * adaptive with a final mark, or {@code .mrk} fixed granules when {@code index_granularity_bytes =
 * 0}), {@code primary.idx}, {@code partition.dat} + {@code minmax_*.idx} when partitioned, {@code
 * count.txt}, {@code columns.txt}, {@code default_compression_codec.txt}, {@code
 * metadata_version.txt} and {@code checksums.txt} (version 4). Strings use the classic layout and
 * no {@code serialization.json} is written, so every ClickHouse since 19.11 (18.16 for {@code
 * .mrk}) reads the part.
 *
 * <p>The part is written into the directory given (a temporary one; see {@link TemporaryPart}); it
 * is not visible to readers until renamed.
 */
public final class PartWriter {
    /** ClickHouse's {@code max_file_name_length}: longer stream names are replaced by a hash. */
    static final int MAX_FILE_NAME_LENGTH = 127;

    private final PartWriterOptions options;

    public PartWriter(PartWriterOptions options) {
        this.options = options;
    }

    /** What to write. */
    public record Input(
            Block block,
            Block primaryKey,
            PartitionData partition,
            Map<String, CompressionCodec> columnCodecs) {}

    /**
     * Writes the part's files into {@code dir} (which must exist and be empty).
     *
     * @return the part's checksums and statistics
     */
    public WrittenPartFiles write(Input input, Path dir) throws IOException {
        Block block = input.block();
        int rows = block.rows();
        if (rows == 0) {
            throw new IllegalArgumentException("cannot write a part of 0 rows");
        }
        if (input.primaryKey().columnCount() > 0 && input.primaryKey().rows() != rows) {
            throw new IllegalArgumentException(
                    "primary key has " + input.primaryKey().rows() + " rows, block has " + rows);
        }
        int[] granules = granules(block);
        Checksums checksums = new Checksums();
        String marksExt = options.adaptive() ? ".mrk2" : ".mrk";

        List<BulkSerialization> serializations = new ArrayList<>();
        List<List<StreamWriter>> columnStreams = new ArrayList<>();
        Map<String, StreamWriter> byName = new LinkedHashMap<>();
        try {
            for (int c = 0; c < block.columnCount(); c++) {
                String name = block.names().get(c);
                BulkSerialization s = BulkSerialization.forColumn(name, block.types().get(c));
                CompressionCodec codec =
                        input.columnCodecs().getOrDefault(name, options.defaultCodec());
                List<StreamWriter> streams = new ArrayList<>();
                for (String stream : s.streams()) {
                    StreamWriter w =
                            new StreamWriter(
                                    dir,
                                    fileName(stream),
                                    codec,
                                    options.minCompressBlockSize(),
                                    options.maxCompressBlockSize(),
                                    options.adaptive());
                    streams.add(w);
                    byName.put(stream, w);
                }
                serializations.add(s);
                columnStreams.add(streams);
            }
            for (int c = 0; c < block.columnCount(); c++) {
                serializations.get(c).writePrefix(byName::get);
            }
            int from = 0;
            for (int g : granules) {
                for (int c = 0; c < block.columnCount(); c++) {
                    for (StreamWriter w : columnStreams.get(c)) {
                        w.mark(g);
                    }
                    serializations.get(c).serialize(block.column(c), from, from + g, byName::get);
                }
                from += g;
            }
            if (options.adaptive()) {
                for (StreamWriter w : byName.values()) {
                    w.mark(0);
                }
            }
            for (StreamWriter w : byName.values()) {
                if (options.fsync()) {
                    w.sync();
                }
            }
        } finally {
            closeAll(byName.values());
        }
        for (StreamWriter w : byName.values()) {
            checksums.add(w.name() + ".bin", w.checksum());
            writeListed(dir, w.name() + marksExt, w.marks().toByteArray(), checksums);
        }

        if (input.primaryKey().columnCount() > 0) {
            writeListed(dir, "primary.idx", primaryIndex(input.primaryKey(), granules), checksums);
        }
        PartitionData partition = input.partition();
        if (partition.partitioned()) {
            writeListed(dir, "partition.dat", partition.keyBytes(), checksums);
            for (String col : partition.minmaxColumns()) {
                int idx = block.indexOf(col);
                if (idx < 0) {
                    throw new IllegalArgumentException(
                            "partition key column " + col + " is not in the block");
                }
                writeListed(
                        dir,
                        "minmax_" + fileName(io.github.s3mergetree.engine.serde.StreamNames.escape(col)) + ".idx",
                        minMax(block.types().get(idx), block.column(idx)),
                        checksums);
            }
        }
        writeListed(dir, "count.txt", ascii(Integer.toString(rows)), checksums);
        writeUnlisted(dir, "columns.txt", columnsTxt(block));
        writeUnlisted(
                dir,
                "default_compression_codec.txt",
                ascii("CODEC(" + options.defaultCodec().clickHouseName() + ")"));
        writeUnlisted(dir, "metadata_version.txt", ascii("0"));
        writeUnlisted(dir, "checksums.txt", checksums.serialize());
        if (options.fsync()) {
            syncDirectory(dir);
        }
        return new WrittenPartFiles(rows, granules.length, checksums, block.byteSize());
    }

    /** Rows per granule, as ClickHouse's {@code computeIndexGranularityImpl} chooses them. */
    int[] granules(Block block) {
        int rows = block.rows();
        int perGranule;
        if (!options.adaptive()) {
            perGranule = options.indexGranularity();
        } else {
            long bytes = block.byteSize();
            long igb = options.indexGranularityBytes();
            long g;
            if (bytes >= igb) {
                long granulesInBlock = bytes / igb;
                g = rows / granulesInBlock;
            } else {
                long perRow = Math.max(bytes / rows, 1);
                g = igb / perRow;
            }
            perGranule = (int) Math.max(1, Math.min(options.indexGranularity(), g));
        }
        int n = (rows + perGranule - 1) / perGranule;
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = Math.min(perGranule, rows - i * perGranule);
        }
        return out;
    }

    private byte[] primaryIndex(Block pk, int[] granules) {
        ByteArraySink out = new ByteArraySink(granules.length * 16 + 16);
        int row = 0;
        for (int g : granules) {
            writeKeyRow(pk, row, out);
            row += g;
        }
        if (options.adaptive()) {
            writeKeyRow(pk, pk.rows() - 1, out);
        }
        return out.toByteArray();
    }

    private static void writeKeyRow(Block pk, int row, ByteArraySink out) {
        for (int c = 0; c < pk.columnCount(); c++) {
            ValueSerde.write(pk.types().get(c), pk.column(c), row, out);
        }
    }

    /** min then max of a column, NULLs and NaNs ignored (ClickHouse's {@code getExtremes}). */
    static byte[] minMax(DataType type, Column column) {
        RowComparator cmp = RowComparators.forColumn(type, column);
        int min = -1;
        int max = -1;
        for (int r = 0; r < column.size(); r++) {
            if (column instanceof NullableColumn nc && nc.isNull(r)) {
                continue;
            }
            if (FloatingPoint.isNaN(type, column, r)) {
                continue;
            }
            if (min < 0 || cmp.compare(r, min) < 0) {
                min = r;
            }
            if (max < 0 || cmp.compare(r, max) > 0) {
                max = r;
            }
        }
        ByteArraySink out = new ByteArraySink(32);
        if (min < 0) {
            if (!(type instanceof NullableType)) {
                throw new IllegalStateException("no min/max for column of type " + type.name());
            }
            out.writeByte(1);
            out.writeByte(1);
        } else {
            ValueSerde.write(type, column, min, out);
            ValueSerde.write(type, column, max, out);
        }
        return out.toByteArray();
    }

    /** The file name of a stream: the name, or its SipHash when longer than 127 characters. */
    static String fileName(String streamName) {
        return streamName.length() > MAX_FILE_NAME_LENGTH
                ? SipHash128.sipHash128String(streamName)
                : streamName;
    }

    static byte[] columnsTxt(Block block) {
        StringBuilder s = new StringBuilder("columns format version: 1\n");
        s.append(block.columnCount()).append(" columns:\n");
        for (int c = 0; c < block.columnCount(); c++) {
            s.append('`');
            String n = block.names().get(c);
            for (int i = 0; i < n.length(); i++) {
                char ch = n.charAt(i);
                if (ch == '`' || ch == '\\') {
                    s.append('\\');
                }
                s.append(ch);
            }
            s.append("` ").append(block.types().get(c).name()).append('\n');
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private void writeListed(Path dir, String name, byte[] content, Checksums checksums)
            throws IOException {
        writeUnlisted(dir, name, content);
        checksums.add(
                name,
                new Checksums.Entry(
                        content.length,
                        HashingOutput.hash(content, 0, content.length),
                        false,
                        0,
                        io.github.s3mergetree.engine.hash.Hash128.ZERO));
    }

    private void writeUnlisted(Path dir, String name, byte[] content) throws IOException {
        Path file = dir.resolve(name);
        try (FileChannel ch =
                FileChannel.open(
                        file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            if (options.fsync()) {
                ch.force(true);
            }
        }
    }

    static void syncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    private static void closeAll(Iterable<StreamWriter> writers) throws IOException {
        IOException first = null;
        for (StreamWriter w : writers) {
            try {
                w.close();
            } catch (IOException | UncheckedIOException e) {
                IOException io = e instanceof IOException x ? x : ((UncheckedIOException) e).getCause();
                if (first == null) {
                    first = io;
                } else {
                    first.addSuppressed(io);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
