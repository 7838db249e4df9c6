package io.github.s3mergetree.source.s3.format.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.io.ByteArraySink;
import io.github.s3mergetree.engine.serde.ValueSerde;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbException;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.Compressors;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The text-format defects found with files written by other tools, each compared with ClickHouse
 * (chDB) reading the same bytes: quoted line breaks under byte-range splitting, splits that start
 * inside a UTF-8 character, a BOM before a header (pandas {@code utf-8-sig}), non-UTF-8 String
 * bytes, {@code \r\n} inside quoted CSV fields, date-times with a zone suffix, ClickHouse-written
 * {@code .lz4}; and the messages of corrupt or truncated compressed objects and of a bad line deep
 * in a file.
 */
class TextRealWorldTest {
    @TempDir static Path dir;
    static ChDb chdb;

    @BeforeAll
    static void start() {
        chdb = ChDb.start(dir.resolve("chdb"));
    }

    @AfterAll
    static void stop() {
        chdb.close();
    }

    static Path data() throws Exception {
        return Files.createDirectories(dir.resolve("data"));
    }

    /** ClickHouse's rows of {@code key} as RowBinary, or null if ClickHouse refuses the file. */
    static byte[] clickHouse(String key, String format, String structure, String settings) {
        try {
            return chdb.readFileAsRowBinary(
                    dir.resolve("data").resolve(key), format, structure, settings);
        } catch (ChDbException e) {
            return null;
        }
    }

    static FormatTesting testing(Configuration conf) throws Exception {
        return new FormatTesting(
                ObjectStoreConfig.localDirectory(data().toString()).createClient(), conf);
    }

    static byte[] rowBinary(List<Block> blocks) {
        ByteArraySink out = new ByteArraySink();
        for (Block b : blocks) {
            for (int r = 0; r < b.rows(); r++) {
                for (int c = 0; c < b.columnCount(); c++) {
                    ValueSerde.write(b.types().get(c), b.column(c), r, out);
                }
            }
        }
        return out.toByteArray();
    }

    /** Our rows of {@code key}, read split by split (in order) with {@code splitSize}. */
    static byte[] ours(
            String key,
            TextBlockFormat.Kind kind,
            String structure,
            long splitSize,
            Configuration c)
            throws Exception {
        return rowBinary(oursBlocks(key, kind, structure, splitSize, c));
    }

    /** Our blocks of {@code key}, read split by split (in order) with {@code splitSize}. */
    static List<Block> oursBlocks(
            String key,
            TextBlockFormat.Kind kind,
            String structure,
            long splitSize,
            Configuration c)
            throws Exception {
        TextBlockFormat format = new TextBlockFormat(kind, TargetSchema.parse(structure));
        try (FormatTesting t = testing(c)) {
            List<Block> blocks = new ArrayList<>();
            for (S3ObjectSplit s : new SplitPlanner(format, splitSize).plan(t.client.head(key))) {
                t.readAll(format, s).forEach(r -> blocks.add(r.record()));
            }
            return blocks;
        }
    }

    static void assertSameAsClickHouse(
            String key, TextBlockFormat.Kind kind, String structure, long splitSize)
            throws Exception {
        byte[] expected = clickHouse(key, kind.clickHouseName(), structure, "");
        assertThat(expected).as("ClickHouse reads " + key).isNotNull();
        List<Block> blocks = oursBlocks(key, kind, structure, splitSize, new Configuration());
        byte[] actual = rowBinary(blocks);
        if (!Arrays.equals(actual, expected)) { // say which row and column, not 1000 bytes
            assertThat(ReadAsClickHouse.firstDifference(blocks, expected))
                    .as("first difference of our rows of " + key + " from ClickHouse's")
                    .isEqualTo("none");
        }
        assertThat(actual).as("rows of " + key + " (RowBinary)").isEqualTo(expected);
    }

    @Test
    void csvWithQuotedLineBreaksIsNeverCutIntoByteRanges() throws Exception {
        StringBuilder csv = new StringBuilder("id,body\n");
        Random r = new Random(1);
        for (int i = 0; i < 3000; i++) {
            csv.append(i).append(",\"line one of ").append(i);
            for (int k = r.nextInt(4); k > 0; k--) {
                csv.append("\n")
                        .append(k)
                        .append(",forged id ")
                        .append(k)
                        .append(",\"\"quoted\"\"");
            }
            csv.append("\"\n");
        }
        Files.writeString(data().resolve("multiline.csv"), csv.toString());
        String structure = "id UInt32, body String";
        TextBlockFormat format =
                new TextBlockFormat(
                        TextBlockFormat.Kind.CSV_WITH_NAMES, TargetSchema.parse(structure));
        try (FormatTesting t = testing(new Configuration())) {
            assertThat(new SplitPlanner(format, 1000).plan(t.client.head("multiline.csv")))
                    .as("a CSV object is read whole: a range could start inside a quoted field")
                    .hasSize(1);
        }
        assertSameAsClickHouse(
                "multiline.csv", TextBlockFormat.Kind.CSV_WITH_NAMES, structure, 1000);
        assertThat(clickHouse("multiline.csv", "CSVWithNames", "c UInt64", "")).isNotNull();
        assertThat(
                        chdb.query(
                                "SELECT count() FROM file('"
                                        + data().resolve("multiline.csv")
                                        + "', 'CSVWithNames', '"
                                        + structure
                                        + "')"))
                .isEqualTo("3000");
    }

