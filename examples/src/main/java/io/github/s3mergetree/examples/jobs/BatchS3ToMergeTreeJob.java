package io.github.s3mergetree.examples.jobs;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Loads the S3 objects matching a glob into a MergeTree table once: a bounded {@link S3Source} into
 * a {@link MergeTreeSink}, in BATCH mode.
 *
 * <p>What it shows: the source lists the objects once, splits and decodes them into column {@link
 * Block}s of the table's types; the sink sorts them by the table's ORDER BY, writes parts per
 * partition, commits them when the input ends, and (with {@code --optimize-final true}, the
 * default) merges each partition into one part, ready for {@code ALTER TABLE … ATTACH PARTITION}.
 * No checkpoints are needed: in BATCH mode a failed task is simply re-run and its uncommitted parts
 * are thrown away.
 *
 * <pre>
 * flink run -c io.github.s3mergetree.examples.jobs.BatchS3ToMergeTreeJob s3-mergetree-examples.jar \
 *   --location 's3://bucket/posts/*.parquet' --endpoint http://127.0.0.1:9000 \
 *   --table-path /data/posts --ddl-file posts.sql
 * </pre>
 *
 * <p>Parameters: those of {@link JobParameters}, plus {@code --parallelism} (the environment's
 * default otherwise) and {@code --optimize-final} ({@code true}).
 */
public final class BatchS3ToMergeTreeJob {
    private BatchS3ToMergeTreeJob() {}

    public static void main(String[] args) throws Exception {
        JobArgs params = JobArgs.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        build(env, params);
        env.execute("S3 to MergeTree (batch): " + params.get("location"));
    }

    /** Adds the job's pipeline to {@code env}. */
    public static void build(StreamExecutionEnvironment env, JobArgs params) {
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        if (params.has("parallelism")) {
            env.setParallelism(params.getInt("parallelism"));
        }
        TableDefinition table = JobParameters.table(params);
        TargetSchema columns = JobParameters.columns(params, table);

        S3Source<Block> source =
                JobParameters.connection(
                                S3Source.builder(JobParameters.format(params, columns)), params)
                        .setBounded()
                        .build();

        MergeTreeSink<Block> sink =
                MergeTreeSink.forBlocks()
                        .setTablePath(params.getRequired("table-path"))
                        .setDdl(table)
                        .setOption(
                                MergeTreeSinkOptions.OPTIMIZE_FINAL,
                                params.getBoolean("optimize-final", true))
                        .build();

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "S3: " + params.get("location"))
                .sinkTo(sink)
                .name("MergeTree: " + params.get("table-path"));
    }
}
