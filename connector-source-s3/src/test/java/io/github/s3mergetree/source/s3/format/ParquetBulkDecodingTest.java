package io.github.s3mergetree.source.s3.format;

import static org.assertj.core.api.Assertions.assertThat;

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
                    + " required binary kind16 (STRING); }";
    static final String TARGET =
            "id Int64, small Nullable(Int32), f Float32, d Float64, low LowCardinality(String),"
                    + " unique String, ts DateTime64(3, 'UTC'), cnt UInt8, ans Nullable(UInt16),"
                    + " sh Int16, kind Enum8('Question' = 1, 'Answer' = 2, 'Wiki' = 3),"
                    + " kind16 Enum16('low' = -1000, 'high' = 1000)";
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
                        }));
        ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(TARGET));
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 7000);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf)) {
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
                    assertThat(plainOrDictionary).isEqualTo(12L * r.getRowGroups().size());
                }
            }
            long before = ParquetColumnDecoder.BULK_CHUNKS.get();
            var bulk = t.readAll(format, t.wholeSplit("t.parquet"));
            // each of them decoded in bulk, the narrowed ints and the Enums too
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get() - before)
                    .isEqualTo(plainOrDictionary);
            ParquetColumnDecoder.bulkDecoding = false;
            long before2 = ParquetColumnDecoder.BULK_CHUNKS.get();
            var slow = t.readAll(format, t.wholeSplit("t.parquet"));
            assertThat(ParquetColumnDecoder.BULK_CHUNKS.get()).isEqualTo(before2);

            assertThat(FormatTesting.rows(bulk)).isEqualTo(ROWS);
            assertThat(ArrowFromClickHouseTest.rowBinary(bulk))
                    .isEqualTo(ArrowFromClickHouseTest.rowBinary(slow));
            checkValues(bulk);
        }
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
            }
        }
        assertThat(i).isEqualTo(ROWS);
    }
}
