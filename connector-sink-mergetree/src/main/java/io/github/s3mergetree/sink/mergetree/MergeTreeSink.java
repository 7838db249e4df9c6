package io.github.s3mergetree.sink.mergetree;

import io.github.s3mergetree.connector.compat.CompatSink;
import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.engine.table.MergeTreeTable;
import io.github.s3mergetree.engine.table.WriterLease;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittableSerializer;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommitter;
import io.github.s3mergetree.sink.mergetree.faults.FailureInjector;
import io.github.s3mergetree.sink.mergetree.input.BlockInput;
import io.github.s3mergetree.sink.mergetree.input.SinkInput;
import io.github.s3mergetree.sink.mergetree.merge.MergeCoordinator;
import io.github.s3mergetree.sink.mergetree.metrics.TableMetricGroup;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.sink.mergetree.table.SinkTable;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeSinkWriter;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterState;
import io.github.s3mergetree.sink.mergetree.writer.MergeTreeWriterStateSerializer;
import java.io.IOException;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.CommitterInitContext;
import org.apache.flink.api.connector.sink2.SupportsCommitter;
import org.apache.flink.api.connector.sink2.SupportsWriterState;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.SupportsPostCommitTopology;
import org.apache.flink.streaming.api.connector.sink2.SupportsPreCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;

/**
 * An exactly-once Flink sink that writes real ClickHouse MergeTree parts into a table directory,
 * without a ClickHouse server, and keeps the table healthy with ClickHouse's merges.
 *
 * <p>Topology: writers (the job's parallelism) turn records into insert blocks and blocks into
 * temporary parts; at each checkpoint (or at the end of a bounded input) their parts go to the
 * committers, which publish them atomically with block numbers and a dedup token, so a replayed
 * commit is a no-op; after the committers, one merge coordinator of parallelism 1 runs the table's
 * merges. See {@link MergeTreeSinkOptions} for the settings and {@link MergeTreeSinkBuilder} for
 * the builder:
 *
 * <pre>{@code
 * MergeTreeSink<RowData> sink =
 *     MergeTreeSink.forRowData().setRowType(rowType)
 *         .setTablePath("/data/clickhouse/posts")
 *         .setDdl("CREATE TABLE posts (id UInt64, ...) ENGINE = MergeTree ORDER BY id")
 *         .setSetting("min_insert_block_size_rows", "1048449")
 *         .build();
 * stream.sinkTo(sink);
 * }</pre>
 *
 * @param <IN> the input type: {@link RowData} or the engine's {@link Block}
 */
