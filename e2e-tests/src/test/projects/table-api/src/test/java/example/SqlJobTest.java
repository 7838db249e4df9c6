package example;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** INSERT INTO a 'mergetree' table SELECT FROM an 's3-objects' table, from the Table API. */
class SqlJobTest {
    @Test
    void insertsFromObjectsIntoMergeTree() throws Exception {
        Path in = Files.createTempDirectory("in");
        Path table = Files.createTempDirectory("t").resolve("events");
        Files.writeString(in.resolve("a.csv"), "id,name\n1,a\n2,b\n3,c\n4,d\n");
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.executeSql(
                "CREATE TABLE src (id BIGINT NOT NULL, name STRING NOT NULL) WITH ("
                        + "'connector' = 's3-objects', 'path' = 'file://" + in + "/*.csv',"
                        + " 'format' = 'CSVWithNames')");
        t.executeSql(
                "CREATE TABLE events (id BIGINT NOT NULL, name STRING NOT NULL) WITH ("
                        + "'connector' = 'mergetree', 'path' = '" + table + "',"
                        + " 'ddl' = 'CREATE TABLE events (id Int64, name String) ENGINE = MergeTree"
                        + " ORDER BY id')");
        t.executeSql("INSERT INTO events SELECT id, UPPER(name) FROM src WHERE id > 1").await();
        long rows = 0;
        try (var parts = Files.list(table)) {
            for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("all_")).toList()) {
                rows += Long.parseLong(Files.readString(p.resolve("count.txt")).strip());
            }
        }
        Assertions.assertEquals(3, rows);
    }
}
