package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL into an AggregatingMergeTree table with {@code SimpleAggregateFunction} columns: the
 * columns take plain values of their storage types (Flink types as for T), the job's inserts and
 * merges combine rows of equal keys with each column's function, and the parts attached to chDB
 * equal ClickHouse's own INSERT of the same rows after OPTIMIZE FINAL.
 */
class AggregatingMergeTreeSqlITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    private static final String DDL =
            "CREATE TABLE agg (k UInt16, s SimpleAggregateFunction(sum, UInt64),"
                    + " m SimpleAggregateFunction(max, Nullable(String)),"
                    + " lo SimpleAggregateFunction(min, Int32),"
                    + " b SimpleAggregateFunction(groupBitOr, UInt8),"
                    + " g SimpleAggregateFunction(groupArrayArray, Array(String)))"
                    + " ENGINE = AggregatingMergeTree ORDER BY k";

    @Test
    void rowsOfEqualKeysAreCombinedByEachColumnsFunction() throws Exception {
        Path dir = tmp.resolve("agg");
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.getConfig().set("parallelism.default", "2");
        t.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '20000', 'number-of-rows' = '20000')");
        t.executeSql(
                "CREATE TABLE agg (k INT NOT NULL, s DECIMAL(20, 0) NOT NULL, m STRING,"
                        + " lo INT NOT NULL, b SMALLINT NOT NULL, g ARRAY<STRING NOT NULL> NOT NULL)"
                        + " WITH ('connector' = 'mergetree', 'path' = '"
                        + dir
                        + "', 'ddl' = '"
                        + DDL.replace("'", "''")
                        + "', 'min_insert_block_size_rows' = '3000', 'optimize_final' = 'true')");
        t.executeSql(
                        "INSERT INTO agg SELECT CAST(id % 100 AS INT), CAST(id AS DECIMAL(20, 0)),"
                                + " CASE WHEN id % 5 = 0 THEN CAST(NULL AS STRING)"
                                + " ELSE CAST(id % 777 AS STRING) END,"
                                + " CAST(id % 1000 AS INT) - 500, CAST(id % 7 AS SMALLINT),"
                                + " ARRAY[CAST(id % 3 AS STRING)] FROM gen")
                .await();
        ch.execute(DDL.replace("TABLE agg", "TABLE ours"));
        ch.execute(DDL.replace("TABLE agg", "TABLE ref"));
        ch.execute(
                "INSERT INTO ref SELECT number % 100, number, if(number % 5 = 0, NULL,"
                        + " toString(number % 777)), toInt32(number % 1000) - 500, number % 7,"
                        + " [toString(number % 3)] FROM numbers(1, 20000)");
        ch.execute("OPTIMIZE TABLE ref FINAL");
        TableChecks.attachAll(ch, "ours", dir);
        ch.assertCheckTablePasses("ours");
        // groupArrayArray concatenates in the order rows arrive: compare the multiset
        String rows = "SELECT k, s, m, lo, b, arraySort(g) FROM %s ORDER BY k";
        assertThat(ch.query(String.format(rows, "ours")))
                .isEqualTo(ch.query(String.format(rows, "ref")));
        assertThat(ch.queryLong("SELECT count() FROM ours")).isEqualTo(100);
        assertThat(ch.queryLong("SELECT sum(s) FROM ours")).isEqualTo(20000L * 20001 / 2);
    }
}
