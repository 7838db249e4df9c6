package io.github.s3mergetree.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One S3 connection vocabulary for both SQL connectors: the {@code 's3-objects'} source and an
 * {@code s3://} {@code 'mergetree'} table on the same S3 API server (S3Proxy on 127.0.0.1) take the
 * same {@code WITH} keys ({@code s3.endpoint}, {@code s3.access-key}, {@code s3.secret-key}), the
 * sink with {@code sink.delivery-guarantee}; chDB judges the written parts.
 */
class SqlSharedS3ConnectionITCase {
    @TempDir Path tmp;

    @Test
    @Timeout(300)
    void sourceAndSinkTakeTheSameConnectionKeys() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        for (int f = 0; f < 2; f++) {
            JobsTesting.writeCsv(bucket, "events/part-" + f + ".csv", f * 1500L, 1500);
        }
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            String connection =
                    "'s3.endpoint' = '"
                            + s3.endpoint()
                            + "', 's3.access-key' = '"
                            + JobsTesting.ACCESS_KEY
                            + "', 's3.secret-key' = '"
                            + JobsTesting.SECRET_KEY
                            + "'";
            TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            t.getConfig().set("parallelism.default", "2");
            t.executeSql(
                    "CREATE TABLE src (id BIGINT NOT NULL, `day` DATE NOT NULL, name STRING NOT"
                            + " NULL, amount DOUBLE) WITH ('connector' = 's3-objects', 'path' ="
                            + " 's3://data/events/*.csv', 'format' = 'CSVWithNames', "
                            + connection
                            + ")");
            t.executeSql(
                    "CREATE TABLE events (id BIGINT NOT NULL, `day` DATE NOT NULL, name STRING,"
                            + " amount DOUBLE) WITH ('connector' = 'mergetree', 'path' ="
                            + " 's3://data/tables/events', 'ddl' = '"
                            + JobsTesting.DDL.replace("'", "''")
                            + "', 'sink.delivery-guarantee' = 'exactly-once', "
                            + connection
                            + ")");
            t.executeSql("INSERT INTO events SELECT * FROM src").await();
        }
        // the s3:// table is a directory of the S3 server's bucket
        Path table = tmp.resolve("s3/data/tables/events");
        assertThat(JobsTesting.committedRows(table)).isEqualTo(3000);
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            JobsTesting.attachAll(ch, table);
            assertThat(ch.query("SELECT count(), uniqExact(id), min(id), max(id) FROM events"))
                    .isEqualTo("3000\t3000\t0\t2999");
        }
    }
}
