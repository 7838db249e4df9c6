package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.format.ObjectBytes;
import io.github.s3mergetree.source.s3.format.ObjectFormatException;
import io.github.s3mergetree.source.s3.format.PositionedRecord;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import io.github.s3mergetree.source.s3.testutils.ParquetFiles;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.flink.configuration.Configuration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ParquetBlockFormatTest {
    @TempDir Path dir;

    private static final String PARQUET_SCHEMA =
            "message m {"
                    + " required int64 id;"
                    + " optional binary name (STRING);"
                    + " optional int32 small (INTEGER(16,true));"
                    + " required double score;"
                    + " optional float ratio;"
                    + " required boolean flag;"
                    + " optional int64 ts_ms (TIMESTAMP(MILLIS,true));"
                    + " optional int64 ts_us (TIMESTAMP(MICROS,true));"
                    + " optional int64 ts_ns (TIMESTAMP(NANOS,true));"
                    + " optional int32 day (DATE);"
                    + " optional int64 amount (DECIMAL(18,2));"
                    + " optional fixed_len_byte_array(16) big (DECIMAL(30,4));"
                    + " optional fixed_len_byte_array(16) uid (UUID);"
                    + " optional binary color (STRING);"
                    + " optional binary tag (STRING);"
                    + " optional group tags (LIST) { repeated group list { optional binary element (STRING); } }"
                    + " optional group matrix (LIST) { repeated group list {"
                    + "   optional group element (LIST) { repeated group list { required int32 element; } } } }"
                    + " optional int96 legacy_ts;"
                    + "}";

    private static final String TARGET =
            "id UInt64, name Nullable(String), small Int16, score Float64, ratio Float32, flag Bool,"
                    + " ts_ms DateTime64(3, 'UTC'), ts_us DateTime64(6, 'UTC'),"
                    + " ts_ns DateTime64(9, 'UTC'), day Date, amount Decimal(18, 2),"
                    + " big Decimal(38, 4), uid UUID,"
                    + " color Enum8('red' = 1, 'green' = 2, 'blue' = 3),"
                    + " tag LowCardinality(String), tags Array(Nullable(String)),"
                    + " matrix Array(Array(Int32)), legacy_ts DateTime64(3, 'UTC'),"
                    + " missing UInt32 DEFAULT 7";

    private static final long T0_MS = 1_700_000_000_123L;

    private static void fill(Group g, long i) {
        g.add("id", i);
        if (i % 5 != 0) {
            g.add("name", "name-" + i);
        }
        g.add("small", (int) (i % 300) - 150);
        g.add("score", i * 0.5);
        g.add("ratio", (float) i / 4);
        g.add("flag", i % 2 == 0);
        g.add("ts_ms", T0_MS + i);
        g.add("ts_us", (T0_MS + i) * 1000 + 456);
        g.add("ts_ns", (T0_MS + i) * 1_000_000 + 456_789);
        g.add("day", (int) (19000 + i % 100));
        g.add("amount", i * 101);
        byte[] big = new byte[16];
        byte[] v = BigInteger.valueOf(i).multiply(BigInteger.TEN.pow(20)).toByteArray();
        java.util.Arrays.fill(big, (byte) 0);
        System.arraycopy(v, 0, big, 16 - v.length, v.length);
        g.add("big", Binary.fromConstantByteArray(big));
        UUID u = new UUID(0x0102030405060708L + i, 0x1112131415161718L);
        java.nio.ByteBuffer ub = java.nio.ByteBuffer.allocate(16);
        ub.putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        g.add("uid", Binary.fromConstantByteArray(ub.array()));
        g.add("color", new String[] {"red", "green", "blue"}[(int) (i % 3)]);
        g.add("tag", "t" + (i % 4));
        Group tags = g.addGroup("tags");
        for (int k = 0; k < i % 3; k++) {
            Group item = tags.addGroup("list");
            if (k != 1) {
                item.add("element", "x" + k);
            }
        }
        if (i % 4 != 3) {
            Group m = g.addGroup("matrix");
            for (int r = 0; r < i % 3; r++) {
                Group inner = m.addGroup("list").addGroup("element");
                for (int c = 0; c <= r; c++) {
                    inner.addGroup("list").add("element", (int) (r * 10 + c));
                }
            }
        }
        // INT96: nanos of day (LE) + Julian day (LE) for T0 + i ms
        long ms = T0_MS + i;
        long day = Math.floorDiv(ms, 86_400_000L);
        long nanos = Math.floorMod(ms, 86_400_000L) * 1_000_000L;
        java.nio.ByteBuffer b96 =
                java.nio.ByteBuffer.allocate(12).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b96.putLong(nanos).putInt((int) (day + 2_440_588L));
        g.add("legacy_ts", Binary.fromConstantByteArray(b96.array()));
    }

    private FormatTesting testing(int blockSize) {
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, blockSize);
        conf.set(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 64L * 1024);
        return new FormatTesting(
                ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf);
    }

    @Test
    void readsEveryLogicalTypeIntoTheTargetTypes() throws Exception {
        long rows = 1000;
        Files.write(
                dir.resolve("all.parquet"),
                ParquetFiles.write(
                        PARQUET_SCHEMA,
                        rows,
                        CompressionCodecName.ZSTD,
                        1 << 20,
                        ParquetBlockFormatTest::fill));
        ParquetBlockFormat format = new ParquetBlockFormat(TargetSchema.parse(TARGET));
        try (FormatTesting t = testing(300)) {
            var records = t.readAll(format, t.wholeSplit("all.parquet"));
            assertThat(FormatTesting.rows(records)).isEqualTo(rows);
            assertThat(records).hasSize(4); // 300 + 300 + 300 + 100
            List<Block> blocks = new ArrayList<>();
            records.forEach(r -> blocks.add(r.record()));
            Block b = blocks.get(1); // rows 300..599
            int r = 7; // row 307
            long i = 307;
            assertThat(((LongColumn) b.column(0)).get(r)).isEqualTo(i);
            NullableColumn name = (NullableColumn) b.column(1);
            assertThat(name.isNull(r)).isFalse();
            assertThat(((StringColumn) name.nested()).getString(r)).isEqualTo("name-307");
            assertThat(name.isNull(0)).isTrue();
            assertThat(((ShortColumn) b.column(2)).get(r)).isEqualTo((short) (307 % 300 - 150));
            assertThat(((DoubleColumn) b.column(3)).get(r)).isEqualTo(153.5);
            assertThat(((FloatColumn) b.column(4)).get(r)).isEqualTo(307f / 4);
            assertThat(((ByteColumn) b.column(5)).get(r)).isEqualTo((byte) 0);
            assertThat(((LongColumn) b.column(6)).get(r)).isEqualTo(T0_MS + i);
            assertThat(((LongColumn) b.column(7)).get(r)).isEqualTo((T0_MS + i) * 1000 + 456);
            assertThat(((LongColumn) b.column(8)).get(r))
                    .isEqualTo((T0_MS + i) * 1_000_000 + 456_789);
            assertThat(((ShortColumn) b.column(9)).get(r)).isEqualTo((short) (19000 + 7));
            assertThat(((LongColumn) b.column(10)).get(r)).isEqualTo(i * 101);
            FixedBytesColumn big = (FixedBytesColumn) b.column(11);
            byte[] le = java.util.Arrays.copyOfRange(big.data(), r * 16, r * 16 + 16);
            byte[] be = new byte[16];
            for (int k = 0; k < 16; k++) {
                be[k] = le[15 - k];
            }
            assertThat(new BigInteger(be))
                    .isEqualTo(BigInteger.valueOf(i).multiply(BigInteger.TEN.pow(20)));
            // UUID in ClickHouse layout: two little-endian halves
            FixedBytesColumn uid = (FixedBytesColumn) b.column(12);
            long msb =
                    java.nio.ByteBuffer.wrap(uid.data(), r * 16, 8)
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                            .getLong();
            assertThat(msb).isEqualTo(0x0102030405060708L + i);
            assertThat(((ByteColumn) b.column(13)).get(r)).isEqualTo((byte) (307 % 3 + 1));
            assertThat(((StringColumn) b.column(14)).getString(r)).isEqualTo("t3");
            ArrayColumn tags = (ArrayColumn) b.column(15);
            assertThat(tags.length(r)).isEqualTo(1); // 307 % 3 == 1
            ArrayColumn tags2 = (ArrayColumn) b.column(15);
            int r2 = 8; // row 308: 2 elements, the second null
            assertThat(tags2.length(r2)).isEqualTo(2);
            NullableColumn el = (NullableColumn) tags2.elements();
            assertThat(el.isNull(tags2.start(r2))).isFalse();
            assertThat(el.isNull(tags2.start(r2) + 1)).isTrue();
            ArrayColumn matrix = (ArrayColumn) b.column(16);
            // row 308: i % 4 == 0, i % 3 == 2 -> [[0], [10, 11]]
            assertThat(matrix.length(r2)).isEqualTo(2);
            ArrayColumn inner = (ArrayColumn) matrix.elements();
            int first = matrix.start(r2);
            assertThat(inner.length(first)).isEqualTo(1);
            assertThat(inner.length(first + 1)).isEqualTo(2);
            IntColumn cells = (IntColumn) inner.elements();
            assertThat(cells.get(inner.start(first + 1) + 1)).isEqualTo(11);
            // row 307: i % 4 == 3 -> null list -> []
            assertThat(matrix.length(r)).isZero();
            assertThat(((LongColumn) b.column(17)).get(r)).isEqualTo(T0_MS + i);
            assertThat(((IntColumn) b.column(18)).get(r)).isZero(); // missing -> type default
            // positions: (row group, rows into it); one row group here
            assertThat(records.get(0).offset()).isEqualTo(0);
            assertThat(records.get(0).recordsToSkip()).isEqualTo(300);
            assertThat(records.get(3).offset()).isEqualTo(1);
            assertThat(records.get(3).recordsToSkip()).isEqualTo(0);
        }
    }

    /**
     * {@code rows} rows of (id, a text of ~22 bytes), in row groups of about {@code rowGroupBytes}.
     */
    private static byte[] idsAndTexts(long rows, CompressionCodecName codec, long rowGroupBytes)
            throws Exception {
        return ParquetFiles.write(
                "message m { required int64 id; optional binary name (STRING); }",
                rows,
                codec,
                rowGroupBytes,
                (g, i) -> {
                    g.add("id", i);
                    g.add("name", "some longer text " + (i * 7919 % 100_003));
                });
    }

    @Test
    void byteRangeSplitsOwnEachRowGroupOnceAndRestoreResumesExactly() throws Exception {
        long rows = 200_000;
        byte[] file = idsAndTexts(rows, CompressionCodecName.SNAPPY, 256 * 1024);
        Files.write(dir.resolve("big.parquet"), file);
        ParquetBlockFormat format =
                new ParquetBlockFormat(TargetSchema.parse("id Int64, name String"));
        try (FormatTesting t = testing(10_000)) {
            S3ObjectSplit whole = t.wholeSplit("big.parquet");
            var planned =
                    new SplitPlanner(format, file.length / 5).plan(t.client.head("big.parquet"));
            assertThat(planned).hasSizeGreaterThanOrEqualTo(5);
            Set<Long> seen = new HashSet<>();
            for (S3ObjectSplit s : planned) {
                for (var rec : t.readAll(format, s)) {
                    LongColumn ids = (LongColumn) rec.record().column(0);
                    for (int k = 0; k < ids.size(); k++) {
                        assertThat(seen.add(ids.get(k))).as("duplicate id %s", ids.get(k)).isTrue();
                    }
                }
            }
            assertThat(seen).hasSize((int) rows);

            // restore from a mid-row-group position: exactly the rest
            var all = t.readAll(format, whole);
            var third = all.get(2);
            S3ObjectSplit restored = whole.withPosition(third.offset(), third.recordsToSkip());
            var rest = t.readAll(format, restored);
            long before = FormatTesting.rows(all.subList(0, 3));
            assertThat(FormatTesting.rows(rest)).isEqualTo(rows - before);
            assertThat(((LongColumn) rest.get(0).record().column(0)).get(0)).isEqualTo(before);
        }
    }

    /**
     * Download arrays come from a pool and go back to it: a row group's chunk array only after its
     * pages are decoded, a prefetched object's only at the reader's close. Arrays given back are
     * overwritten, so a page still reading one would decode garbage; every value is checked.
     */
    @ParameterizedTest
    @EnumSource(
            value = CompressionCodecName.class,
            names = {"UNCOMPRESSED", "ZSTD"})
    void pooledDownloadArraysAreReusedOnlyOnceNothingReadsThem(CompressionCodecName codec)
            throws Exception {
        // ZSTD packs these texts ~10x: more rows, so that row groups lie outside the footer read
        long rows = codec == CompressionCodecName.UNCOMPRESSED ? 150_000 : 1_000_000;
        byte[] file = idsAndTexts(rows, codec, 256 * 1024);
        Files.write(dir.resolve("pooled.parquet"), file);
        ParquetBlockFormat format =
                new ParquetBlockFormat(TargetSchema.parse("id Int64, name String"));
        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 7_000);
        // chunk ranges above 128 KiB download in parallel parts into the pooled arrays
        conf.set(S3SourceOptions.MAX_DOWNLOAD_BUFFER_SIZE, 64L * 1024);
        // and the pool keeps (64 + 2) x 2 x 64 KiB: room for the whole object too
        conf.set(S3SourceOptions.MAX_DOWNLOAD_THREADS, 64);
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(dir.toString()).createClient(), conf)) {
            t.context.buffers().poisonGivenArrays();
            S3ObjectSplit split = t.wholeSplit("pooled.parquet");
            for (int pass = 0; pass < 2; pass++) {
                assertIdsAndTexts(t.readAll(format, split), rows);
            }
            assertThat(t.context.buffers().reuses())
                    .as("row groups' chunk arrays reused")
                    .isGreaterThan(5);

            for (int pass = 0; pass < 2; pass++) {
                long reusesBefore = t.context.buffers().reuses();
                t.context.downloadForPrefetch(t.executor, split, 0, split.objectSize()).get();
                assertIdsAndTexts(t.readAll(format, split), rows);
                assertThat(t.context.buffers().retainedBytes())
                        .as("the prefetched object's array given back at close")
                        .isGreaterThanOrEqualTo(file.length);
                if (pass == 1) {
                    assertThat(t.context.buffers().reuses())
                            .as("the second prefetch downloads into the first one's array")
                            .isEqualTo(reusesBefore + 1);
                }
            }
        }
    }

    private static void assertIdsAndTexts(List<PositionedRecord<Block>> records, long rows) {
        long next = 0;
        for (var rec : records) {
            LongColumn ids = (LongColumn) rec.record().column(0);
            Column names = rec.record().column(1);
            for (int k = 0; k < ids.size(); k++, next++) {
                assertThat(ids.get(k)).isEqualTo(next);
                assertThat(((StringColumn) names).getString(k))
                        .isEqualTo("some longer text " + (next * 7919 % 100_003));
            }
        }
        assertThat(next).isEqualTo(rows);
    }

    @Test
    void anObjectPrefetchedWholeIsReadWithoutAnotherGet() throws Exception {
        long rows = 200_000;
        byte[] file = idsAndTexts(rows, CompressionCodecName.ZSTD, 128 * 1024);
        // larger than the footer read (256 KiB): footer and row groups are sub-ranges of it
        assertThat(file.length).isGreaterThan(256 * 1024);
        Files.write(dir.resolve("small.parquet"), file);
        ParquetBlockFormat format =
                new ParquetBlockFormat(TargetSchema.parse("id Int64, name String"));
        try (FormatTesting t = testing(10_000)) {
            S3ObjectSplit split = t.wholeSplit("small.parquet");
            var direct = t.readAll(format, split);
            long getsWithout = t.metrics.getRequests();
            assertThat(getsWithout).isGreaterThan(1); // footer, then row groups (several)

            // as S3SplitReader prefetches a small next object: the whole of it, in advance
            t.context.registerPrefetch(
                    split,
                    0,
                    split.objectSize(),
                    java.util.concurrent.CompletableFuture.completedFuture(
                            ObjectBytes.of(file.clone())));
            var prefetched = t.readAll(format, split);
            assertThat(t.metrics.getRequests()).isEqualTo(getsWithout);
            assertThat(t.context.takePrefetchedObject(split) == null)
                    .as("the reader took the prefetched object instead of copying ranges of it")
                    .isTrue();
            assertThat(FormatTesting.rows(prefetched)).isEqualTo(rows);
            assertThat(ReadAsClickHouse.recordsRowBinary(prefetched))
                    .isEqualTo(ReadAsClickHouse.recordsRowBinary(direct));
        }
    }

    @Test
    void mismatchNamesObjectAndColumn() throws Exception {
        Files.write(
                dir.resolve("x.parquet"),
                ParquetFiles.idsAndNames(0, 10, CompressionCodecName.UNCOMPRESSED));
        try (FormatTesting t = testing(100)) {
            ParquetBlockFormat arrays =
                    new ParquetBlockFormat(TargetSchema.parse("id Array(Int64)"));
            assertThatThrownBy(() -> t.readAll(arrays, t.wholeSplit("x.parquet")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("x.parquet")
                    .hasMessageContaining("column 'id'")
                    .hasMessageContaining("Array(Int64)");
            ParquetBlockFormat enums =
                    new ParquetBlockFormat(TargetSchema.parse("name Enum8('a' = 1)"));
            assertThatThrownBy(() -> t.readAll(enums, t.wholeSplit("x.parquet")))
                    .isInstanceOf(ObjectFormatException.class)
                    .hasMessageContaining("x.parquet: row group 0, row 1, column 'name'")
                    .hasMessageContaining("unknown element 'n1'");
        }
    }

    @Test
    void dateOutOfRangeIsAnError() {
        assertThat(LocalDate.ofEpochDay(65535)).isEqualTo(LocalDate.of(2149, 6, 6));
    }
}
