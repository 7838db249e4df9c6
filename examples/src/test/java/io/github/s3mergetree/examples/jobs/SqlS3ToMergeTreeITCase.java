package io.github.s3mergetree.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.engine.testing.RowsHash;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SQL path end to end in one script: a {@code 's3-objects'} table over CSVWithNames objects on
 * an S3 API server, {@code INSERT INTO} a {@code 'mergetree'} table {@code SELECT … FROM} it with a
 * filter and an expression, judged by chDB over the written parts; projection push-down (the
 * planner's plan names only the selected columns); and mistakes reported by the statement.
 */
class SqlS3ToMergeTreeITCase {
    @TempDir Path tmp;

    private String sourceDdl(S3ProxyServer s3, String name, String glob) {
        return "CREATE TABLE "
                + name
                + " (id BIGINT NOT NULL, `day` DATE NOT NULL, name STRING NOT NULL, amount DOUBLE)"
                + " WITH ('connector' = 's3-objects', 'path' = 's3://data/"
                + glob
                + "', 'format' = 'CSVWithNames', 'endpoint' = '"
                + s3.endpoint()
                + "', 'access-key' = '"
                + JobsTesting.ACCESS_KEY
                + "', 'secret-key' = '"
                + JobsTesting.SECRET_KEY
                + "', 'max_download_threads' = '2')";
    }

    @Test
    @Timeout(300)
    void insertIntoMergeTreeSelectFromS3InOneScript() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        for (int f = 0; f < 3; f++) {
            JobsTesting.writeCsv(bucket, "events/part-" + f + ".csv", f * 2000L, 2000);
        }
        Path table = tmp.resolve("events");
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            t.getConfig().set("parallelism.default", "2");
            t.executeSql(sourceDdl(s3, "src", "events/*.csv"));
            t.executeSql(
                    "CREATE TABLE events (id BIGINT NOT NULL, `day` DATE NOT NULL, name STRING,"
                            + " amount DOUBLE) WITH ('connector' = 'mergetree', 'path' = '"
                            + table
                            + "', 'ddl' = '"
                            + JobsTesting.DDL.replace("'", "''")
                            + "')");
            TableResult r =
                    t.executeSql(
                            "INSERT INTO events SELECT id, `day`, UPPER(name), amount * 2 FROM src"
                                    + " WHERE id % 2 = 0");
            r.await();

            // projection push-down: only id and name are decoded
            String plan = t.explainSql("SELECT id, name FROM src");
            assertThat(plan).contains("project=[id, name]");
            List<Row> counted = new ArrayList<>();
            try (CloseableIterator<Row> it =
                    t.executeSql("SELECT COUNT(*), MAX(id) FROM src WHERE name = 'name-3'")
                            .collect()) {
                it.forEachRemaining(counted::add);
            }
            assertThat(counted).hasSize(1);
            // ids 0..5999 with id % 7 = 3
            assertThat(counted.get(0).getField(0)).isEqualTo(857L);
            assertThat(counted.get(0).getField(1)).isEqualTo(5995L);
        }

        assertThat(JobsTesting.committedRows(table)).isEqualTo(3000);
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            JobsTesting.attachAll(ch, table);
            assertThat(ch.query("SELECT " + RowsHash.of("id, day, name, amount") + " FROM events"))
                    .isEqualTo(
                            ch.query(
                                    "SELECT "
                                            + RowsHash.of(
                                                    "number, toDate('2025-01-01') +"
                                                            + " toIntervalMonth(number % 3) + toIntervalDay(number %"
                                                            + " 28), toLowCardinality(concat('NAME-', toString(number"
                                                            + " % 7))), (toFloat64(number % 100) + 0.5) * 2")
                                            + " FROM"
                                            + " numbers(6000) WHERE number % 2 = 0"));
        }
    }

    @Test
    @Timeout(120)
    void mistakesFailTheStatement() throws Exception {
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            t.executeSql(
                    sourceDdl(s3, "bad_format", "events/*.csv")
                            .replace("'CSVWithNames'", "'Excel'"));
            assertThatThrownBy(() -> t.explainSql("SELECT * FROM bad_format"))
                    .hasStackTraceContaining("unknown format 'Excel'");
            t.executeSql(
                    sourceDdl(s3, "bad_type", "events/*.csv")
                            .replace(
                                    "'max_download_threads' = '2'",
                                    "'columns' = 'id Array(String)'"));
            assertThatThrownBy(() -> t.explainSql("SELECT * FROM bad_type"))
                    .hasStackTraceContaining(
                            "column id of ClickHouse type Array(String) cannot be read as Flink"
                                    + " type BIGINT");
            t.executeSql(
                    sourceDdl(s3, "bad_option", "events/*.csv")
                            .replace("'max_download_threads'", "'max_download_thread'"));
            assertThatThrownBy(() -> t.explainSql("SELECT * FROM bad_option"))
                    .hasStackTraceContaining("max_download_thread");
        }
    }
}
