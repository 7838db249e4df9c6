package io.github.s3mergetree.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.column.BlockChunks;
import io.github.s3mergetree.engine.column.Column;
import io.github.s3mergetree.engine.column.IntColumn;
import io.github.s3mergetree.engine.column.LongColumn;
import io.github.s3mergetree.engine.column.ShortColumn;
import io.github.s3mergetree.engine.column.StringColumn;
import io.github.s3mergetree.engine.types.DataType;
import io.github.s3mergetree.engine.types.DataTypeParser;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Splitting by partition equals a naive grouping by the partition values (groups in order of first
 * appearance) followed by a stable sort by the sorting key, whatever the runs of equal partition
 * values look like: long runs (time-ordered input), single rows, runs that end at a chunk border.
 */
class BlockSplitterTest {
    private static final List<String> NAMES = List.of("year", "region", "day", "id");
    private static final List<DataType> TYPES =
            List.of("UInt16", "String", "Int64", "Int32").stream()
                    .map(DataTypeParser::parse)
                    .toList();

    @Test
    void splitEqualsNaiveGroupingThenStableSort() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 40; trial++) {
            List<Block> chunks = new ArrayList<>();
            int nChunks = 1 + rnd.nextInt(4);
            for (int k = 0; k < nChunks; k++) {
                chunks.add(randomChunk(rnd, rnd.nextInt(500), trial % 4));
            }
            BlockChunks block = BlockChunks.of(chunks);
            Block all = Block.empty(NAMES, TYPES, block.rows());
            for (Block c : chunks) {
                all.appendRange(c, 0, c.rows());
            }
            if (all.rows() == 0) {
                continue;
            }
            // partition by (year, region) or by year only; sort by day (ids show the stability)
            boolean twoPartitionColumns = trial % 2 == 0;
            List<Column> partCols =
                    twoPartitionColumns
                            ? List.of(all.column(0), all.column(1))
                            : List.of(all.column(0));
            EvaluatedKeys keys =
                    new EvaluatedKeys(
                            TYPES.subList(0, partCols.size()),
                            partCols,
                            NAMES.subList(0, partCols.size()),
                            NAMES.subList(2, 3),
                            TYPES.subList(2, 3),
                            List.of(all.column(2)),
                            1);

            List<PartitionedBlock> pieces = BlockSplitter.split(block, keys);

            Map<String, List<long[]>> expected = new LinkedHashMap<>();
            for (int r = 0; r < all.rows(); r++) {
                String p =
                        ((ShortColumn) all.column(0)).get(r)
                                + (twoPartitionColumns
                                        ? "/" + ((StringColumn) all.column(1)).getString(r)
                                        : "");
                expected.computeIfAbsent(p, x -> new ArrayList<>())
                        .add(
                                new long[] {
                                    ((LongColumn) all.column(2)).get(r),
                                    ((IntColumn) all.column(3)).get(r)
                                });
            }
            assertThat(pieces).hasSize(expected.size());
            int g = 0;
            for (List<long[]> rows : expected.values()) {
                // List.sort is stable: equal days keep their arrival order
                rows.sort(Comparator.comparingLong(a -> a[0]));
                Block piece = pieces.get(g++).rows();
                assertThat(piece.rows()).isEqualTo(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    assertThat(((LongColumn) piece.column(2)).get(i)).isEqualTo(rows.get(i)[0]);
                    assertThat(((IntColumn) piece.column(3)).get(i))
                            .isEqualTo((int) rows.get(i)[1]);
                }
            }
        }
    }

    /** A block of {@code rows} rows, one partition per distinct {@code day % partitions}. */
    private static BlockChunks partitionsBlock(int rows, int partitions) {
        ShortColumn year = new ShortColumn(rows);
        StringColumn region = new StringColumn(rows);
        LongColumn day = new LongColumn(rows);
        IntColumn id = new IntColumn(rows);
        for (int r = 0; r < rows; r++) {
            year.add((short) 2020);
            region.add("eu");
            day.add(r % partitions);
            id.add(r);
        }
        return BlockChunks.of(new Block(NAMES, TYPES, List.of(year, region, day, id)));
    }

    private static EvaluatedKeys byDay(BlockChunks block) {
        Column day = block.first().column(2);
        return new EvaluatedKeys(
                TYPES.subList(2, 3),
                List.of(day),
                NAMES.subList(2, 3),
                NAMES.subList(3, 4),
                TYPES.subList(3, 4),
                List.of(block.first().column(3)),
                1);
    }

    /**
     * max_partitions_per_insert_block as ClickHouse 26.7 enforces it (checked with chDB: 100
     * partitions in one INSERT pass, 101 are refused with this message): more than the limit is
     * refused, the limit itself passes, 0 lifts it, and throw_on_... = false only logs.
     */
    @Test
    void maxPartitionsPerInsertBlock() {
        BlockChunks hundred = partitionsBlock(1000, 100);
        assertThat(BlockSplitter.split(hundred, byDay(hundred), null, InsertSettings.DEFAULTS))
                .hasSize(100);
        BlockChunks more = partitionsBlock(1000, 101);
        assertThatThrownBy(
                        () -> BlockSplitter.split(more, byDay(more), null, InsertSettings.DEFAULTS))
                .isInstanceOf(TooManyPartitionsException.class)
                .hasMessageStartingWith(
                        "Too many partitions for single INSERT block (more than 100). The limit is"
                                + " controlled by 'max_partitions_per_insert_block' setting.")
                .hasMessageEndingWith("(TOO_MANY_PARTS)");
        assertThatThrownBy(
                        () ->
                                BlockSplitter.split(
                                        hundred, byDay(hundred), null, new InsertSettings(1, true)))
                .isInstanceOf(TooManyPartitionsException.class)
                .hasMessageContaining("(more than 1)");
        assertThat(BlockSplitter.split(more, byDay(more), null, new InsertSettings(0, true)))
                .hasSize(101);
        assertThat(BlockSplitter.split(more, byDay(more), null, new InsertSettings(100, false)))
                .hasSize(101);
        // the two-argument form is ClickHouse's default too
        assertThatThrownBy(() -> BlockSplitter.split(more, byDay(more)))
                .isInstanceOf(TooManyPartitionsException.class);
        // an unpartitioned table is one partition, whatever the limit
        EvaluatedKeys none =
                new EvaluatedKeys(
                        List.of(),
                        List.of(),
                        List.of(),
                        NAMES.subList(3, 4),
                        TYPES.subList(3, 4),
                        List.of(more.first().column(3)),
                        1);
        assertThat(BlockSplitter.split(more, none, null, new InsertSettings(1, true))).hasSize(1);
        assertThatThrownBy(() -> new InsertSettings(-1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max_partitions_per_insert_block must be 0");
    }

    /** Rows in runs of equal (year, region); the run shape depends on {@code mode}. */
    private static Block randomChunk(Random rnd, int rows, int mode) {
        ShortColumn year = new ShortColumn(rows);
        StringColumn region = new StringColumn(rows);
        LongColumn day = new LongColumn(rows);
        IntColumn id = new IntColumn(rows);
        int left = 0;
        short y = 0;
        String reg = "";
        for (int r = 0; r < rows; r++) {
            if (left == 0) {
                left =
                        switch (mode) {
                            case 0 -> 1 + rnd.nextInt(200); // long runs
                            case 1 -> 1; // a new draw every row
                            default -> 1 + rnd.nextInt(5);
                        };
                y = (short) (2008 + rnd.nextInt(4));
                reg = rnd.nextBoolean() ? "eu" : "us";
            }
            left--;
            year.add(y);
            // the region changes inside a run of one year too
            region.add(rnd.nextInt(10) == 0 ? "ap" : reg);
            day.add(rnd.nextInt(20));
            id.add(rnd.nextInt()); // tells rows with equal days apart
        }
        return new Block(NAMES, TYPES, List.of(year, region, day, id));
    }
}
