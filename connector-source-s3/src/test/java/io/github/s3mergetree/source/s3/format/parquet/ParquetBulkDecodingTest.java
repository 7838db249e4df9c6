package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.ByteColumn;
import io.github.s3mergetree.engine.column.DoubleColumn;
import io.github.s3mergetree.engine.column.FloatColumn;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.NullableColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bulk page decoding of flat columns ({@link ParquetFlatPageReader}) gives the same Blocks as the
 * value-by-value path, for v1 and v2 pages, PLAIN and dictionary pages (including a dictionary that
 * falls back to PLAIN mid-chunk), nulls in optional columns, and several row groups.
 */
class ParquetBulkDecodingTest {
    @TempDir Path dir;

    static final String SCHEMA =
            "message m { required int64 id; optional int32 small; required float f;"
                    + " optional double d; optional binary low (STRING);"
                    + " required binary unique (STRING);"
                    + " optional int64 ts (TIMESTAMP(MILLIS, true));"
                    + " required int32 cnt (INTEGER(8, false)); optional int32 ans (INTEGER(16, false));"
                    + " required int32 sh (INTEGER(16, true)); optional binary kind (ENUM);"
                    + " required binary kind16 (STRING); optional int32 day (DATE);"
                    + " required int32 day2 (DATE); optional int64 sec (TIMESTAMP(MILLIS, true));"
                    + " required int64 sec2 (TIMESTAMP(MICROS, false));"
                    + " required int64 sec3 (TIMESTAMP(NANOS, true)); }";
    static final String TARGET =
            "id Int64, small Nullable(Int32), f Float32, d Float64, low LowCardinality(String),"
                    + " unique String, ts DateTime64(3, 'UTC'), cnt UInt8, ans Nullable(UInt16),"
                    + " sh Int16, kind Enum8('Question' = 1, 'Answer' = 2, 'Wiki' = 3),"
                    + " kind16 Enum16('low' = -1000, 'high' = 1000), day Date,"
                    + " day2 Nullable(Date), sec DateTime('UTC'), sec2 Nullable(DateTime),"
                    + " sec3 DateTime('UTC')";
    static final int ROWS = 60_000;
    static final String[] KINDS = {"Question", "Answer", "Wiki"};

    @AfterEach
    void bulkBackOn() {
        ParquetColumnDecoder.bulkDecoding = true;
    }

    /** Both writer versions, and pages decompressed by two codecs into the reused page buffer. */
    static Stream<Arguments> filesToRead() {
        return Stream.of(
                Arguments.of(WriterVersion.PARQUET_1_0, CompressionCodecName.SNAPPY),
                Arguments.of(WriterVersion.PARQUET_2_0, CompressionCodecName.SNAPPY),
                Arguments.of(WriterVersion.PARQUET_1_0, CompressionCodecName.ZSTD));
    }

