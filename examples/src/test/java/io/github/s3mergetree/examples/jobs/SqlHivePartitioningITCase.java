package io.github.s3mergetree.examples.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.testing.ChDb;
import io.github.s3mergetree.objectstore.testing.S3ProxyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hive partition directories through SQL: an {@code 's3-objects'} table over Parquet objects under
 * {@code region=.../day=.../} on an S3 API server. Its {@code region} and {@code day} columns come
 * from the paths ({@code use_hive_partitioning}, on by default), also when a query reads only them,
 * and equal chDB's reading of the same files; with {@code 'use_hive_partitioning' = 'false'} they
 * come from the objects (or are NULL), as in chDB with the setting off.
 */
class SqlHivePartitioningITCase {
    @TempDir Path tmp;

    static final String[] DIRS = {
        "region=north/day=2024-01-02", "region=south/day=2024-1-3", "region=a%20b/day=20240104"
    };

    private static String ddl(S3ProxyServer s3, String name, String extra) {
        return "CREATE TABLE "
                + name
                + " (id BIGINT NOT NULL, region STRING, `day` DATE, amount BIGINT NOT NULL)"
                + " WITH ('connector' = 's3-objects', 'path' = 's3://data/hive/*/*/part.parquet',"
                + " 'format' = 'Parquet', 'endpoint' = '"
                + s3.endpoint()
                + "', 'access-key' = '"
                + JobsTesting.ACCESS_KEY
                + "', 'secret-key' = '"
                + JobsTesting.SECRET_KEY
                + "'"
                + extra
                + ")";
    }

    @Test
    @Timeout(300)
    void partitionColumnsComeFromThePathsAsInClickHouse() throws Exception {
        Path bucket = tmp.resolve("s3/data");
        String structure = "id Int64, region Nullable(String), day Nullable(Date32), amount Int64";
        List<String> chGrouped;
        List<String> chOff;
        try (ChDb ch = ChDb.start(tmp.resolve("chdb"))) {
            for (int i = 0; i < DIRS.length; i++) {
                Path f = bucket.resolve("hive/" + DIRS[i] + "/part.parquet");
                Files.createDirectories(f.getParent());
                ch.execute(
                        "INSERT INTO FUNCTION file('"
                                + f
                                + "', Parquet) SELECT number + "
                                + i * 1000
                                + " AS id, 'in-file' AS region, toInt64(number * "
                                + (i + 1)
                                + ") AS amount FROM numbers(100)");
            }
            String file =
                    "file('"
                            + bucket.resolve("hive/*/*/part.parquet")
                            + "', Parquet, '"
                            + structure
                            + "')";
            chGrouped =
                    lines(
                            ch.query(
                                    "SELECT region, day, count(), sum(amount) FROM "
                                            + file
                                            + " GROUP BY region, day ORDER BY region"));
            chOff =
                    lines(
                            ch.query(
                                    "SELECT DISTINCT region, day FROM "
                                            + file
                                            + " ORDER BY region SETTINGS use_hive_partitioning = 0"));
        }
        assertThat(chGrouped).hasSize(3);
        try (S3ProxyServer s3 = new S3ProxyServer(tmp.resolve("s3"))) {
            TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
            t.getConfig().set("parallelism.default", "2");
            t.executeSql(ddl(s3, "src", ""));
            t.executeSql(ddl(s3, "off", ", 'use_hive_partitioning' = 'false'"));
            assertThat(
                            collect(
                                    t,
                                    "SELECT region, `day`, COUNT(*), SUM(amount) FROM src"
                                            + " GROUP BY region, `day`"))
                    .isEqualTo(chGrouped);
            // only the path's columns: the rows still come from the objects
            assertThat(collect(t, "SELECT region, `day`, COUNT(*) FROM src GROUP BY region, `day`"))
                    .containsExactly(
                            chGrouped.stream()
                                    .map(l -> l.substring(0, l.lastIndexOf('\t')))
                                    .toArray(String[]::new));
            assertThat(collect(t, "SELECT DISTINCT region, `day` FROM off")).isEqualTo(chOff);
        }
    }

    private static List<String> collect(TableEnvironment t, String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = t.executeSql(sql).collect()) {
            while (it.hasNext()) {
                Row r = it.next();
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < r.getArity(); i++) {
                    Object v = r.getField(i);
                    b.append(i == 0 ? "" : "\t").append(v == null ? "\\N" : v.toString());
                }
                out.add(b.toString());
            }
        }
        out.sort(null);
        return out;
    }

    private static List<String> lines(String tsv) {
        List<String> out = new ArrayList<>();
        for (String l : tsv.split("\n")) {
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        out.sort(null);
        return out;
    }
}
