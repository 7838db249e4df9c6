package io.github.s3mergetree.examples.jobs;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.DiscoveryMode;
import java.time.Duration;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.TimeUtils;

/**
 * Keeps a MergeTree table up to date with a bucket: objects that appear under the glob while the
 * job runs are loaded once each, exactly once, with the table's merges running inside the job.
 *
 * <p>What it shows: {@link S3Source} in continuous mode lists the location every {@code
 * --discovery-interval} ({@code 10s}) and remembers what it has read in its checkpointed state
 * ({@code --mode unordered}, the default: a bounded set of the keys read, like ClickHouse's S3Queue
 * {@code unordered}; {@code ordered}: only the greatest key read, for keys that only grow). The job
 * checkpoints every {@code --checkpoint-interval} ({@code 30s}) in EXACTLY_ONCE mode; {@link
 * MergeTreeSink} turns each checkpoint's rows into parts and commits them only when the checkpoint
 * completes, with a dedup token, so a restart from a checkpoint neither loses nor duplicates rows:
 * the source re-reads what came after the checkpoint and the sink throws away what it had written
 * after it. New rows become visible in the table directory one checkpoint after they are read; the
 * sink's merge coordinator keeps the number of parts per partition low, as a ClickHouse server
 * would.
 *
 * <pre>
 * flink run -c io.github.s3mergetree.examples.jobs.ContinuousS3ToMergeTreeJob s3-mergetree-examples.jar \
 *   --location 's3://bucket/events/*.json' --format JSONEachRow \
 *   --table-path /data/events --ddl-file events.sql --checkpoint-interval 1min
 * </pre>
 *
 * <p>Parameters: those of {@link JobParameters}, plus {@code --discovery-interval}, {@code --mode},
 * {@code --checkpoint-interval}, {@code --sink-id} (default {@code continuous}; give two jobs
 * writing one table different ids) and {@code --parallelism}.
 */
public final class ContinuousS3ToMergeTreeJob {
    private ContinuousS3ToMergeTreeJob() {}

    public static void main(String[] args) throws Exception {
        JobArgs params = JobArgs.fromArgs(args);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        build(env, params);
        env.execute("S3 to MergeTree (continuous): " + params.get("location"));
    }

    /** Adds the job's pipeline to {@code env} and enables its checkpoints. */
    public static void build(StreamExecutionEnvironment env, JobArgs params) {
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.enableCheckpointing(
                duration(params, "checkpoint-interval", "30s").toMillis(),
                CheckpointingMode.EXACTLY_ONCE);
        if (params.has("parallelism")) {
            env.setParallelism(params.getInt("parallelism"));
        }
        TableDefinition table = JobParameters.table(params);
        TargetSchema columns = JobParameters.columns(params, table);

        S3Source<Block> source =
                JobParameters.connection(
                                S3Source.builder(JobParameters.format(params, columns)), params)
                        .setContinuous(
                                duration(params, "discovery-interval", "10s"),
                                DiscoveryMode.valueOf(
                                        params.get("mode", "unordered")
                                                .toUpperCase(java.util.Locale.ROOT)))
                        .build();

        MergeTreeSink<Block> sink =
                MergeTreeSink.forBlocks()
                        .setTablePath(params.getRequired("table-path"))
                        .setDdl(table)
                        .setSinkId(params.get("sink-id", "continuous"))
                        .build();

        env.fromSource(source, WatermarkStrategy.noWatermarks(), "S3: " + params.get("location"))
                .uid("s3-source")
                .sinkTo(sink)
                .uid("mergetree-sink")
                .name("MergeTree: " + params.get("table-path"));
    }

    private static Duration duration(JobArgs params, String key, String defaultValue) {
        String v = params.get(key, defaultValue);
        try {
            return TimeUtils.parseDuration(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--" + key + " must be a duration such as 500ms, 10s, 1min, not '" + v + "'");
        }
    }
}
