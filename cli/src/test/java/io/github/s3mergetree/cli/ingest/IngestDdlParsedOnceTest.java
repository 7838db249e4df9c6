package io.github.s3mergetree.cli.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.s3mergetree.engine.ddl.DdlParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code s3-mergetree ingest} parses the table's DDL once in the command (the table check, the
 * source's columns, the sink built twice, the table's creation all take it parsed) and, in its
 * embedded job, at most once per task that uses the table (writer, committer, merge coordinator).
 */
class IngestDdlParsedOnceTest {
    @TempDir Path tmp;

    static final String DDL =
            "CREATE TABLE parsed_once (id UInt32, name String) ENGINE = MergeTree ORDER BY id";

    @Test
    void theCommandParsesTheDdlOnceAndEachTaskAtMostOnce() throws Exception {
        StringBuilder rows = new StringBuilder();
        for (int i = 1; i <= 100; i++) {
            rows.append(i).append(",name ").append(i).append('\n');
        }
        Path file = Files.createDirectories(tmp.resolve("in")).resolve("rows.csv");
        Files.writeString(file, rows.toString());
        Path ddl = Files.writeString(tmp.resolve("t.sql"), DDL);
        Path table = tmp.resolve("t");
        String command = Thread.currentThread().getName();
        List<String> parses = new CopyOnWriteArrayList<>();
        IngestFixture.Result r;
        try (AutoCloseable observed =
                DdlParser.observeParses(
                        text -> {
                            if (text.equals(DDL)) {
                                parses.add(Thread.currentThread().getName());
                            }
                        })) {
            r =
                    IngestFixture.runInProcess(
                            List.of(
                                    "ingest",
                                    "--source",
                                    "file://" + file,
                                    "--format",
                                    "CSV",
                                    "--table-ddl-file",
                                    ddl.toString(),
                                    "--table-path",
                                    table.toString(),
                                    "--parallelism",
                                    "1"));
        }
        assertThat(r.code()).as("stderr:\n%s", r.err()).isZero();
        assertThat(IngestFixture.tableRows(table)).isEqualTo(100);
        assertThat(parses.stream().filter(command::equals))
                .as("parses in the command (thread %s) of all %s", command, parses)
                .hasSize(1);
        assertThat(parses.stream().filter(t -> !t.equals(command)).toList())
                .as("parses in the job's tasks (writer, committer, merges)")
                .doesNotHaveDuplicates()
                .hasSizeLessThanOrEqualTo(3);
    }
}
