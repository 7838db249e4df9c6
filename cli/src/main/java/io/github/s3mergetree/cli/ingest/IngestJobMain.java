package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.cli.args.DeliveryCliOptions;
import io.github.s3mergetree.connector.ddl.DdlFiles;
import io.github.s3mergetree.engine.table.TableDefinition;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The job jar's entry point for {@code flink run}: the same S3 → MergeTree job as {@code
 * s3-mergetree ingest}, with the same options, on whatever cluster {@code flink run} targets.
 *
 * <pre>
 * flink run s3-mergetree-cli-0.1.0-SNAPSHOT-job.jar --source s3://bucket/posts/*.parquet \
 *     --format Parquet --table-ddl-file /shared/posts.sql --table-path /shared/tables/posts \
 *     --s3-endpoint http://127.0.0.1:9000 --s3-path-style --setting max_download_threads=4
 * </pre>
 *
 * <p>With {@code --clickhouse-url URL --clickhouse-table DB.TABLE} (and the other delivery options
 * of {@code ingest}), every commit is delivered into that live server's table by the sink's own
 * delivery operator inside the job, exactly once by the delivery ledger; the target is checked
 * before the job is submitted.
 *
 * <p>Checkpointing ({@code --checkpoint-interval}) makes it exactly-once; recovery across
 * submissions is Flink's own ({@code flink run -s <savepoint>}), unlike the {@code ingest} command
 * which finds its retained checkpoints itself. {@code --jobmanager} and the embedded-cluster
 * options do not apply here.
 */
public final class IngestJobMain {
    private IngestJobMain() {}

    public static void main(String[] args) throws Exception {
        // for crash tests only: -Ds3mergetree.deliver.halt-at=POINT stops the JVM dead there (the
        // delivery operator runs in this JVM only on a local MiniCluster)
        io.github.s3mergetree.delivery.DeliveryFaultPoints.haltAtFromSystemProperty();
        DeliveryCliOptions.Split split = DeliveryCliOptions.split(List.of(args));
        IngestOptions o = IngestOptions.parse(split.rest());
        // parsed once here: the source's columns and the sink take it parsed
        TableDefinition table = TableDefinition.parse(DdlFiles.read(o.tableDdlFile()));
        IngestSettings settings = IngestSettings.parse(o.settings());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(o.checkpointInterval().toMillis());
        if (o.parallelism() != null) {
            env.setParallelism(o.parallelism());
        }
        IngestPipeline.addTo(
                env,
                IngestPipeline.source(o, table.schema(), settings),
                IngestPipeline.sink(o, table, settings, split.delivery()),
                o);
        env.execute("s3-mergetree ingest " + IngestPipeline.ingestKey(o) + " " + o.source());
    }
}
