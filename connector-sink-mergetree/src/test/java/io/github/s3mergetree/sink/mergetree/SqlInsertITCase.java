package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.ChDbSession;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flink SQL: {@code INSERT INTO t SELECT ...} into a {@code 'connector' = 'mergetree'} table whose
 * ClickHouse DDL is derived from the Flink schema ({@code engine}, {@code partition-by}, ORDER BY
 * from the PRIMARY KEY), once in batch and once in streaming mode into the same directory; the
 * parts attach in chDB, pass {@code CHECK TABLE} and equal ClickHouse's own INSERT of the rows.
 */
class SqlInsertITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER =
            new MiniClusterExtension(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberTaskManagers(2)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    @TempDir static Path tmp;
    @ChDbSession static ChDb ch;

    private static String sinkTable(Path dir) {
        return "CREATE TABLE posts (id BIGINT NOT NULL, title STRING, price DECIMAL(10, 2),"
                + " created TIMESTAMP(3), tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED) WITH ("
                + " 'connector' = 'mergetree', 'path' = '"
                + dir
                + "', 'engine' = 'MergeTree', 'partition-by' = 'toYYYYMM(created)',"
                + " 'min_insert_block_size_rows' = '3000', 'optimize_final' = 'true')";
    }

    private static void insert(TableEnvironment t, Path dir, long from, long to) throws Exception {
        t.getConfig().set("parallelism.default", "2");
        t.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '"
                        + from
                        + "', 'fields.id.end' = '"
                        + to
                        + "', 'number-of-rows' = '"
                        + (to - from + 1)
                        + "')");
        t.executeSql(sinkTable(dir));
        t.executeSql(
                        "INSERT INTO posts SELECT id, CONCAT('t', CAST(id % 100 AS STRING)),"
                                + " CAST(CAST(id AS DECIMAL(10, 2)) + 0.25 AS DECIMAL(10, 2)),"
                                + " TIMESTAMPADD(MINUTE, CAST(id AS INT), TIMESTAMP '2024-01-01 00:00:00'),"
                                + " ARRAY['a', CAST(id % 3 AS STRING)] FROM gen")
                .await();
    }

    @Test
    void insertIntoSelectInBatchThenStreaming() throws Exception {
        Path dir = tmp.resolve("posts");
        insert(TableEnvironment.create(EnvironmentSettings.inBatchMode()), dir, 1, 20_000);
        TableEnvironment streaming = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        streaming.getConfig().set("execution.checkpointing.interval", "200 ms");
        insert(streaming, dir, 20_001, 30_000);

        String stored = Files.readString(dir.resolve("s3mergetree_metadata/table.sql"));
        assertThat(stored).contains("Nullable(String)").contains("PARTITION BY toYYYYMM(created)");
        ch.execute(stored.replaceFirst("CREATE TABLE \\S+", "CREATE TABLE ours"));
        ch.execute(stored.replaceFirst("CREATE TABLE \\S+", "CREATE TABLE ref"));
        ch.execute(
                "INSERT INTO ref SELECT number, concat('t', toString(number % 100)),"
                        + " toDecimal64(number, 2) + toDecimal64('0.25', 2),"
                        + " toDateTime64('2024-01-01 00:00:00', 3) + toIntervalMinute(number),"
                        + " ['a', toString(number % 3)] FROM numbers(1, 30000)");
        TableChecks.attachAll(ch, "ours", dir);
        ch.assertCheckTablePasses("ours");
        assertThat(
                        ch.query(
                                "SELECT count(), uniqExact(id), "
                                        + RowsHash.ALL_COLUMNS
                                        + " FROM ours"))
                .isEqualTo(
                        ch.query(
                                "SELECT count(), uniqExact(id), "
                                        + RowsHash.ALL_COLUMNS
                                        + " FROM ref"));
        // optimize_final = true: one part per partition at the end of each (bounded) insert
        assertThat(
                        ch.queryLong(
                                "SELECT max(c) FROM (SELECT count() c FROM system.parts WHERE table = 'ours' AND active GROUP BY partition)"))
                .isEqualTo(1);
    }

    @Test
    void unknownColumnIsRefusedAtPlanning() {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.executeSql(
                "CREATE TABLE bad (id BIGINT, extra STRING) WITH ('connector' = 'mergetree', 'path' = '"
                        + tmp.resolve("bad")
                        + "', 'ddl' = 'CREATE TABLE bad (id UInt64) ENGINE = MergeTree ORDER BY id')");
        assertThatThrownBy(() -> t.executeSql("INSERT INTO bad VALUES (1, 'x')").await())
                .hasStackTraceContaining("Input field 'extra' names no column of table bad");
    }
}
