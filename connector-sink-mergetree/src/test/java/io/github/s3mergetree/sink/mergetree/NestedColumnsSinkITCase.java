package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.types.DataTypeParser;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
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
 * A table declared with {@code Nested(...)} through the Flink sink: blocks carrying some of the
 * Nested columns ({@code meta.key}, {@code meta.value}, {@code n.a}; {@code n.b} absent) become
 * parts with ClickHouse's shared {@code meta.size0} / {@code n.size0} that equal ClickHouse's own
 * insert of the same columns ({@code n.b} filled with defaults of {@code n.a}'s sizes), and a block
 * whose arrays of one structure differ in size fails the job with ClickHouse's message.
 */
class NestedColumnsSinkITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(1)
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    static String ddl(String name) {
        return "CREATE TABLE "
                + name
                + " (id UInt64, meta Nested(key String, value LowCardinality(String)),"
                + " n Nested(a Nullable(Int32), b Array(UInt8))) ENGINE = MergeTree ORDER BY id";
    }

    /** Block {@code k}: ids {@code k, k + 10, ...} below 5000; {@code bad} breaks one row. */
    static Block block(long k, boolean bad) {
        RowBlockBuilder b =
                new RowBlockBuilder(
                        "t",
                        List.of("id", "meta.key", "meta.value", "n.a"),
                        List.of(
                                DataTypeParser.parse("UInt64"),
                                DataTypeParser.parse("Array(String)"),
                                DataTypeParser.parse("Array(LowCardinality(String))"),
                                DataTypeParser.parse("Array(Nullable(Int32))")),
                        ZoneOffset.UTC);
        for (long id = k; id < 5000; id += 10) {
            List<String> keys = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (long i = 0; i < id % 4; i++) {
                keys.add("k" + i);
                values.add("v" + (id % 3));
            }
            if (bad && id == 4321) {
                values.add("extra");
            }
            List<Integer> a = new ArrayList<>();
            for (long i = 0; i < id % 3; i++) {
                a.add(i == 1 ? null : (int) (id * i));
            }
            b.addRow(id, keys, values, a);
        }
        return b.build();
    }

    private static void run(Path dir, boolean bad) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(1);
        env.getConfig().enableObjectReuse(); // blocks are passed on, not copied
        env.fromSequence(0, 9)
                .map(k -> block(k, bad))
                .returns(TypeInformation.of(Block.class))
                .sinkTo(
                        MergeTreeSink.forBlocks()
                                .setTablePath(dir.toString())
                                .setDdl(ddl("t"))
                                .setOption(MergeTreeSinkOptions.MERGES_ENABLED, false)
                                .build());
        env.execute("nested columns");
    }

    @Test
    void nestedColumnsAreWrittenAsClickHousesOwn() throws Exception {
        Path dir = tmp.resolve("t");
        run(dir, false);
        ch.execute(ddl("ours"));
        ch.execute(ddl("ref"));
        ch.execute(
                "INSERT INTO ref (id, `meta.key`, `meta.value`, `n.a`) SELECT number,"
                        + " arrayMap(i -> concat('k', toString(i)), range(number % 4)),"
                        + " arrayMap(i -> concat('v', toString(number % 3)), range(number % 4)),"
                        + " arrayMap(i -> if(i = 1, NULL, toInt32(number * i)), range(number % 3))"
                        + " FROM numbers(5000)");
        TableChecks.attachAll(ch, "ours", dir);
        ch.assertCheckTablePasses("ours");
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(5000);
        assertThat(ch.query("SELECT * FROM ours ORDER BY id"))
                .isEqualTo(ch.query("SELECT * FROM ref ORDER BY id"));
        String sizes = "SELECT sum(length(n.b)), countIf(length(n.b) != length(n.a)) FROM ";
        assertThat(ch.query(sizes + "ours"))
                .isEqualTo(ch.query(sizes + "ref"))
                .isEqualTo("4999\t0");
    }

    @Test
    void arraysOfDifferentSizesInOneStructureFailTheJob() {
        assertThatThrownBy(() -> run(tmp.resolve("bad"), true))
                .rootCause()
                .hasMessageContaining(
                        "Elements 'meta.key' and 'meta.value' of Nested data structure 'meta'"
                                + " (Array columns) have different array sizes"
                                + " (SIZES_OF_ARRAYS_DONT_MATCH): row ");
    }
}
