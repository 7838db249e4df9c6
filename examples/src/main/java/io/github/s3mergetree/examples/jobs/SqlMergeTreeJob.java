package io.github.s3mergetree.examples.jobs;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;

/**
 * Writes a MergeTree table from Flink SQL: {@code INSERT INTO} a {@code 'connector' = 'mergetree'}
 * table, here from generated rows ({@code 'connector' = 'datagen'}).
 *
 * <p>What it shows: the MergeTree table is declared in Flink SQL and its ClickHouse DDL is derived
 * from the Flink schema ({@code 'engine'}, {@code 'partition-by'}; ORDER BY from the primary key,
 * key columns made non-Nullable) and stored in the table directory; the planner only sees an
 * ordinary sink table. In BATCH mode (the default) the parts are committed at the end of the input
 * and {@code 'optimize_final' = 'true'} leaves one part per partition; with {@code --mode
 * streaming} they are committed at each checkpoint ({@code --checkpoint-interval}, {@code 10s}).
 * Any other source works the same way: replace {@code orders_gen} by a Kafka, filesystem or JDBC
 * table.
 *
 * <pre>
 * flink run -c io.github.s3mergetree.examples.jobs.SqlMergeTreeJob s3-mergetree-examples.jar \
 *   --table-path /data/orders --rows 1000000
 * </pre>
 *
 * <p>Parameters: {@code --table-path} (required), {@code --rows} (100000), {@code --mode} ({@code
 * batch} or {@code streaming}), {@code --checkpoint-interval} and {@code --parallelism}. The
 * resulting table, in ClickHouse:
 *
 * <pre>
 * CREATE TABLE orders (id Int64, customer Nullable(String), amount Nullable(Decimal(10, 2)),
 *   created DateTime64(3)) ENGINE = MergeTree PARTITION BY toYYYYMM(created) ORDER BY id
 * </pre>
 *
 * (the exact statement is {@code <table-path>/s3mergetree_metadata/table.sql}).
 */
public final class SqlMergeTreeJob {
    private SqlMergeTreeJob() {}

    public static void main(String[] args) throws Exception {
        JobArgs params = JobArgs.fromArgs(args);
        boolean streaming = params.get("mode", "batch").equals("streaming");
        TableEnvironment tEnv =
                TableEnvironment.create(
                        streaming
                                ? EnvironmentSettings.inStreamingMode()
                                : EnvironmentSettings.inBatchMode());
        run(tEnv, params).await();
    }

    /** Declares the tables and submits the {@code INSERT}; {@code await()} the result to wait. */
    public static TableResult run(TableEnvironment tEnv, JobArgs params) {
        if (params.has("parallelism")) {
            tEnv.getConfig().set("parallelism.default", params.get("parallelism"));
        }
        tEnv.getConfig()
                .set("execution.checkpointing.interval", params.get("checkpoint-interval", "10s"));
        long rows = params.getLong("rows", 100_000);

        // the input: a bounded sequence of ids
        tEnv.executeSql(
                "CREATE TEMPORARY TABLE orders_gen (id BIGINT) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '"
                        + rows
                        + "',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '"
                        + rows
                        + "')");

        // the output: a MergeTree table directory, DDL derived from this schema
        tEnv.executeSql(
                "CREATE TABLE orders ("
                        + "  id BIGINT NOT NULL,"
                        + "  customer STRING,"
                        + "  amount DECIMAL(10, 2),"
                        + "  created TIMESTAMP(3),"
                        + "  PRIMARY KEY (id) NOT ENFORCED"
                        + ") WITH ("
                        + "  'connector' = 'mergetree',"
                        + "  'path' = '"
                        + sqlString(params.getRequired("table-path"))
                        + "',"
                        + "  'engine' = 'MergeTree',"
                        + "  'partition-by' = 'toYYYYMM(created)',"
                        + "  'optimize_final' = 'true'"
                        + ")");

        return tEnv.executeSql(
                "INSERT INTO orders SELECT"
                        + "  id,"
                        + "  CONCAT('customer-', CAST(id % 100 AS STRING)),"
                        + "  CAST((id % 1000) * 0.25 AS DECIMAL(10, 2)),"
                        + "  TIMESTAMPADD(HOUR, CAST(id AS INT), TIMESTAMP '2025-01-01 00:00:00')"
                        + " FROM orders_gen");
    }

    /** {@code s} inside a SQL string literal. */
    private static String sqlString(String s) {
        return s.replace("'", "''");
    }
}
