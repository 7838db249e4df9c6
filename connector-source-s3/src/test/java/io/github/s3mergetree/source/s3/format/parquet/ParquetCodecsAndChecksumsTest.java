package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.stream.Stream;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Parquet page codecs and page checksums, each against ClickHouse (chDB): the codecs chDB writes
 * (BROTLI among them), the deprecated LZ4 codec as parquet-mr writes it (Hadoop frames, several per
 * page) and as old Arrow wrote it (one bare LZ4 block), made by recompressing a chDB file's pages;
 * page CRC checksums verified, a damaged page refused as ClickHouse refuses it ("Page CRC checksum
 * verification failed", naming object, row group and column), and the errors of a truncated file
 * and of a corrupt LZ4 page, which must name the object and hold no raw bytes.
 */
class ParquetCodecsAndChecksumsTest {
    @ChDbSession static ChDb chdb;

    @TempDir Path dir;

    static final String STRUCTURE =
            "id Int64, s Nullable(String), li Array(Nullable(Int32)), d Float64";

    /** Strings that compress, NULLs, lists: several pages per chunk and 3 row groups. */
    static final String ROWS =
            "SELECT number AS id, if(number % 7 = 0, NULL, repeat(concat('v', toString(number %"
                    + " 100), ';'), number % 9)) AS s, arrayMap(k -> if(k = 2, NULL,"
                    + " toInt32(number + k)), range(number % 5)) AS li, number / 3 AS d FROM"
                    + " numbers(20000)";

    /** chDB's Parquet of {@link #ROWS} with a compression method; checksums when asked. */
    private Path chDbParquet(String name, String compression, boolean checksums)
            throws IOException {
        return chDbParquet(name, compression, checksums, true);
    }

    /** ... and without dictionaries: PLAIN pages, whose bytes can be changed to other values. */
    private Path chDbParquet(String name, String compression, boolean checksums, boolean dict)
            throws IOException {
        Path f = dir.resolve(name);
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + f
                        + "', Parquet, '"
                        + STRUCTURE
                        + "') "
                        + ROWS
                        + " SETTINGS engine_file_truncate_on_insert = 1,"
                        + " output_format_parquet_compression_method = '"
                        + compression
                        + "', output_format_parquet_write_checksums = "
                        + (checksums ? 1 : 0)
                        + ", output_format_parquet_write_page_index = 0,"
                        + " output_format_parquet_write_bloom_filter = 0,"
                        + " output_format_parquet_row_group_size = 7000,"
                        + " output_format_parquet_data_page_size = 8192"
                        + (dict ? "" : ", output_format_parquet_max_dictionary_size = 1"));
        return f;
    }

    private static Stream<ColumnChunk> chunks(byte[] file) throws IOException {
        return ParquetRewriting.footer(file).getRow_groups().stream()
                .map(RowGroup::getColumns)
                .flatMap(java.util.List::stream);
    }

    @ParameterizedTest
    @ValueSource(strings = {"none", "snappy", "gzip", "brotli", "zstd", "lz4"})
    void codecsThatClickHouseWritesAreReadAsItReadsThem(String compression) throws Exception {
        Path f = chDbParquet("c-" + compression + ".parquet", compression, false);
        CompressionCodec expected =
                switch (compression) {
                    case "none" -> CompressionCodec.UNCOMPRESSED;
                    case "lz4" -> CompressionCodec.LZ4_RAW;
                    default -> CompressionCodec.valueOf(compression.toUpperCase());
                };
        assertThat(chunks(Files.readAllBytes(f)))
                .allMatch(c -> c.getMeta_data().getCodec() == expected);
        assertThat(ReadAsClickHouse.assertSame(chdb, f, "Parquet", STRUCTURE)).isEqualTo(20000);
    }

    /** Hadoop's LZ4 framing: per frame a big-endian raw size, compressed size, and LZ4 block. */
    static byte[] hadoopLz4(byte[] raw, int frameBytes) {
        LZ4Compressor c = LZ4Factory.fastestInstance().fastCompressor();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = 0;
        do {
            int n = Math.min(frameBytes, raw.length - at);
            byte[] block = c.compress(Arrays.copyOfRange(raw, at, at + n));
            out.writeBytes(ByteBuffer.allocate(8).putInt(n).putInt(block.length).array());
            out.writeBytes(block);
            at += n;
        } while (at < raw.length);
        return out.toByteArray();
    }

    @Test
    void deprecatedLz4CodecAsHadoopFramesOrABareBlock() throws Exception {
        byte[] plain = Files.readAllBytes(chDbParquet("plain.parquet", "none", false));
        // parquet-mr through Hadoop's Lz4Codec: frames of at most 1000 raw bytes, so a page of
        // 8 KiB holds several
        Path hadoop = dir.resolve("lz4-hadoop.parquet");
        Files.write(
                hadoop,
                ParquetRewriting.recompress(
                        plain, CompressionCodec.LZ4, raw -> hadoopLz4(raw, 1000), false));
        // old Arrow: one bare LZ4 block under the same codec id
        LZ4Compressor block = LZ4Factory.fastestInstance().fastCompressor();
        Path bare = dir.resolve("lz4-bare.parquet");
        Files.write(
                bare,
                ParquetRewriting.recompress(plain, CompressionCodec.LZ4, block::compress, false));
        for (Path f : new Path[] {hadoop, bare}) {
            byte[] bytes = Files.readAllBytes(f);
            assertThat(chunks(bytes))
                    .allMatch(c -> c.getMeta_data().getCodec() == CompressionCodec.LZ4);
            assertThat(ReadAsClickHouse.assertSame(chdb, f, "Parquet", STRUCTURE)).isEqualTo(20000);
        }
        // pages of several frames were written: the first page of column s holds more than 3
        byte[] hadoopBytes = Files.readAllBytes(hadoop);
        int[] page = ParquetRewriting.firstDataPageBody(hadoopBytes, 0, 1);
        int frames = 0;
        for (int at = page[0]; at < page[0] + page[1]; frames++) {
            at += 8 + ByteBuffer.wrap(hadoopBytes, at + 4, 4).getInt();
        }
        assertThat(frames).isGreaterThan(3);
    }

    @Test
    void aCorruptLz4PageIsRefusedNamingObjectRowGroupAndColumn() throws Exception {
        byte[] plain = Files.readAllBytes(chDbParquet("plain.parquet", "none", false));
        byte[] lz4 =
                ParquetRewriting.recompress(
                        plain, CompressionCodec.LZ4, raw -> hadoopLz4(raw, 1 << 20), false);
        // the first page of column s: its frame's block damaged (after the 8 size bytes)
        int[] page = ParquetRewriting.firstDataPageBody(lz4, 0, 1);
        for (int i = 8; i < page[1]; i += 3) {
            lz4[page[0] + i] ^= (byte) 0x5A;
        }
        Path f = dir.resolve("lz4-corrupt.parquet");
        Files.write(f, lz4);
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, f, "Parquet", STRUCTURE))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> ReadAsClickHouse.ours(f, "Parquet", STRUCTURE))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("lz4-corrupt.parquet")
                .hasMessageContaining("row group 0")
                .hasMessageContaining("column 's'")
                .hasMessageContaining("LZ4")
                .satisfies(e -> assertPrintable(e.getMessage()));
    }

    @Test
    void pageChecksumsAreVerified() throws Exception {
        Path f = chDbParquet("crc.parquet", "zstd", true);
        byte[] good = Files.readAllBytes(f);
        // ClickHouse wrote a CRC on every page
        FileMetaData meta = ParquetRewriting.footer(good);
        long firstPage =
                meta.getRow_groups()
                        .get(0)
                        .getColumns()
                        .get(1)
                        .getMeta_data()
                        .getData_page_offset();
        assertThat(ParquetRewriting.pageHeader(good, firstPage).isSetCrc()).isTrue();
        assertThat(ReadAsClickHouse.assertSame(chdb, f, "Parquet", STRUCTURE)).isEqualTo(20000);

        // checksums computed by the rewriter over PLAIN uncompressed pages, then one byte of the
        // first page of column d (doubles: any byte is part of a value) changed: its checksum
        // disagrees
        byte[] plain = Files.readAllBytes(chDbParquet("plain.parquet", "none", false, false));
        byte[] withCrc =
                ParquetRewriting.recompress(plain, CompressionCodec.UNCOMPRESSED, raw -> raw, true);
        Path ok = dir.resolve("crc-ok.parquet");
        Files.write(ok, withCrc);
        assertThat(ReadAsClickHouse.assertSame(chdb, ok, "Parquet", STRUCTURE)).isEqualTo(20000);
        int[] page = ParquetRewriting.firstDataPageBody(withCrc, 0, 3);
        byte[] damaged = withCrc.clone();
        damaged[page[0] + page[1] / 2] ^= 0x01;
        Path bad = dir.resolve("crc-wrong.parquet");
        Files.write(bad, damaged);
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, bad, "Parquet", STRUCTURE))
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> ReadAsClickHouse.ours(bad, "Parquet", STRUCTURE))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("crc-wrong.parquet")
                .hasMessageContaining("row group 0, column 'd'")
                .hasMessageContaining("Page CRC checksum verification failed")
                .satisfies(e -> assertPrintable(e.getMessage()));

        // the same byte changed in the file without checksums is read by both, to another value:
        // only the checksum tells
        int[] plainPage = ParquetRewriting.firstDataPageBody(plain, 0, 3);
        assertThat(Arrays.copyOfRange(plain, plainPage[0], plainPage[0] + plainPage[1]))
                .isEqualTo(Arrays.copyOfRange(withCrc, page[0], page[0] + page[1]));
        byte[] noCrc = plain.clone();
        noCrc[plainPage[0] + plainPage[1] / 2] ^= 0x01;
        Path unchecked = dir.resolve("no-crc-changed.parquet");
        Files.write(unchecked, noCrc);
        assertThat(ReadAsClickHouse.assertSame(chdb, unchecked, "Parquet", STRUCTURE))
                .isEqualTo(20000);
        assertThat(ReadAsClickHouse.clickHouse(chdb, unchecked, "Parquet", STRUCTURE))
                .isNotEqualTo(ReadAsClickHouse.clickHouse(chdb, ok, "Parquet", STRUCTURE));

        // a wrong checksum over intact bytes is refused too (a dictionary-encoded string chunk)
        byte[] dictionary = Files.readAllBytes(chDbParquet("dict.parquet", "none", false));
        byte[] summed =
                ParquetRewriting.recompress(
                        dictionary, CompressionCodec.UNCOMPRESSED, raw -> raw, true);
        FileMetaData m = ParquetRewriting.footer(summed);
        long at = m.getRow_groups().get(1).getColumns().get(1).getMeta_data().getData_page_offset();
        Path wrong = dir.resolve("crc-value-wrong.parquet");
        Files.write(wrong, withCrcChanged(summed, at));
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, wrong, "Parquet", STRUCTURE))
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> ReadAsClickHouse.ours(wrong, "Parquet", STRUCTURE))
                .hasMessageContaining("crc-value-wrong.parquet")
                .hasMessageContaining("row group 1, column 's'")
                .hasMessageContaining("Page CRC checksum verification failed");
    }

    /** The file with the CRC of the page header at {@code at} plus one (same header length). */
    private static byte[] withCrcChanged(byte[] file, long at) throws IOException {
        var h = ParquetRewriting.pageHeader(file, at);
        ByteArrayOutputStream before = new ByteArrayOutputStream();
        org.apache.parquet.format.Util.writePageHeader(h, before);
        for (int delta = 1; ; delta++) {
            h.setCrc(h.getCrc() + delta);
            ByteArrayOutputStream after = new ByteArrayOutputStream();
            org.apache.parquet.format.Util.writePageHeader(h, after);
            if (after.size() == before.size()) {
                byte[] out = file.clone();
                System.arraycopy(after.toByteArray(), 0, out, (int) at, after.size());
                return out;
            }
            h.setCrc(h.getCrc() - delta);
        }
    }

    @Test
    void aTruncatedFileIsRefusedWithItsBytesEscaped() throws Exception {
        byte[] whole = Files.readAllBytes(chDbParquet("whole.parquet", "zstd", false));
        Path f = dir.resolve("truncated.parquet");
        Files.write(f, Arrays.copyOf(whole, whole.length / 2));
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, f, "Parquet", STRUCTURE))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> ReadAsClickHouse.ours(f, "Parquet", STRUCTURE))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("truncated.parquet")
                .hasMessageContaining("not a Parquet file (no PAR1 magic at the end, found '")
                .satisfies(e -> assertPrintable(e.getMessage()))
                .satisfies(
                        e -> {
                            // the four bytes found, as the message shows them
                            String found =
                                    e.getMessage()
                                            .replaceAll("(?s).*found '(.*)': truncated.*", "$1");
                            assertThat(found)
                                    .isEqualTo(
                                            io.github.s3mergetree.engine.convert.ValueConverter
                                                    .escapeBytes(
                                                            Arrays.copyOfRange(
                                                                    whole,
                                                                    whole.length / 2 - 4,
                                                                    whole.length / 2)));
                        });
    }

    @Test
    void aValueThatDoesNotConvertIsShownEscaped() throws Exception {
        Path f = dir.resolve("bad-value.parquet");
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + f
                        + "', Parquet, 's String') SELECT if(number = 3, concat('7', char(1),"
                        + " char(10), char(27), '\\'q'), toString(number)) FROM numbers(10)"
                        + " SETTINGS engine_file_truncate_on_insert = 1");
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, f, "Parquet", "s Int32"))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> ReadAsClickHouse.ours(f, "Parquet", "s Int32"))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("bad-value.parquet")
                .hasMessageContaining("row group 0, row 3, column 's'")
                .hasMessageContaining("7\\x01\\n\\x1B")
                .satisfies(e -> assertPrintable(e.getMessage()));
    }

    @Test
    void aValueThatIsNotUtf8IsShownByteByByte() throws Exception {
        // bytes 0xFF 0xFE are not UTF-8: the message shows them as \xFF\xFE, not as U+FFFD
        Path f = dir.resolve("latin1-value.parquet");
        chdb.execute(
                "INSERT INTO FUNCTION file('"
                        + f
                        + "', Parquet, 's String') SELECT if(number = 5, concat('9', char(255),"
                        + " char(254)), toString(number)) FROM numbers(10)"
                        + " SETTINGS engine_file_truncate_on_insert = 1");
        assertThatThrownBy(() -> ReadAsClickHouse.clickHouse(chdb, f, "Parquet", "s Int32"))
                .isInstanceOf(RuntimeException.class);
        assertThatThrownBy(() -> ReadAsClickHouse.ours(f, "Parquet", "s Int32"))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("latin1-value.parquet")
                .hasMessageContaining("row group 0, row 5, column 's'")
                .hasMessageContaining("'9\\xFF\\xFE'")
                .satisfies(e -> assertPrintable(e.getMessage()));
        // the same bytes into a String column are stored unchanged, as ClickHouse stores them
        for (String structure :
                new String[] {"s String", "s Nullable(String)", "s FixedString(3)"}) {
            assertThat(ReadAsClickHouse.assertSame(chdb, f, "Parquet", structure))
                    .as(structure)
                    .isEqualTo(10);
        }
    }

    /** No control character, C1 control or replacement character: bytes were escaped. */
    static void assertPrintable(String message) {
        for (int i = 0; i < message.length(); i++) {
            char c = message.charAt(i);
            assertThat(c < 0x20 && c != '\n' || c >= 0x7F && c < 0xA0 || c == '\uFFFD')
                    .as("character 0x%x at %d of: %s", (int) c, i, message)
                    .isFalse();
        }
    }
}
