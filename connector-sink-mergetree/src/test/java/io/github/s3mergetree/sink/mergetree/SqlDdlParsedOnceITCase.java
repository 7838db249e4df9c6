package io.github.s3mergetree.sink.mergetree;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.ddl.DdlParser;
import io.github.s3mergetree.sink.mergetree.testutils.TableChecks;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A SQL {@code INSERT} into a {@code 'connector' = 'mergetree'} table with a {@code 'ddl'} parses
 * that DDL once while the statement is planned (the sink is built once, with one parse) and at most
 * once per task that uses the table.
 */
class SqlDdlParsedOnceITCase {
    @TempDir Path tmp;

    static final String DDL =
            "CREATE TABLE sql_parsed_once (id Int64, name String) ENGINE = MergeTree ORDER BY id";

    @Test
    void anInsertParsesTheDdlOnceWhilePlannedAndAtMostOncePerTask() throws Exception {
        TableEnvironment t = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        t.getConfig().set("parallelism.default", "2");
        t.executeSql(
                "CREATE TEMPORARY TABLE gen (id BIGINT) WITH ('connector' = 'datagen',"
                        + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
                        + " 'fields.id.end' = '500', 'number-of-rows' = '500')");
        t.executeSql(
                "CREATE TABLE parsed (id BIGINT, name STRING) WITH ('connector' = 'mergetree',"
                        + " 'path' = '"
                        + tmp.resolve("t")
                        + "', 'ddl' = '"
                        + DDL.replace("'", "''")
                        + "')");
        String planner = Thread.currentThread().getName();
        List<String> parses = new CopyOnWriteArrayList<>();
        try (AutoCloseable observed =
                DdlParser.observeParses(
                        text -> {
                            if (text.equals(DDL)) {
                                parses.add(Thread.currentThread().getName());
                            }
                        })) {
            t.executeSql("INSERT INTO parsed SELECT id, CAST(id AS STRING) FROM gen").await();
        }
        assertThat(parses.stream().filter(planner::equals))
                .as("parses while planning (thread %s) of all %s", planner, parses)
                .hasSize(1);
        // 2 writers, 2 committers, the merge coordinator
        assertThat(parses.stream().filter(n -> !n.equals(planner)).toList())
                .as("parses in the tasks")
                .doesNotHaveDuplicates()
                .hasSizeLessThanOrEqualTo(5);
        assertThat(
                        TableChecks.open(tmp.resolve("t")).activeParts().stream()
                                .mapToLong(p -> p.rows())
                                .sum())
                .isEqualTo(500);
    }
}
