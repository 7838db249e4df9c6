package io.github.s3mergetree.delivery.attach;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.convert.RowBlockBuilder;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.Parts;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.testing.ClickHouse1816;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * AggregatingMergeTree tables delivered into a real ClickHouse 18.16 (ATTACH, portable profile):
 * 18.16 has the engine but not the {@code SimpleAggregateFunction} type, so a table with such a
 * column is refused by {@code check()} before anything is copied (and 18.16 itself indeed fails to
 * attach such a part), while the same table with the plain storage type is delivered and merged by
 * 18.16 to the rows our merge keeps.
 */
class AggregatingDeliveryClickHouse1816ITCase {
    @TempDir static Path dir;
    private static ClickHouse1816 ch;
    private static ClickHouseHttpClient client;

    /** 18.16's tables: it has no index_granularity_bytes setting. */
    private static final String ENGINE =
            " ENGINE = AggregatingMergeTree PARTITION BY p ORDER BY id";

    /** Our written tables: the portable profile. */
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

    private static MergeTreeTable written(Path at, String ddl) throws Exception {
        MergeTreeTable t = AttachDeliveries.localTable(at, ddl);
        for (int insert = 0; insert < 3; insert++) {
            RowBlockBuilder b =
                    new RowBlockBuilder(
                            "t",
                            t.layout().columnNames(),
                            t.layout().columnTypes(),
                            ZoneOffset.UTC);
            for (long i = 0; i < 300; i++) {
                b.addRow(i % 40, (int) (i % 3), i * 10 + insert);
            }
            t.insert(b.build());
        }
        return t;
    }

    private static AttachDelivery delivery(Path at, String ddl, TableName live) throws Exception {
        return AttachDeliveries.delivery(at, TableSchema.parse(ddl), client, live);
    }

    @Test
    void simpleAggregateFunctionColumnsAreRefusedFor1816BeforeAnythingIsCopied() throws Exception {
        String ddl =
                "CREATE TABLE t (id UInt64, p UInt8, s SimpleAggregateFunction(sum, UInt64))"
                        + TAIL;
        Path at = dir.resolve("saf");
        MergeTreeTable t = written(at, ddl);
        // 18.16 cannot create the table as written; the nearest it has stores s as UInt64
        assertThatThrownBy(
                        () ->
                                ch.query(
                                        ddl.replace("TABLE t ", "TABLE saf_as_written ")
                                                .replace(TAIL, ENGINE)))
                .hasMessageContaining("Unknown data type family: SimpleAggregateFunction");
        TableName live = new TableName("default", "saf_live");
        ch.query("CREATE TABLE " + live + " (id UInt64, p UInt8, s UInt64)" + ENGINE);
        assertThatThrownBy(() -> delivery(at, ddl, live).check())
                .isInstanceOf(DeliveryException.class)
                .hasMessageContaining("ClickHouse 18.16")
                .hasMessageContaining(
                        "does not know the data type SimpleAggregateFunction (not in its"
                                + " system.data_type_families), which column s of the written"
                                + " table has (SimpleAggregateFunction(sum, UInt64))")
                .hasMessageContaining("declared as UInt64");
        Path detached = ch.tableDataPath(live.table()).resolve("detached");
        try (Stream<Path> files = Files.list(detached)) {
            assertThat(files).isEmpty();
        }
        assertThat(ch.query("SELECT count() FROM " + live)).isEqualTo("0");
        // why: 18.16 reads our parts into its UInt64 column, but its merges do not sum s
        for (var p : t.activeParts()) {
            String part = p.name().toString();
            Parts.copyRecursively(at.resolve(part), detached.resolve(part));
            ch.query("ALTER TABLE " + live + " ATTACH PART '" + part + "'");
        }
        long total = 0;
        for (long i = 0; i < 300; i++) {
            total += 3 * (i * 10) + 0 + 1 + 2;
        }
        assertThat(ch.queryLong("SELECT sum(s) FROM " + live)).isEqualTo(total);
        ch.query("OPTIMIZE TABLE " + live + " FINAL");
        t.optimizeFinal(false);
        assertThat(ch.queryLong("SELECT count() FROM " + live)).isEqualTo(t.totalRows());
        assertThat(ch.queryLong("SELECT sum(s) FROM " + live)).isLessThan(total);
    }

    @Test
    void theSameTableWithThePlainTypeIsDeliveredAndMergedAs1816Merges() throws Exception {
        String ddl = "CREATE TABLE t (id UInt64, p UInt8, s UInt64)" + TAIL;
        Path at = dir.resolve("plain");
        MergeTreeTable t = written(at, ddl);
        TableName live = new TableName("default", "plain_live");
        ch.query("CREATE TABLE " + live + " (id UInt64, p UInt8, s UInt64)" + ENGINE);
        ch.query("CREATE TABLE plain_ref (id UInt64, p UInt8, s UInt64)" + ENGINE);
        for (int insert = 0; insert < 3; insert++) {
            ch.query(
                    "INSERT INTO plain_ref SELECT number % 40, number % 3, number * 10 + "
                            + insert
                            + " FROM system.numbers LIMIT 300");
        }
        AttachDelivery d = delivery(at, ddl, live);
        d.check();
        assertThat(d.deliverPending().rows()).isEqualTo(t.totalRows());
        t.optimizeFinal(false);
        ch.query("OPTIMIZE TABLE " + live + " FINAL");
        ch.query("OPTIMIZE TABLE plain_ref FINAL");
        String rows = "SELECT id, p, s FROM %s ORDER BY p, id FORMAT TSV";
        assertThat(ch.query(String.format(rows, live)))
                .isEqualTo(ch.query(String.format(rows, "plain_ref")));
        assertThat(ch.queryLong("SELECT count() FROM " + live)).isEqualTo(t.totalRows());
    }
}
