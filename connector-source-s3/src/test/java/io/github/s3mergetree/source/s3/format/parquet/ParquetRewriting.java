package io.github.s3mergetree.source.s3.format.parquet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Rewrites Parquet files the way other writers would have written them, for tests: pages
 * recompressed with a codec chDB does not write (the deprecated Hadoop-framed LZ4), page CRC
 * checksums computed or damaged, footers edited (a logical type chDB does not write). Works on the
 * Thrift structures of parquet-format, so every other field stays as written; page indexes and
 * bloom filters, whose offsets a rewrite would make stale, are dropped.
 */
public final class ParquetRewriting {
    private ParquetRewriting() {}

    /** How a page's bytes are compressed by a rewrite. */
    @FunctionalInterface
    interface Compressor {
        byte[] compress(byte[] raw) throws IOException;
    }

    /** The footer of a file. */
    public static FileMetaData footer(byte[] file) throws IOException {
        int len = footerLength(file);
        return Util.readFileMetaData(new ByteArrayInputStream(file, file.length - 8 - len, len));
    }

    /** The file with its footer replaced by {@code edit}'s changes to it. */
    public static byte[] editFooter(byte[] file, Consumer<FileMetaData> edit) throws IOException {
        FileMetaData meta = footer(file);
        edit.accept(meta);
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 64);
        out.write(file, 0, file.length - 8 - footerLength(file));
        writeFooter(meta, out);
        return out.toByteArray();
    }

    /**
     * An UNCOMPRESSED file's pages compressed by {@code compressor} under {@code codec} (for a v2
     * data page only its values, as the format has it), each page's CRC computed when {@code crc}
     * (or removed).
     */
    public static byte[] recompress(
            byte[] file, CompressionCodec codec, Compressor compressor, boolean crc)
            throws IOException {
        FileMetaData meta = footer(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length);
        out.write(new byte[] {'P', 'A', 'R', '1'});
        for (RowGroup rg : meta.getRow_groups()) {
            long rgStart = out.size();
            long rgUncompressed = 0;
            for (ColumnChunk chunk : rg.getColumns()) {
                ColumnMetaData md = chunk.getMeta_data();
                if (md.getCodec() != CompressionCodec.UNCOMPRESSED) {
                    throw new IllegalArgumentException(
                            "not an UNCOMPRESSED file: " + md.getCodec());
                }
                long start =
                        md.isSetDictionary_page_offset() && md.getDictionary_page_offset() > 0
                                ? Math.min(md.getDictionary_page_offset(), md.getData_page_offset())
                                : md.getData_page_offset();
                long end = start + md.getTotal_compressed_size();
                ByteArrayInputStream in =
                        new ByteArrayInputStream(file, (int) start, (int) (end - start));
                long chunkStart = out.size();
                long uncompressed = 0;
                Long firstData = null;
                Long dictionary = null;
                while (in.available() > 0) {
                    PageHeader h = Util.readPageHeader(in);
                    byte[] body = in.readNBytes(h.getCompressed_page_size());
                    byte[] packed;
                    if (h.getType() == PageType.DATA_PAGE_V2) {
                        int levels =
                                h.getData_page_header_v2().getRepetition_levels_byte_length()
                                        + h.getData_page_header_v2()
                                                .getDefinition_levels_byte_length();
                        byte[] values =
                                compressor.compress(Arrays.copyOfRange(body, levels, body.length));
                        packed = Arrays.copyOf(body, levels + values.length);
                        System.arraycopy(values, 0, packed, levels, values.length);
                        h.getData_page_header_v2().setIs_compressed(true);
                    } else {
                        packed = compressor.compress(body);
                    }
                    h.setCompressed_page_size(packed.length);
                    if (crc) {
                        h.setCrc(crc32(packed));
                    } else {
                        h.unsetCrc();
                    }
                    if (h.getType() == PageType.DICTIONARY_PAGE) {
                        dictionary = (long) out.size();
                    } else if (firstData == null) {
                        firstData = (long) out.size();
                    }
                    int before = out.size();
                    Util.writePageHeader(h, out);
                    uncompressed += out.size() - before + h.getUncompressed_page_size();
                    out.write(packed);
                }
                md.setCodec(codec);
                md.setTotal_compressed_size(out.size() - chunkStart);
                md.setTotal_uncompressed_size(uncompressed);
                md.setData_page_offset(firstData);
                if (dictionary != null) {
                    md.setDictionary_page_offset(dictionary);
                } else {
                    md.unsetDictionary_page_offset();
                }
                md.unsetBloom_filter_offset();
                md.unsetBloom_filter_length();
                md.unsetIndex_page_offset();
                chunk.setFile_offset(chunkStart);
                chunk.unsetOffset_index_offset();
                chunk.unsetOffset_index_length();
                chunk.unsetColumn_index_offset();
                chunk.unsetColumn_index_length();
                rgUncompressed += uncompressed;
            }
            rg.setTotal_byte_size(rgUncompressed);
            if (rg.isSetFile_offset()) {
                rg.setFile_offset(rgStart);
            }
            if (rg.isSetTotal_compressed_size()) {
                rg.setTotal_compressed_size(out.size() - rgStart);
            }
        }
        writeFooter(meta, out);
        return out.toByteArray();
    }

    /**
     * Where the first data page of column {@code column} (its index among the leaves) of row group
     * {@code rowGroup} has its compressed bytes: {offset, length}.
     */
    public static int[] firstDataPageBody(byte[] file, int rowGroup, int column)
            throws IOException {
        ColumnMetaData md =
                footer(file).getRow_groups().get(rowGroup).getColumns().get(column).getMeta_data();
        int at = (int) md.getData_page_offset();
        ByteArrayInputStream in = new ByteArrayInputStream(file, at, file.length - at);
        PageHeader h = Util.readPageHeader(in);
        int headerLength = file.length - at - in.available();
        return new int[] {at + headerLength, h.getCompressed_page_size()};
    }

    /** The page header at {@code offset}. */
    public static PageHeader pageHeader(byte[] file, long offset) throws IOException {
        return Util.readPageHeader(
                new ByteArrayInputStream(file, (int) offset, file.length - (int) offset));
    }

    /** A file's schema as parquet-mr reads it. */
    public static org.apache.parquet.schema.MessageType schema(java.nio.file.Path file)
            throws IOException {
        try (var r =
                org.apache.parquet.hadoop.ParquetFileReader.open(
                        new org.apache.parquet.io.LocalInputFile(file),
                        new org.apache.parquet.ParquetReadOptions.Builder(
                                        new org.apache.parquet.conf.PlainParquetConfiguration())
                                .withCodecFactory(DecompressOnlyCodecFactory.INSTANCE)
                                .build())) {
            return r.getFileMetaData().getSchema();
        }
    }

    static int crc32(byte[] bytes) {
        CRC32 c = new CRC32();
        c.update(bytes);
        return (int) c.getValue();
    }

    private static int footerLength(byte[] file) {
        return ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static void writeFooter(FileMetaData meta, ByteArrayOutputStream out)
            throws IOException {
        ByteArrayOutputStream f = new ByteArrayOutputStream();
        Util.writeFileMetaData(meta, f);
        out.write(f.toByteArray());
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(f.size()).array());
        out.write(new byte[] {'P', 'A', 'R', '1'});
    }
}