    @ParameterizedTest
    @MethodSource("filesToRead")
    void bulkEqualsValueByValue(WriterVersion version, CompressionCodecName codec)
            throws Exception {
        Files.write(
                dir.resolve("t.parquet"),
                ParquetFiles.write(
                        SCHEMA,
                        ROWS,
                        codec,
                        2L * 1024 * 1024,
                        version,
                        (g, i) -> {
                            g.add("id", i * 3);
                            if (i % 5 != 0) {
                                g.add("small", (int) (i % 1000) - 500);
                            }
                            g.add("f", i / 4f);
                            if (i % 3 != 0) {
                                g.add("d", i / 7.0);
                            }
                            if (i % 11 != 0) {
                                g.add("low", "v" + (i % 13));
                            }
                            // ~1.9 MB of unique strings: the dictionary falls back to PLAIN
                            g.add("unique", "unique-value-" + i + "-" + "x".repeat((int) (i % 20)));
                            if (i % 2 == 0) {
                                g.add("ts", 1_700_000_000_000L + i);
                            }
                            g.add("cnt", (int) (i % 256));
                            if (i % 7 != 0) {
                                g.add("ans", (int) (i % 65536));
                            }
                            g.add("sh", (int) (i % 65536) - 32768);
                            if (i % 9 != 0) {
                                g.add("kind", KINDS[(int) (i % 3)]);
                            }
                            g.add("kind16", i % 4 == 0 ? "low" : "high");
                            if (i % 6 != 0) {
                                g.add("day", day(i));
                            }
                            g.add("day2", (int) (i % 65536));
                            if (i % 4 != 0) {
                                g.add("sec", millis(i));
                            }
                            // distinct values: the dictionary falls back to PLAIN
                            g.add("sec2", micros(i));
                            g.add("sec3", nanos(i));
                        }));
        ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(TARGET));
        try (FormatTesting t = formatTesting()) {
            // chunks whose encodings allow bulk decoding: all of them in v1 files (v2 files
            // fall back from dictionaries to DELTA encodings)
            long plainOrDictionary = 0;
            try (ParquetFileReader r =
                    ParquetFileReader.open(new LocalInputFile(dir.resolve("t.parquet")))) {
                for (var rowGroup : r.getRowGroups()) {
                    for (var chunk : rowGroup.getColumns()) {
                        plainOrDictionary +=
                                ParquetFlatPageReader.supports(chunk.getEncodings()) ? 1 : 0;
                    }
                }
                if (version == WriterVersion.PARQUET_1_0) {
                    assertThat(plainOrDictionary).isEqualTo(17L * r.getRowGroups().size());
                }
            }
            long before = ParquetColumnDecoder.BULK_CHUNKS.get();
            var bulk = t.readAll(format, t.wholeSplit("t.parquet"));
            // each of them decoded in bulk, the narrowed ints, the Enums and the dates too
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get() - before)
                    .isEqualTo(plainOrDictionary);
            ParquetColumnDecoder.bulkDecoding = false;
            long before2 = ParquetColumnDecoder.BULK_CHUNKS.get();
            var slow = t.readAll(format, t.wholeSplit("t.parquet"));
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get()).isEqualTo(before2);

            assertThat(FormatTesting.rows(bulk)).isEqualTo(ROWS);
            assertThat(ReadAsClickHouse.recordsRowBinary(bulk))
                    .isEqualTo(ReadAsClickHouse.recordsRowBinary(slow));
            checkValues(bulk);
        }
    }

    /**
     * A Date or DateTime the target cannot hold fails the object in bulk as value by value does:
     * the same message, naming the row in the row group, the column and the value, whether the
     * value comes from a dictionary page or a PLAIN one (a file written without dictionaries), in a
     * run without NULLs or beside them.
     */
    @ParameterizedTest
    @MethodSource("outOfRange")
    void outOfRangeFailsLikeValueByValue(
            String schema, String target, long badRow, boolean plain, String expected)
            throws Exception {
        int rows = 20_000;
        Files.write(
                dir.resolve("bad.parquet"),
                ParquetFiles.write(
                        schema,
                        rows,
                        CompressionCodecName.SNAPPY,
                        64L * 1024 * 1024,
                        WriterVersion.PARQUET_1_0,
                        !plain,
                        (g, i) -> {
                            boolean date = schema.contains("DATE");
                            if (schema.contains("optional") && i % 10 == 3) {
                                return; // a NULL
                            }
                            long v;
                            if (i == badRow) {
                                v = date ? 70_000 : -1_500; // 2161-08-27; 1969-12-31T23:59:58
                            } else if (date) {
                                v = 19_000 + i % 10;
                            } else {
                                v = 1_700_000_000_000L + i % 10 * 1001;
                            }
                            if (date) {
                                g.add("v", (int) v);
                            } else {
                                g.add("v", v);
                            }
                        }));
        ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(target));
        try (FormatTesting t = formatTesting()) {
            long before = ParquetColumnDecoder.BULK_CHUNKS.get();
            String bulk = failure(() -> t.readAll(format, t.wholeSplit("bad.parquet")));
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get()).isGreaterThan(before);
            ParquetColumnDecoder.bulkDecoding = false;
            String slow = failure(() -> t.readAll(format, t.wholeSplit("bad.parquet")));
            assertThat(bulk)
                    .contains("bad.parquet: row group 0, row " + badRow + ", column 'v'")
                    .contains(expected)
                    .isEqualTo(slow);
        }
    }

    /** Reads the files of {@link #dir} in blocks of at most 7,000 rows. */
    private FormatTesting formatTesting() {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 7000);
        return new FormatTesting(
                ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf);
    }

    static Stream<Arguments> outOfRange() {
        String date = "date 2161-08-27 is outside the Date range 1970-01-01..2149-06-06";
        String time = "timestamp 1969-12-31T23:59:58Z is outside the DateTime range 1970..2106";
        return Stream.of(
                Arguments.of(
                        "message m { required int32 v (DATE); }", "v Date", 12_345, false, date),
                Arguments.of("message m { required int32 v (DATE); }", "v Date", 8_001, true, date),
                Arguments.of(
                        "message m { optional int32 v (DATE); }",
                        "v Nullable(Date)",
                        15_000,
                        false,
                        date),
                Arguments.of(
                        "message m { required int64 v (TIMESTAMP(MILLIS, true)); }",
                        "v DateTime('UTC')",
                        777,
                        false,
                        time),
                Arguments.of(
                        "message m { required int64 v (TIMESTAMP(MILLIS, true)); }",
                        "v DateTime('UTC')",
                        19_999,
                        true,
                        time),
                Arguments.of(
                        "message m { optional int64 v (TIMESTAMP(MILLIS, true)); }",
                        "v DateTime",
                        5_000,
                        true,
                        time));
    }

    private static String failure(ThrowingCallable read) {
        Throwable t = catchThrowable(read);
        assertThat(t).isNotNull();
        while (!(t instanceof ObjectFormatException) && t.getCause() != null) {
            t = t.getCause();
        }
        assertThat(t).isInstanceOf(ObjectFormatException.class);
        return t.getMessage();
    }

    /** Days of a few years, repeating: dictionary pages. */
    static int day(long i) {
        return 18_000 + (int) (i % 700);
    }

    /** Milliseconds with a remainder, before and after the second they floor to. */
    static long millis(long i) {
        return 1_600_000_000_000L + i * 997;
    }

    static long micros(long i) {
        return 4_000_000_000_000_000L + i * 1_234_567;
    }

    static long nanos(long i) {
        return 1_000_000_000L * i + (i % 1000) * 999_999;
    }

    /** The values themselves, row by row, against what was written. */
    static void checkValues(List<PositionedRecord<Block>> records) {
        long i = 0;
        for (PositionedRecord<Block> rec : records) {
            Block b = rec.record();
            for (int r = 0; r < b.rows(); r++, i++) {
                assertThat(((LongColumn) b.column(0)).get(r)).isEqualTo(i * 3);
                NullableColumn small = (NullableColumn) b.column(1);
                assertThat(small.isNull(r)).isEqualTo(i % 5 == 0);
                if (i % 5 != 0) {
                    assertThat(((IntColumn) small.nested()).get(r))
                            .isEqualTo((int) (i % 1000) - 500);
                }
                assertThat(((FloatColumn) b.column(2)).get(r)).isEqualTo(i / 4f);
                assertThat(((DoubleColumn) b.column(3)).get(r))
                        .isEqualTo(i % 3 != 0 ? i / 7.0 : 0.0);
                assertThat(((StringColumn) b.column(4)).getString(r))
                        .isEqualTo(i % 11 != 0 ? "v" + (i % 13) : "");
                assertThat(((StringColumn) b.column(5)).getString(r))
                        .isEqualTo("unique-value-" + i + "-" + "x".repeat((int) (i % 20)));
                assertThat(((LongColumn) b.column(6)).get(r))
                        .isEqualTo(i % 2 == 0 ? 1_700_000_000_000L + i : 0);
                assertThat(((ByteColumn) b.column(7)).get(r) & 0xFF).isEqualTo((int) (i % 256));
                NullableColumn ans = (NullableColumn) b.column(8);
                assertThat(ans.isNull(r)).isEqualTo(i % 7 == 0);
                assertThat(((ShortColumn) ans.nested()).get(r) & 0xFFFF)
                        .isEqualTo(i % 7 != 0 ? (int) (i % 65536) : 0);
                assertThat(((ShortColumn) b.column(9)).get(r))
                        .isEqualTo((short) ((i % 65536) - 32768));
                // Enum8 default for the required-in-ClickHouse column: its smallest element
                int kind = i % 9 == 0 ? 1 : (int) (i % 3) + 1;
                assertThat(((ByteColumn) b.column(10)).get(r)).isEqualTo((byte) kind);
                assertThat(((ShortColumn) b.column(11)).get(r))
                        .isEqualTo((short) (i % 4 == 0 ? -1000 : 1000));
                assertThat(((ShortColumn) b.column(12)).get(r) & 0xFFFF)
                        .isEqualTo(i % 6 != 0 ? day(i) : 0);
                NullableColumn day2 = (NullableColumn) b.column(13);
                assertThat(day2.isNull(r)).isFalse();
                assertThat(((ShortColumn) day2.nested()).get(r) & 0xFFFF)
                        .isEqualTo((int) (i % 65536));
                assertThat(((IntColumn) b.column(14)).get(r) & 0xFFFFFFFFL)
                        .isEqualTo(i % 4 != 0 ? millis(i) / 1000 : 0);
                NullableColumn sec2 = (NullableColumn) b.column(15);
                assertThat(((IntColumn) sec2.nested()).get(r) & 0xFFFFFFFFL)
                        .isEqualTo(micros(i) / 1_000_000);
                assertThat(((IntColumn) b.column(16)).get(r) & 0xFFFFFFFFL)
                        .isEqualTo(nanos(i) / 1_000_000_000);
            }
        }
        assertThat(i).isEqualTo(ROWS);
    }
}
