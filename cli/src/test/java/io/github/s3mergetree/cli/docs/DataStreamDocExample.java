package io.github.s3mergetree.cli.docs;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import java.net.URI;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;

/**
 * The DataStream examples of {@code docs/datastream.md}, compiled with the tests so that the page
 * shows code that compiles against today's builders: {@code DocSnippetsTest} checks that the page
 * holds each region between {@code // [START name]} and {@code // [END name]} verbatim.
 */
final class DataStreamDocExample {
    private DataStreamDocExample() {}

    static void blocks(StreamExecutionEnvironment env, String ddl, String access, String secret) {
        // [START blocks]
        // ddl: the target table's ClickHouse CREATE TABLE statement (columns, engine, keys)
        S3Source<Block> source =
                S3Source.forBlocks()
                        .forTable(ddl)
                        .setFormat("Parquet")
                        .setLocation("s3://bucket/posts/**.parquet")
                        .setEndpoint(URI.create("http://127.0.0.1:9000"))
                        .setPathStyleAccess(true)
                        .setCredentials(access, secret)
                        .setOption(S3SourceOptions.MAX_DOWNLOAD_THREADS, 8)
                        .build();
        MergeTreeSink<Block> sink =
                MergeTreeSink.forBlocks()
                        .setTablePath("s3://bucket/tables/posts")
                        .setDdl(ddl)
                        .setTableS3("http://127.0.0.1:9000", "us-east-1", true)
                        .setTableCredentials(access, secret)
                        .setSetting("min_insert_block_size_bytes", "auto")
                        .setOption(MergeTreeSinkOptions.MERGES_ENABLED, true)
                        .build();
        env.enableCheckpointing(10_000); // parts are committed at checkpoints, exactly once
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "s3")
                .sinkTo(sink)
                .uid("posts-sink");
        // [END blocks]
    }

    static void rows(StreamExecutionEnvironment env, String ddl) {
        // [START rows]
        // the same objects as Flink SQL rows (types from the DDL), for ordinary operators
        S3Source<RowData> rows =
                S3Source.forRowData()
                        .forTable(ddl)
                        .setFormat("Parquet")
                        .setLocation("s3://bucket/posts/**.parquet")
                        .build();
        env.fromSource(rows, WatermarkStrategy.noWatermarks(), "s3")
                .filter(r -> r.getLong(0) % 2 == 0)
                .map(r -> r.getString(1).toString());
        // [END rows]
    }
}
