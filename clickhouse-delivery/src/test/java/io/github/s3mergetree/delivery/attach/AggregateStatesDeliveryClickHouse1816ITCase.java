package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AggregatingMergeTree tables with {@code AggregateFunction(f, T…)} state columns delivered into a
 * real ClickHouse 18.16 (ATTACH, portable profile): states 18.16 serializes as we do are delivered
 * and 18.16 merges and finalizes them to the values the rows give; a state over a Nullable argument
 * (which 18.16 serializes without the NULL flag) is refused by {@code check()} before anything is
 * copied.
 */
class AggregateStatesDeliveryClickHouse1816ITCase {
    @TempDir static Path dir;
    private static ClickHouse1816 ch;
    private static ClickHouseHttpClient client;

    private static final String ENGINE =
            " ENGINE = AggregatingMergeTree PARTITION BY p ORDER BY id";
    private static final String TAIL = ENGINE + " SETTINGS index_granularity_bytes = 0";

    @BeforeAll
    static void start() {
        ch = ClickHouse1816.start(dir.resolve("ch1816"), true);
        client = AttachDeliveries.client(ch);
    }

    @AfterAll
    static void stop() {
        if (ch != null) {
            ch.close();
        }
    }

    private static MergeTreeTable written(Path at, String ddl, boolean nullable) throws Exception {
        MergeTreeTable t = AttachDeliveries.localTable(at, ddl);
        for (int insert = 0; insert < 3; insert++) {
            RowBlockBuilder b =
                    new RowBlockBuilder(
                            "t",
                            t.layout().columnNames(),
                            t.layout().columnTypes(),
                            ZoneOffset.UTC);
            for (long i = 0; i < 300; i++) {
                long v = i * 10 + insert;
                Object last = nullable ? (i % 7 == 0 ? null : v) : List.of("v" + v, v);
                b.addRow(i % 40, (int) (i % 3), v, null, "s" + v, last);
            }
            t.insert(b.build());
        }
        return t;
    }

    private static AttachDelivery delivery(Path at, String ddl, TableName live) throws Exception {
        return AttachDeliveries.delivery(at, TableSchema.parse(ddl), client, live);
    }

    @Test
    void statesAreDeliveredAndMergedAndFinalizedBy1816() throws Exception {
        String columns =
                "(id UInt64, p UInt8, s AggregateFunction(sum, UInt64), c AggregateFunction(count),"
                        + " m AggregateFunction(max, String),"
                        + " a AggregateFunction(argMax, String, UInt64))";
        String ddl = "CREATE TABLE t " + columns + TAIL;
        Path at = dir.resolve("states");
        MergeTreeTable t = written(at, ddl, false);
        TableName live = new TableName("default", "states_live");
        ch.query("CREATE TABLE " + live + " " + columns + ENGINE);
        AttachDelivery d = delivery(at, ddl, live);
        d.check();
        assertThat(d.deliverPending().rows()).isEqualTo(t.totalRows());
        String q =
                "SELECT id, p, sumMerge(s), countMerge(c), maxMerge(m), argMaxMerge(a) FROM "
                        + live
                        + " GROUP BY id, p ORDER BY p, id FORMAT TSV";
        StringBuilder expected = new StringBuilder();
        for (int p = 0; p < 3; p++) {
            for (long id = 0; id < 40; id++) {
                long sum = 0;
                long count = 0;
                String max = null;
                long best = -1;
                for (long i = id; i < 300; i += 40) {
                    if (i % 3 != p) {
                        continue;
                    }
                    for (int insert = 0; insert < 3; insert++) {
                        long v = i * 10 + insert;
                        sum += v;
                        count++;
                        String s = "s" + v;
                        max = max == null || s.compareTo(max) > 0 ? s : max;
                        best = Math.max(best, v);
                    }
                }
                if (count > 0) {
                    expected.append(id).append('\t').append(p).append('\t').append(sum);
                    expected.append('\t').append(count).append('\t').append(max);
                    expected.append('\t').append("v").append(best).append('\n');
                }
            }
        }
        assertThat(ch.query(q)).isEqualTo(expected.toString().trim());
        ch.query("OPTIMIZE TABLE " + live + " FINAL");
        assertThat(ch.query(q)).isEqualTo(expected.toString().trim());
        assertThat(ch.queryLong("SELECT count() FROM " + live)).isEqualTo(120);
    }

    @Test
    void statesOverANullableArgumentAreRefusedFor1816BeforeAnythingIsCopied() throws Exception {
        String columns =
                "(id UInt64, p UInt8, s AggregateFunction(sum, UInt64), c AggregateFunction(count),"
                        + " m AggregateFunction(max, String),"
                        + " n AggregateFunction(sum, Nullable(UInt64)))";
        String ddl = "CREATE TABLE t " + columns + TAIL;
        Path at = dir.resolve("nullable");
        written(at, ddl, true);
        TableName live = new TableName("default", "nullable_live");
        ch.query("CREATE TABLE " + live + " " + columns + ENGINE);
        assertThatThrownBy(() -> delivery(at, ddl, live).check())
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("ClickHouse 18.16")
                .hasMessageContaining(
                        "cannot read the states of column n AggregateFunction(sum,"
                                + " Nullable(UInt64)) of the written table");
        Path detached = ch.tableDataPath(live.table()).resolve("detached");
        try (Stream<Path> files = Files.list(detached)) {
            assertThat(files).isEmpty();
        }
        assertThat(ch.query("SELECT count() FROM " + live)).isEqualTo("0");
    }
}
