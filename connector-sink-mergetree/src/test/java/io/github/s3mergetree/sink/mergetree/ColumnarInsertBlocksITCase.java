package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.table.ActivePart;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The columnar path keeps the input blocks by reference and sorts an insert block by gathering rows
 * across them ({@code BlockChunks}): 60 blocks whose rows interleave (block {@code k} holds ids
 * {@code k, k + 60, k + 120, ...}), some empty, are sunk with {@code min_insert_block_size_rows =
 * 10000}, so every insert block is ~20 chunks and every part holds rows from all of them. The table
 * sorts by a String and a number, has Nullable, Array and DEFAULT columns, and is partitioned. The
 * parts must equal ClickHouse's own insert of the same rows and be stored in ORDER BY order.
 */
class ColumnarInsertBlocksITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static final int BLOCKS = 60;
    static final int ROWS = 30_000;

    static String ddl(String name) {
        return "CREATE TABLE "
                + name
                + " (id UInt64, s String, n Nullable(Int32), tags Array(String),"
                + " x UInt64 DEFAULT id * 3) ENGINE = MergeTree PARTITION BY id % 3"
                + " ORDER BY (s, id)";
    }

    /** Block {@code k}: ids {@code k + BLOCKS * j}; every 7th block is empty. */
    static Block block(long k) {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "c",
                        List.of("id", "s", "n", "tags"),
                        List.of(
                                DataTypeParser.parse("UInt64"),
                                DataTypeParser.parse("String"),
                                DataTypeParser.parse("Nullable(Int32)"),
                                DataTypeParser.parse("Array(String)")),
                        ZoneOffset.UTC);
        if (k % 7 != 3) {
            for (long id = k; id < ROWS; id += BLOCKS) {
                List<String> tags = new ArrayList<>();
                for (long t = 0; t < id % 4; t++) {
                    tags.add(Long.toString(t));
                }
                b.addRow(id, "s" + (id % 977), id % 5 == 0 ? null : (int) id - 15_000, tags);
            }
        }
        return b.build();
    }

    @Test
    void insertBlocksOfManyChunksAreSortedAndComplete() throws Exception {
        Path dir = tmp.resolve("c");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        env.getConfig().enableObjectReuse();
        env.fromSequence(0, BLOCKS - 1)
                .map(ColumnarInsertBlocksITCase::block)
                .returns(TypeInformation.of(Block.class))
                .sinkTo(
                        MergeTreeSink.forBlocks()
                                .setTablePath(dir.toString())
                                .setDdl(ddl("c"))
                                .setOption(MergeTreeSinkOptions.MIN_INSERT_BLOCK_SIZE_ROWS, 10_000L)
                                .setOption(MergeTreeSinkOptions.MERGES_ENABLED, false)
                                .build());
        env.execute("columnar insert blocks");

        // blocks with rows: 60 - 9 empty ones (k % 7 == 3); ~500 rows each
        long expectedRows = 0;
        for (long k = 0; k < BLOCKS; k++) {
            if (k % 7 != 3) {
                expectedRows += (ROWS - k + BLOCKS - 1) / BLOCKS;
            }
        }
        ch.execute(ddl("ours"));
        ch.execute(ddl("ref"));
        ch.execute(
                "INSERT INTO ref (id, s, n, tags) SELECT number, concat('s', toString(number %"
                        + " 977)), if(number % 5 = 0, NULL, toInt32(number) - 15000),"
                        + " arrayMap(t -> toString(t), range(number % 4)) FROM numbers("
                        + ROWS
                        + ") WHERE (number % "
                        + BLOCKS
                        + ") % 7 != 3");
        List<ActivePart> parts = TableChecks.attachAll(ch, "ours", dir);
        ch.assertCheckTablePasses("ours");
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(expectedRows);
        TableChecks.assertSameRows(ch, "ours", "ref", List.of("id", "s", "n", "tags", "x"));

        // several insert blocks of ~20 chunks each, one part per partition per block
        MergeTreeTable table = TableChecks.open(dir);
        assertThat(parts).hasSizeGreaterThanOrEqualTo(6);
        assertThat(table.activePartsByPartition()).hasSize(3);

        // each part stores its rows in ORDER BY (s, id) order
        List<String[]> stored =
                ch.rows("SELECT _part, s, id FROM ours ORDER BY _part, _part_offset");
        String part = null;
        String[] prev = null;
        int checked = 0;
        for (String[] r : stored) {
            if (!r[0].equals(part)) {
                part = r[0];
                prev = null;
            }
            if (prev != null) {
                int c = prev[1].compareTo(r[1]);
                assertThat(c < 0 || (c == 0 && Long.parseLong(prev[2]) < Long.parseLong(r[2])))
                        .as("part %s: (%s, %s) before (%s, %s)", part, prev[1], prev[2], r[1], r[2])
                        .isTrue();
                checked++;
            }
            prev = Arrays.copyOf(r, r.length);
        }
        assertThat(checked).isGreaterThan((int) expectedRows - 20);
    }
}
