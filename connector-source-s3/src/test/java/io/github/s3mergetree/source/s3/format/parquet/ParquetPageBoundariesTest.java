package io.github.s3mergetree.source.s3.format.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.format.ReadAsClickHouse;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase;
import io.github.s3mergetree.source.s3.format.RealWorldFilesITCase.Case;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.testutils.FormatTesting;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.configuration.Configuration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parquet pages cut where readers go wrong, read as ClickHouse (chDB) reads them, in bulk and value
 * by value ({@code tools/realworld/page_boundaries.py} writes them with pyarrow):
 *
 * <ul>
 *   <li>data pages without a value (num_values 0), as pyarrow writes them for repeated columns with
 *       small pages, in v1 and v2 pages, between two rows — parquet-mr's column reader fails on
 *       them with "Reading past RLE/BitPacking stream" (apache/parquet-java#1555), which is why the
 *       real-world file {@code pyarrow-small-pages.parquet} could not be read;
 *   <li>rows whose lists run across several v1 pages (legal in v1 pages, written by older writers),
 *       with empty pages between rows, in lists, nested lists, maps, lists of structs and a struct
 *       holding a list, next to flat columns read by {@link ParquetFlatPageReader};
 *   <li>v2 pages of a few rows each with empty v2 pages between them.
 * </ul>
 *
 * <p>Every file holds the same rows (the generator checks that pyarrow reads each back), so
 * ClickHouse's reading of {@code reference.parquet} (pyarrow's defaults) is what every file must be
 * read to, and where ClickHouse reads a file itself it must agree. ClickHouse 26.7 refuses some of
 * these valid files (an empty v2 page; an empty v1 page in a column outside lists); those are read
 * as pyarrow reads them, to the same rows, rather than refused.
 *
 * <p>The fixture is checked to have what it claims (empty pages, pages that begin inside a row, v2
 * pages, bulk-decoded chunks), so a change of pyarrow cannot turn this test into a no-op.
 */
class ParquetPageBoundariesTest {
    @ChDbSession static ChDb chdb;

    @TempDir Path tmp;

    /** What one file's pages are, counted from the file with parquet-mr's page reader. */
    record PageFacts(
            int dataPages,
            int emptyPages,
            int emptyPagesOfFlatColumns,
            int emptyPagesOfRepeatedColumns,
            int pagesBeginningInsideARow,
            int v2Pages) {}

    @Test
    void emptyPagesAndRowsAcrossPagesReadAsClickHouseReadsThem() throws Exception {
        Path files = tmp.resolve("files");
        List<Case> cases = RealWorldFilesITCase.generate("page_boundaries.py", files);
        Map<String, PageFacts> facts = new TreeMap<>();
        for (Case c : cases) {
            facts.put(c.file(), pageFacts(files.resolve(c.file())));
        }
        assertThat(facts.keySet())
                .containsExactlyInAnyOrder(
                        "reference.parquet",
                        "pyarrow-empty-pages-v1-dict.parquet",
                        "pyarrow-tiny-pages-v2.parquet",
                        "pyarrow-empty-pages-v2-dict.parquet",
                        "resplit-v1.parquet",
                        "resplit-v1-empty-flat.parquet",
                        "resplit-v2.parquet");
        // the fixture has what it claims: pyarrow's own empty pages, in v1 and v2 pages ...
        PageFacts v1Dict = facts.get("pyarrow-empty-pages-v1-dict.parquet");
        assertThat(v1Dict.emptyPagesOfRepeatedColumns()).as("%s", facts).isPositive();
        assertThat(v1Dict.v2Pages()).isZero();
        PageFacts v2Dict = facts.get("pyarrow-empty-pages-v2-dict.parquet");
        assertThat(v2Dict.emptyPagesOfRepeatedColumns()).as("%s", facts).isPositive();
        assertThat(v2Dict.v2Pages()).isEqualTo(v2Dict.dataPages());
        PageFacts tiny = facts.get("pyarrow-tiny-pages-v2.parquet");
        assertThat(tiny.v2Pages()).isEqualTo(tiny.dataPages()).isGreaterThan(500);
        // ... rows across v1 pages, empty pages in repeated columns, then in flat (bulk) ones ...
        PageFacts v1 = facts.get("resplit-v1.parquet");
        assertThat(v1.pagesBeginningInsideARow()).as("%s", v1).isGreaterThan(100);
        assertThat(v1.emptyPagesOfRepeatedColumns()).as("%s", v1).isGreaterThan(10);
        assertThat(v1.emptyPagesOfFlatColumns()).as("%s", v1).isZero();
        assertThat(v1.v2Pages()).isZero();
        PageFacts v1Flat = facts.get("resplit-v1-empty-flat.parquet");
        assertThat(v1Flat.pagesBeginningInsideARow()).as("%s", v1Flat).isGreaterThan(100);
        assertThat(v1Flat.emptyPagesOfFlatColumns()).as("%s", v1Flat).isGreaterThan(10);
        // ... and empty v2 pages between rows
        PageFacts v2 = facts.get("resplit-v2.parquet");
        assertThat(v2.v2Pages()).isEqualTo(v2.dataPages());
        assertThat(v2.emptyPagesOfFlatColumns()).as("%s", v2).isGreaterThan(10);
        assertThat(v2.emptyPagesOfRepeatedColumns()).as("%s", v2).isGreaterThan(10);
        assertThat(v2.pagesBeginningInsideARow()).isZero();

        // Every file holds the same rows (the generator checks that pyarrow reads them back), so
        // ClickHouse's reading of the reference file is the expected result of every file. Where
        // ClickHouse reads a file itself, it must read those rows too. ClickHouse 26.7 refuses
        // some valid files (an empty v2 page; an empty v1 page of a column outside lists):
        // they are read as pyarrow reads them, i.e. to the reference rows.
        String structure = cases.get(0).structure();
        byte[] expected = clickHouseRowBinary(files.resolve("reference.parquet"), structure);
        assertThat(expected).hasSizeGreaterThan(10_000);
        List<String> refusedByClickHouse = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            assertThat(c.structure()).isEqualTo(structure);
            try {
                byte[] theirs = clickHouseRowBinary(files.resolve(c.file()), structure);
                if (!Arrays.equals(theirs, expected)) {
                    failures.add("ClickHouse reads " + c.file() + " unlike the reference");
                }
            } catch (RuntimeException e) {
                refusedByClickHouse.add(
                        c.file() + ": " + e.getMessage().lines().findFirst().orElse(""));
            }
        }
        System.out.println("ClickHouse refuses:\n  " + String.join("\n  ", refusedByClickHouse));
        // ClickHouse judges directly: empty v1 pages between rows (the real-world suite's
        // pyarrow-small-pages.parquet) and rows across v1 pages
        assertThat(refusedByClickHouse)
                .noneMatch(r -> r.startsWith("reference.parquet:"))
                .noneMatch(r -> r.startsWith("pyarrow-empty-pages-v1-dict.parquet:"))
                .noneMatch(r -> r.startsWith("resplit-v1.parquet:"));

