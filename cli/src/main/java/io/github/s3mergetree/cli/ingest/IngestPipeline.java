package io.github.s3mergetree.cli.ingest;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.table.TableDefinition;
import io.github.s3mergetree.sink.mergetree.MergeTreeSink;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkBuilder;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableLocation;
import io.github.s3mergetree.source.s3.S3Source;
import io.github.s3mergetree.source.s3.S3SourceBuilder;
import io.github.s3mergetree.source.s3.format.TargetSchema;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import javax.annotation.Nullable;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The ingest job's topology: {@link S3Source} (blocks of the table's insertable columns) → {@link
 * MergeTreeSink#forBlocks()}. Shared by the {@code ingest} command (embedded MiniCluster or a
 * remote cluster) and by the job jar's {@link IngestJobMain} ({@code flink run}), so both run the
 * same job.
 */
public final class IngestPipeline {
    private IngestPipeline() {}

    /**
     * A stable name of one ingest (source, format, mode), used for its sink id and its state
     * directory: re-running the same ingest finds its checkpoints; two different ingests into one
     * table never share temporary parts.
     */
    public static String ingestKey(IngestOptions o) {
        String id =
                o.source()
                        + "\n"
                        + o.format().toLowerCase(Locale.ROOT)
                        + "\n"
                        + (o.continuous() ? "continuous" : "bounded");
        try {
            byte[] h =
                    MessageDigest.getInstance("SHA-256")
                            .digest(id.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The columns an INSERT may write: every column but MATERIALIZED and ALIAS ones. */
    public static TargetSchema insertableColumns(TableSchema schema) {
        return TargetSchema.insertableColumns(schema);
    }

    /** The source of the ingest; {@link IllegalArgumentException} names a bad option. */
    public static S3Source<Block> source(
            IngestOptions o, TableSchema schema, IngestSettings settings) {
        return source(o, schema, settings, null, null);
    }

    /**
     * The source of the ingest, parking failed objects and listing them in {@code
     * failedObjectsReport} when that is given (unless {@code s3.failed-objects} is set), and
     * reading exactly {@code splits} instead of listing when those are given.
     */
    public static S3Source<Block> source(
            IngestOptions o,
            TableSchema schema,
            IngestSettings settings,
            @Nullable String failedObjectsReport,
            @Nullable List<S3ObjectSplit> splits) {
        Configuration conf = new Configuration();
        // the command lists the objects itself (ObjectPreflight, with its own messages): the
        // source need not list them again when it is built (a --setting may still ask for it)
        conf.set(S3SourceOptions.VALIDATE_ON_BUILD, false);
        settings.source().forEach(conf::setString);
        if (failedObjectsReport != null) {
            conf.set(S3SourceOptions.FAILED_OBJECTS_REPORT, failedObjectsReport);
            if (!conf.contains(S3SourceOptions.FAILED_OBJECTS)) {
                conf.set(S3SourceOptions.FAILED_OBJECTS, S3SourceOptions.FailedObjects.PARK);
            }
        }
        String compression = conf.get(S3SourceOptions.COMPRESSION);
        S3SourceBuilder<Block> b =
                S3Source.builder(
                                BlockFormats.forName(
                                        o.format(), insertableColumns(schema), compression))
                        .setLocation(o.source());
        if (!o.isLocalSource()) {
            if (o.s3Endpoint() != null) {
                b.setEndpoint(o.s3Endpoint());
            }
            if (o.s3Region() != null) {
                b.setRegion(o.s3Region());
            }
            b.setPathStyleAccess(o.pathStyle());
            if (o.accessKey() != null) {
                b.setCredentials(o.accessKey(), o.secretKey());
            } else {
                b.useDefaultCredentials();
            }
        }
        if (o.continuous()) {
            b.setContinuous(o.discoveryInterval(), S3SourceOptions.S3QUEUE_MODE.defaultValue());
        } else {
            b.setBounded();
        }
        b.setOptions(conf);
        if (splits != null) {
            b.setSplits(splits);
        }
        return b.build();
    }

    /** The sink of the ingest, with sink id {@code ingest-<key>}. */
    public static MergeTreeSink<Block> sink(
            IngestOptions o, TableDefinition table, IngestSettings settings) {
        return sink(o, table, settings, null);
    }

    /**
     * The sink of the ingest, delivering every commit into the server {@code delivery} names from
     * inside the job (the sink's delivery operator; null: no delivery). The job jar uses this: its
     * JVM is gone once the job is submitted, so delivery cannot run beside it as in {@code ingest}.
     */
    public static MergeTreeSink<Block> sink(
            IngestOptions o,
            TableDefinition table,
            IngestSettings settings,
            io.github.s3mergetree.cli.args.DeliveryCliOptions delivery) {
        return sink(o, table, settings, delivery, null);
    }

    /**
     * The sink of the ingest as {@link #sink(IngestOptions, TableDefinition, IngestSettings,
     * io.github.s3mergetree.cli.args.DeliveryCliOptions)}, committing only while the writer lease
     * {@code fence} names is held at its epoch (null: no fence).
     */
    public static MergeTreeSink<Block> sink(
            IngestOptions o,
            TableDefinition table,
            IngestSettings settings,
            io.github.s3mergetree.cli.args.DeliveryCliOptions delivery,
            io.github.s3mergetree.engine.table.WriterLease.Fence fence) {
        MergeTreeSinkBuilder<Block> b = MergeTreeSink.forBlocks().setTablePath(o.tablePath());
        if (o.tableOnS3()) {
            // the table's own S3 settings (the source's unless --table-s3-* overrides them)
            TableLocation.S3Settings t = o.tableS3();
            b.setTableS3(
                    t.endpoint() == null ? null : t.endpoint().toString(),
                    t.region(),
                    t.pathStyle());
            if (t.accessKey() != null) {
                b.setTableCredentials(t.accessKey(), t.secretKey());
            }
        }
        b.setDdl(table)
                .setSettings(settings.sink())
                .setOption(MergeTreeSinkOptions.OPTIMIZE_FINAL, o.optimizeFinal())
                .setSinkId("ingest-" + ingestKey(o))
                // the command checks the table itself before anything is written
                .setOption(MergeTreeSinkOptions.VALIDATE_ON_BUILD, false);
        if (delivery != null) {
            delivery.applyTo(b);
        }
        if (fence != null) {
            b.setWriterFence(fence);
        }
        return b.build();
    }

    /**
     * Adds source → sink to {@code env}, with object reuse on: the source emits a new {@link Block}
     * per batch and never touches it again, and the sink keeps it by reference until its insert
     * block is written, so the chained hand-over needs no defensive deep copy of every block
     * ({@code BlockSerializer.copy}).
     */
    public static void addTo(
            StreamExecutionEnvironment env,
            S3Source<Block> source,
            MergeTreeSink<Block> sink,
            IngestOptions o) {
        env.getConfig().enableObjectReuse();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "S3 " + o.source())
                .uid("s3-source")
                .sinkTo(sink)
                .name("MergeTree " + o.tableName())
                .uid("mergetree-sink");
    }
}
