package example;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.source.s3.S3Source;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** CSV objects → map on Block (a lambda, no .returns) → MergeTree table, with no Table API jar. */
class BlocksJobTest {
    @Test
    void runsWithoutTheTableApi() throws Exception {
        Assertions.assertThrows(
                ClassNotFoundException.class,
                () -> Class.forName("org.apache.flink.table.types.logical.RowType"));
        Path in = Files.createTempDirectory("in");
        Path table = Files.createTempDirectory("t").resolve("events");
        Files.writeString(in.resolve("a.csv"), "id,name\n1,a\n2,b\n3,c\n");
        String ddl = "CREATE TABLE events (id Int64, name String) ENGINE = MergeTree ORDER BY id";
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        S3Source<Block> source =
                S3Source.builder()
                        .forTable(ddl)
                        .setFormat("CSVWithNames")
                        .setLocation("file://" + in + "/*.csv")
                        .build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "objects")
                .map(b -> b)
                .sinkTo(MergeTreeSink.forBlocks().setTablePath(table.toString()).setDdl(ddl).build());
        env.execute("blocks");
        long rows = 0;
        try (var parts = Files.list(table)) {
            for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("all_")).toList()) {
                rows += Long.parseLong(Files.readString(p.resolve("count.txt")).strip());
            }
        }
        Assertions.assertEquals(3, rows);
    }
}
