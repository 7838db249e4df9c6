package example;

import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.source.s3.S3Source;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;

/**
 * Parquet objects on S3 as RowData → the posts with a positive score → a MergeTree table. Arguments:
 * location endpoint accessKey secretKey tablePath ddlFile.
 */
public class FilteredPostsJob {
    public static void main(String[] args) throws Exception {
        String ddl = Files.readString(Path.of(args[5]));
        S3Source<RowData> source =
                S3Source.forRowData()
                        .forTable(ddl)
                        .setFormat("Parquet")
                        .setLocation(args[0])
                        .setEndpoint(URI.create(args[1]))
                        .setPathStyleAccess(true)
                        .setCredentials(args[2], args[3])
                        .build();
        RowType rowType = ((InternalTypeInfo<RowData>) source.getProducedType()).toRowType();
        int score = rowType.getFieldIndex("Score");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "posts")
                .uid("posts-source")
                .filter(r -> r.getInt(score) > 0)
                .uid("positive-score")
                .sinkTo(
                        MergeTreeSink.forRowData()
                                .setRowType(rowType)
                                .setTablePath(args[4])
                                .setDdl(ddl)
                                .build())
                .uid("posts-sink");
        env.execute("job-jar: posts with a positive score");
    }
}
