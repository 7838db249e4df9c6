package io.github.s3mergetree.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.testing.ChDb;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs {@link SqlMergeTreeJob} (BATCH, parallelism 2, 5,000 generated rows) on a local MiniCluster
 * and attaches the table into chDB: the rows equal ClickHouse's own computation of them, {@code
 * CHECK TABLE} passes, one part per partition.
 */
class SqlMergeTreeJobTest {
    @TempDir Path tmp;

    @Test
    @Timeout(300)
    void insertIntoAMergeTreeTableFromSql() throws Exception {
        Path table = tmp.resolve("orders");
        SqlMergeTreeJob.run(
                        TableEnvironment.create(EnvironmentSettings.inBatchMode()),
                        JobArgs.fromArgs(
                                new String[] {
                                    "--table-path", table.toString(),
                                    "--rows", "5000",
                                    "--parallelism", "2"
                                }))
                .await();

        assertThat(JobsTesting.committedRows(table)).isEqualTo(5000);
        String ddl = Files.readString(table.resolve("s3mergetree_metadata/table.sql"));
        assertThat(ddl).contains("PARTITION BY toYYYYMM(created)").contains("ORDER BY id");
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            ch.execute(ddl);
            for (PartName p : JobsTesting.activeParts(table)) {
                ch.attachPart("orders", table.resolve(p.toString()));
            }
            ch.assertCheckTablePasses("orders");
            // an hour per row from 2025-01-01: seven months, one part each (optimize_final)
            assertThat(ch.queryLong("SELECT uniqExact(toYYYYMM(created)) FROM orders"))
                    .isEqualTo(7);
            assertThat(JobsTesting.activeParts(table)).hasSize(7);
            assertThat(
                            ch.query(
                                    "SELECT count(), uniqExact(id), min(id), max(id), sum(amount),"
                                            + " uniqExact(customer), min(created), max(created)"
                                            + " FROM orders"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT count(), uniqExact(number), min(number), max(number),"
                                            + " sum(toDecimal64((number % 1000) * 0.25, 2)),"
                                            + " 100, toDateTime64('2025-01-01 01:00:00', 3),"
                                            + " toDateTime64('2025-01-01 00:00:00', 3)"
                                            + " + toIntervalHour(5000)"
                                            + " FROM numbers(1, 5000)"));
        }
    }
}