        Configuration conf = new Configuration();
        conf.set(S3SourceOptions.MAX_BLOCK_SIZE, 37); // blocks end inside pages and rows too
        Map<Boolean, Long> bulkChunks = new TreeMap<>();
        try (FormatTesting t =
                new FormatTesting(
                        ObjectStoreConfig.localDirectory(files.toString()).createClient(), conf)) {
            for (boolean bulk : new boolean[] {true, false}) {
                long bulkBefore = ParquetColumnDecoder.BULK_CHUNKS.get();
                ParquetColumnDecoder.bulkDecoding = bulk;
                try {
                    for (Case c : cases) {
                        String how = (bulk ? "bulk: " : "value by value: ") + c.file();
                        try {
                            var records =
                                    t.readAll(
                                            new ParquetBlockFormat(TargetSchema.parse(structure)),
                                            t.wholeSplit(c.file()));
                            byte[] ours = ReadAsClickHouse.recordsRowBinary(records);
                            if (!Arrays.equals(ours, expected)) {
                                List<Block> blocks = new ArrayList<>();
                                records.forEach(r -> blocks.add(r.record()));
                                failures.add(
                                        how
                                                + ": "
                                                + ReadAsClickHouse.firstDifference(
                                                        blocks, expected));
                            }
                        } catch (IOException | RuntimeException e) {
                            failures.add(how + ": " + e);
                        }
                    }
                } finally {
                    ParquetColumnDecoder.bulkDecoding = true;
                }
                bulkChunks.put(bulk, ParquetColumnDecoder.BULK_CHUNKS.get() - bulkBefore);
            }
        }
        assertThat(failures).isEmpty();
        // the 3 flat columns of each file's 2 row groups went through the bulk path, and only
        // when it was on
        assertThat(bulkChunks.get(true)).isGreaterThanOrEqualTo(3L * 2 * cases.size());
        assertThat(bulkChunks.get(false)).isZero();
    }

    /** chDB's RowBinary of a file read with a structure, rows in file order. */
    private static byte[] clickHouseRowBinary(Path file, String structure) {
        return chdb.readFileAsRowBinary(file, "Parquet", structure, "");
    }

    /** Counts a file's data pages by kind, reading its page headers and levels with parquet-mr. */
    static PageFacts pageFacts(Path file) throws IOException {
        ParquetReadOptions options =
                new ParquetReadOptions.Builder(new PlainParquetConfiguration())
                        .withCodecFactory(DecompressOnlyCodecFactory.INSTANCE)
                        .build();
        int pages = 0;
        int empty = 0;
        int emptyFlat = 0;
        int emptyRepeated = 0;
        int insideRow = 0;
        int v2 = 0;
        try (ParquetFileReader reader = ParquetFileReader.open(new LocalInputFile(file), options)) {
            List<ColumnDescriptor> columns = reader.getFileMetaData().getSchema().getColumns();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                for (ColumnDescriptor d : columns) {
                    PageReader pr = rowGroup.getPageReader(d);
                    DataPage page;
                    while ((page = pr.readPage()) != null) {
                        pages++;
                        v2 += page instanceof DataPageV2 ? 1 : 0;
                        if (page.getValueCount() == 0) {
                            empty++;
                            if (d.getMaxRepetitionLevel() == 0) {
                                emptyFlat++;
                            } else {
                                emptyRepeated++;
                            }
                        } else if (d.getMaxRepetitionLevel() > 0
                                && firstRepetitionLevel(d, page) > 0) {
                            insideRow++;
                        }
                    }
                }
            }
        }
        return new PageFacts(pages, empty, emptyFlat, emptyRepeated, insideRow, v2);
    }

    private static int firstRepetitionLevel(ColumnDescriptor d, DataPage page) throws IOException {
        int width = BytesUtils.getWidthFromMaxInt(d.getMaxRepetitionLevel());
        ByteBuffer levels;
        if (page instanceof DataPageV1 v1) {
            ByteBuffer all = v1.getBytes().toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int length = all.getInt(all.position());
            levels = all.duplicate();
            levels.position(all.position() + 4).limit(all.position() + 4 + length);
        } else {
            levels = ((DataPageV2) page).getRepetitionLevels().toByteBuffer();
        }
        return new RunLengthBitPackingHybridDecoder(width, ByteBufferInputStream.wrap(levels))
                .readInt();
    }
}