    @Test
    void jsonEachRowIsNeverCutIntoByteRanges() throws Exception {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            json.append("{\"id\":")
                    .append(i)
                    .append(",\"s\":\"a\nraw line break }\n{\\\"id\\\":99}\"}\n");
        }
        Files.writeString(data().resolve("raw.jsonl"), json.toString());
        String structure = "id UInt32, s String";
        TextBlockFormat format =
                new TextBlockFormat(
                        TextBlockFormat.Kind.JSON_EACH_ROW, TargetSchema.parse(structure));
        assertThat(format.isSplittable("raw.jsonl")).isFalse();
        assertSameAsClickHouse("raw.jsonl", TextBlockFormat.Kind.JSON_EACH_ROW, structure, 100);
    }

    @Test
    void tsvRangesAgreeOnEveryRowBoundaryWithEscapesAndMultiByteCharacters() throws Exception {
        ByteArrayOutputStream tsv = new ByteArrayOutputStream();
        Random r = new Random(7);
        String[] values = {
            "ünïcödé ✓✓✓", "ends with backslash \\\\", "escaped\\nnewline",
                    "escaped \\\nraw newline",
            "tab\\there", "\\xC3\\xA9 by escape", "日本語のテキスト", "x"
        };
        for (int i = 0; i < 4000; i++) {
            tsv.writeBytes(
                    (i + "\t" + r.nextInt(1000) + "\t" + values[r.nextInt(values.length)] + "\n")
                            .getBytes(StandardCharsets.UTF_8));
        }
        Files.write(data().resolve("ranges.tsv"), tsv.toByteArray());
        String structure = "id UInt32, n Int32, s String";
        TextBlockFormat format =
                new TextBlockFormat(
                        TextBlockFormat.Kind.TAB_SEPARATED, TargetSchema.parse(structure));
        try (FormatTesting t = testing(new Configuration())) {
            assertThat(new SplitPlanner(format, 997).plan(t.client.head("ranges.tsv")).size())
                    .isGreaterThan(50);
        }
        // 997, 1009, 4093 bytes: ranges start anywhere, inside multi-byte characters included
        for (long size : new long[] {997, 1009, 4093}) {
            assertSameAsClickHouse(
                    "ranges.tsv", TextBlockFormat.Kind.TAB_SEPARATED, structure, size);
        }
    }

    @Test
    void bomBeforeAHeaderAsPandasWritesItReadsTheFirstColumn() throws Exception {
        // pandas DataFrame.to_csv(encoding="utf-8-sig"), Excel "CSV UTF-8": BOM, header, rows
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        byte[] body =
                "name,score\nalice,1.5\nbob,2.0\n\"c, d\",3\n".getBytes(StandardCharsets.UTF_8);
        byte[] file = Arrays.copyOf(bom, bom.length + body.length);
        System.arraycopy(body, 0, file, bom.length, body.length);
        Files.write(data().resolve("pandas.csv"), file);
        String structure = "name Nullable(String), score Float64";
        assertSameAsClickHouse("pandas.csv", TextBlockFormat.Kind.CSV_WITH_NAMES, structure, 0);
        byte[] rows =
                ours(
                        "pandas.csv",
                        TextBlockFormat.Kind.CSV_WITH_NAMES,
                        structure,
                        0,
                        new Configuration());
        assertThat(new String(rows, StandardCharsets.UTF_8)).contains("alice").contains("c, d");
        Files.write(
                data().resolve("pandas.tsv"),
                ("\uFEFFname\tscore\nalice\t1.5\n").getBytes(StandardCharsets.UTF_8));
        assertSameAsClickHouse(
                "pandas.tsv", TextBlockFormat.Kind.TAB_SEPARATED_WITH_NAMES, structure, 0);
    }

    @Test
    void nonUtf8StringBytesAreStoredUnchanged() throws Exception {
        byte[] latin1 =
                "1,caf\u00e9 cr\u00e8me,\"\u00ff\u00fe\"\n2,plain,x\n"
                        .getBytes(StandardCharsets.ISO_8859_1);
        Files.write(data().resolve("latin1.csv"), latin1);
        assertSameAsClickHouse(
                "latin1.csv", TextBlockFormat.Kind.CSV, "id UInt8, a String, b String", 0);
        byte[] row =
                ours(
                        "latin1.csv",
                        TextBlockFormat.Kind.CSV,
                        "id UInt8, a String, b String",
                        0,
                        new Configuration());
        assertThat(indexOf(row, new byte[] {'c', 'a', 'f', (byte) 0xE9}))
                .as("byte 0xE9 kept")
                .isPositive();
        Files.write(
                data().resolve("latin1.tsv"),
                "1\tcaf\u00e9\t\u00ff\n".getBytes(StandardCharsets.ISO_8859_1));
        assertSameAsClickHouse(
                "latin1.tsv",
                TextBlockFormat.Kind.TAB_SEPARATED,
                "id UInt8, a String, b String",
                0);
        Files.write(
                data().resolve("latin1.json"),
                "{\"id\":1,\"a\":\"caf\u00e9\",\"b\":\"\u00ff\"}\n"
                        .getBytes(StandardCharsets.ISO_8859_1));
        assertSameAsClickHouse(
                "latin1.json",
                TextBlockFormat.Kind.JSON_EACH_ROW,
                "id UInt8, a String, b String",
                0);
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (hay[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void crlfRowsWithCrlfInsideQuotedFieldsKeepTheQuotedCr() throws Exception {
        Files.writeString(
                data().resolve("crlf.csv"),
                "id,text\r\n1,\"first\r\nsecond\"\r\n2,\"a\rb\"\r\n3,plain\r\n");
        assertSameAsClickHouse(
                "crlf.csv", TextBlockFormat.Kind.CSV_WITH_NAMES, "id UInt8, text String", 0);
        byte[] rows =
                ours(
                        "crlf.csv",
                        TextBlockFormat.Kind.CSV_WITH_NAMES,
                        "id UInt8, text String",
                        0,
                        new Configuration());
        assertThat(new String(rows, StandardCharsets.UTF_8)).contains("first\r\nsecond");
    }

    @Test
    void dateTimesWithAZoneSuffixFollowDateTimeInputFormat() throws Exception {
        // as pyarrow, DuckDB and JavaScript write them
        Files.writeString(
                data().resolve("zones.csv"),
                "ts,ts3\n2021-10-13 10:58:45Z,2021-10-13T10:58:45.123Z\n"
                        + "2000-01-01 00:00:00+00,2000-01-01 00:00:00.5+00\n"
                        + "2000-01-01 12:00:00+05:30,2000-01-01T12:00:00-08:00\n"
                        + "1700000000,2023-11-14 22:13:20\n");
        String structure = "ts DateTime('UTC'), ts3 DateTime64(3, 'Asia/Tokyo')";
        assertSameAsClickHouse("zones.csv", TextBlockFormat.Kind.CSV_WITH_NAMES, structure, 0);
        Files.writeString(
                data().resolve("zones.json"),
                "{\"ts\":\"2021-10-13 10:58:45Z\",\"ts3\":\"2000-01-01 00:00:00.5+00\"}\n"
                        + "{\"ts\":1700000000,\"ts3\":1700000000123}\n");
        assertSameAsClickHouse("zones.json", TextBlockFormat.Kind.JSON_EACH_ROW, structure, 0);
        // basic refuses the suffix, in ClickHouse and here
        assertThat(
                        clickHouse(
                                "zones.csv",
                                "CSVWithNames",
                                structure,
                                ", date_time_input_format = 'basic'"))
                .isNull();
        Configuration basic = new Configuration();
        basic.set(S3SourceOptions.DATE_TIME_INPUT_FORMAT, "basic");
        assertThatThrownBy(
                        () ->
                                ours(
                                        "zones.csv",
                                        TextBlockFormat.Kind.CSV_WITH_NAMES,
                                        structure,
                                        0,
                                        basic))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("at line 2, byte offset 7")
                .hasMessageContaining("after column 'ts': Cannot parse input: expected ','");
    }

    @Test
    void everyCompressionAsClickHouseWritesItIsRead() throws Exception {
        String structure = "id UInt64, s String, d Date";
        for (String ext : List.of("lz4", "gz", "zst", "xz")) { // chDB writes no bz2
            Path out = data().resolve("ch.csv." + ext);
            chdb.execute(
                    "INSERT INTO FUNCTION file('"
                            + out
                            + "', 'CSV', '"
                            + structure
                            + "') SELECT number, repeat(toString(number), number % 50), toDate(number % 20000)"
                            + " FROM numbers(200000) SETTINGS engine_file_truncate_on_insert = 1");
            assertSameAsClickHouse("ch.csv." + ext, TextBlockFormat.Kind.CSV, structure, 0);
        }
        byte[] head = Arrays.copyOf(Files.readAllBytes(data().resolve("ch.csv.lz4")), 7);
        assertThat((head[4] & 0x20) == 0)
                .as("ClickHouse writes LZ4 frames with linked (dependent) blocks")
                .isTrue();
    }

    @Test
    void corruptOrTruncatedCompressedDataNamesTheCodecObjectAndCompressedOffset() throws Exception {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < 20000; i++) {
            json.append("{\"id\":")
                    .append(i)
                    .append(",\"s\":\"value ")
                    .append(i * 7919L % 10007)
                    .append("\"}\n");
        }
        byte[] plain = json.toString().getBytes(StandardCharsets.UTF_8);
        String structure = "id UInt32, s String";
        for (String ext : List.of("gz", "zst", "lz4", "xz", "bz2")) {
            // lz4 frames carry no checksum by default (ClickHouse writes none): with one, as the
            // lz4 tool writes them, a flipped byte is found
            byte[] packed =
                    ext.equals("lz4")
                            ? lz4WithContentChecksum(plain)
                            : Compressors.compress(ext, plain);
            Files.write(
                    data().resolve("cut.jsonl." + ext),
                    Arrays.copyOf(packed, packed.length * 2 / 3));
            byte[] flipped = packed.clone();
            for (int i = packed.length / 3; i < packed.length / 3 + 64; i++) {
                flipped[i] ^= 0x5A;
            }
            Files.write(data().resolve("bad.jsonl." + ext), flipped);
            String codec = ext.equals("gz") ? "gzip" : ext.equals("zst") ? "zstd" : ext;
            for (String key : List.of("cut.jsonl." + ext, "bad.jsonl." + ext)) {
                assertThatThrownBy(
                                () ->
                                        ours(
                                                key,
                                                TextBlockFormat.Kind.JSON_EACH_ROW,
                                                structure,
                                                0,
                                                new Configuration()))
                        .as(key)
                        .isInstanceOf(ObjectFormatException.class)
                        .hasMessageStartingWith(
                                "corrupt "
                                        + codec
                                        + " data in object file://"
                                        + data().resolve(key)
                                        + " at compressed offset ")
                        .hasMessageNotContaining("column");
            }
        }
    }

    static byte[] lz4WithContentChecksum(byte[] data) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var lz4 =
                new net.jpountz.lz4.LZ4FrameOutputStream(
                        out,
                        net.jpountz.lz4.LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                        net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE,
                        net.jpountz.lz4.LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
            lz4.write(data);
        }
        return out.toByteArray();
    }

    @Test
    void aBadLineDeepInAFileIsReportedAtItsLine() throws Exception {
        StringBuilder json = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            json.append(
                    i == 500
                            ? "{\"id\":500,\"s\":\"broken}\n"
                            : "{\"id\":" + i + ",\"s\":\"ok\"}\n");
        }
        Files.writeString(data().resolve("line500.jsonl"), json.toString());
        Files.write(
                data().resolve("line500.jsonl.gz"),
                Compressors.compress("gz", json.toString().getBytes(StandardCharsets.UTF_8)));
        for (String key : List.of("line500.jsonl", "line500.jsonl.gz")) {
            assertThatThrownBy(
                            () ->
                                    ours(
                                            key,
                                            TextBlockFormat.Kind.JSON_EACH_ROW,
                                            "id UInt32, s String",
                                            0,
                                            new Configuration()))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining(
                            "file://"
                                    + data().resolve(key)
                                    + ": cannot parse JSONEachRow input at line 500")
                    .hasMessageNotContaining("REDACTED")
                    .hasMessageNotContaining("file:////");
        }
        StringBuilder csv = new StringBuilder("id,n\n");
        for (int i = 1; i < 1000; i++) {
            csv.append(i).append(',').append(i == 499 ? "x" : String.valueOf(i)).append('\n');
        }
        Files.writeString(data().resolve("line500.csv"), csv.toString());
        assertThatThrownBy(
                        () ->
                                ours(
                                        "line500.csv",
                                        TextBlockFormat.Kind.CSV_WITH_NAMES,
                                        "id UInt32, n UInt32",
                                        0,
                                        new Configuration()))
                .isInstanceOf(ObjectFormatException.class)
                .hasMessageContaining("at line 500, byte offset ")
                .hasMessageContaining("after column 'n': Expected end of line before: 'x\\n")
                .hasMessageContaining("the value of column 'n' is not a valid UInt32");
    }
}