@PublicEvolving
public final class MergeTreeSink<IN>
        implements SupportsWriterState<IN, MergeTreeWriterState>,
                SupportsCommitter<MergeTreeCommittable>,
                SupportsPreCommitTopology<MergeTreeCommittable, MergeTreeCommittable>,
                SupportsPostCommitTopology<MergeTreeCommittable>,
                CompatSink<IN> {
    private static final long serialVersionUID = 1L;

    private final TableStorage storage;
    private final SinkTable table;
    private final SinkInput<IN> input;
    private final Configuration options;
    private final String sinkId;
    private final FailureInjector failures;

    /** A sink of {@code table}, which holds the same {@code options}. */
    MergeTreeSink(
            SinkTable table, SinkInput<IN> input, Configuration options, FailureInjector failures) {
        this.storage = table.storage();
        this.table = table;
        this.input = input;
        this.options = options;
        this.sinkId = options.get(MergeTreeSinkOptions.SINK_ID);
        this.failures = failures;
    }

    /** A builder for any input; set it with {@link MergeTreeSinkBuilder#setInput}. */
    public static <IN> MergeTreeSinkBuilder<IN> builder() {
        return new MergeTreeSinkBuilder<>();
    }

    /**
     * A builder for Flink SQL rows, mapped to the table's columns by name: give their type with
     * {@link MergeTreeSinkBuilder#setRowType}. (The row type is not an argument here, so that this
     * class never names a Table API type: a DataStream job on blocks runs without {@code
     * flink-table-common}, which Java serialization of the sink would otherwise need.)
     */
    public static MergeTreeSinkBuilder<RowData> forRowData() {
        return new MergeTreeSinkBuilder<RowData>().expectRowType();
    }

    /** A builder for {@code input} ({@link BlockInput}, {@code RowDataInput.of(rowType)}, ...). */
    public static <IN> MergeTreeSinkBuilder<IN> forInput(SinkInput<IN> input) {
        return new MergeTreeSinkBuilder<IN>().setInput(input);
    }

    /** A builder for the engine's column blocks (the columnar fast path). */
    public static MergeTreeSinkBuilder<Block> forBlocks() {
        return new MergeTreeSinkBuilder<Block>().setInput(BlockInput.byName());
    }

    /** Where the table lives. */
    public TableStorage storage() {
        return storage;
    }

    /** The sink's options. */
    public Configuration options() {
        return new Configuration(options);
    }

    @Override
    public MergeTreeSinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public MergeTreeSinkWriter<IN> restoreWriter(
            WriterInitContext context, Collection<MergeTreeWriterState> recoveredState)
            throws IOException {
        return new MergeTreeSinkWriter<>(
                context,
                sinkId,
                table.resolve(),
                storage,
                input,
                options,
                failures,
                recoveredState);
    }

    @Override
    public SimpleVersionedSerializer<MergeTreeWriterState> getWriterStateSerializer() {
        return new MergeTreeWriterStateSerializer();
    }

    @Override
    public Committer<MergeTreeCommittable> createCommitter(CommitterInitContext context)
            throws IOException {
        MergeTreeTable table = storage.open(this.table.resolve().layout(), Clock.systemUTC());
        options.getOptional(MergeTreeSinkOptions.WRITER_LEASE_KEY)
                .ifPresent(
                        key ->
                                table.setCommitFence(
                                        new WriterLease.Fence(
                                                        key,
                                                        options.get(
                                                                MergeTreeSinkOptions
                                                                        .WRITER_LEASE_OWNER),
                                                        options.get(
                                                                MergeTreeSinkOptions
                                                                        .WRITER_LEASE_EPOCH))
                                                .on(table.store())));
        return new MergeTreeCommitter(
                table,
                sinkId,
                options.get(MergeTreeSinkOptions.OPTIMIZE_FINAL),
                storage.isLocal(),
                context.getJobInfo().getJobId().toHexString(),
                failures,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getAttemptNumber(),
                TableMetricGroup.of(context.metricGroup(), storage.describe()));
    }

    @Override
    public SimpleVersionedSerializer<MergeTreeCommittable> getCommittableSerializer() {
        return new MergeTreeCommittableSerializer();
    }

    /**
     * Sends the committables of every writer to one committer subtask (committer subtask 0; the
     * others stay idle), as Iceberg's sink aggregates its write results before its committer. So
     * the table's commits are made one after another by one task instead of racing for the commit
     * log, and every part becomes visible through one view of the table: where the TaskManagers do
     * not share a local table path, that committer does not see the other hosts' temporary parts
     * and fails the job before anything of the commit is visible ({@code
     * committer.SharedTableCheck}), in STREAMING and in BATCH execution alike, without waiting for
     * subtasks that are not scheduled. The writer's and the committer's uids and state are
     * unchanged by this exchange.
     */
    @Override
    public DataStream<CommittableMessage<MergeTreeCommittable>> addPreCommitTopology(
            DataStream<CommittableMessage<MergeTreeCommittable>> committables) {
        return committables.global();
    }

    @Override
    public SimpleVersionedSerializer<MergeTreeCommittable> getWriteResultSerializer() {
        return new MergeTreeCommittableSerializer();
    }

    /**
     * Adds the delivery coordinator (when a ClickHouse target is set) and the table's merge
     * coordinator (parallelism 1) after the committers; with {@code merges = false} and no
     * delivery, nothing: the committers' output then has no consumer. (A sink consuming it would be
     * chained to the committer and see its end of input before the final checkpoint's commit emits
     * the last committables: Flink fails such a job with "Received element after endOfInput".)
     *
     * <p>When the sink has a uid ({@code sinkTo(sink).uid("...")}), every operator added here gets
     * one too ({@link #DELIVERY_UID}, {@link #MERGES_UID}, {@link #COMMITS_UID}), which Flink
     * prefixes with the sink's (the committer's uid, derived from the sink's, is set when this
     * runs); without one Flink derives every operator's id from the topology, and it refuses a uid
     * on an operator of a sink that has none.
     */
    @Override
    public void addPostCommitTopology(
            DataStream<CommittableMessage<MergeTreeCommittable>> committables) {
        boolean sinkHasUid = hasUidUpstream(committables.getTransformation());
        DataStream<CommittableMessage<MergeTreeCommittable>> committed = committables;
        if (io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.enabled(options)) {
            // one chain: Flink expands a single sink in a post-commit topology
            SingleOutputStreamOperator<CommittableMessage<MergeTreeCommittable>> delivery =
                    committables
                            .global()
                            .map(
                                    new io.github.s3mergetree.sink.mergetree.delivery
                                            .DeliveryCoordinator(table, options))
                            .returns(committables.getType())
                            // no table in operator names: metric names stay the same for every
                            // table (the table is the metrics' <table> variable)
                            .name("MergeTree delivery")
                            .setParallelism(1)
                            .setMaxParallelism(1);
            if (sinkHasUid) {
                delivery.uid(DELIVERY_UID);
            }
            committed = delivery;
        }
        DataStreamSink<?> added;
        if (options.get(MergeTreeSinkOptions.MERGES_ENABLED)) {
            added =
                    committed
                            .global()
                            .sinkTo(new MergeCoordinator(table, options))
                            .name("MergeTree merges")
                            .setParallelism(1)
                            .setMaxParallelism(1);
            if (sinkHasUid) {
                added.uid(MERGES_UID);
            }
        } else if (committed != committables) {
            // behind the delivery's network edge, so it sees every element before its end of
            // input; never chained to the committer itself (see above)
            added = committed.sinkTo(new DiscardingSink<>()).name("MergeTree commits");
            if (sinkHasUid) {
                added.uid(COMMITS_UID);
            }
        }
    }

    /** Whether {@code t} or what feeds it (the committer, behind a partitioning) has a uid. */
    private static boolean hasUidUpstream(org.apache.flink.api.dag.Transformation<?> t) {
        for (int depth = 0; t != null && depth < 4; depth++) {
            if (t.getUid() != null) {
                return true;
            }
            List<org.apache.flink.api.dag.Transformation<?>> inputs = t.getInputs();
            t = inputs.size() == 1 ? inputs.get(0) : null;
        }
        return false;
    }

    /** The uid of the delivery coordinator (after the sink's uid). */
    public static final String DELIVERY_UID = "mergetree-delivery";

    /** The uid of the merge coordinator (after the sink's uid). */
    public static final String MERGES_UID = "mergetree-merges";

    /** The uid of the end of the commits when merges are off (after the sink's uid). */
    public static final String COMMITS_UID = "mergetree-commits";
}
