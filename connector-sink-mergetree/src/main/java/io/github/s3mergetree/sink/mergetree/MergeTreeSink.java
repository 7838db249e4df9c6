package io.github.s3mergetree.sink.mergetree;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittableSerializer;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommitter;
import io.github.s3mergetree.sink.mergetree.input.BlockInput;
import io.github.s3mergetree.sink.mergetree.input.RowDataInput;
import io.github.s3mergetree.sink.mergetree.input.SinkInput;
import io.github.s3mergetree.sink.mergetree.merge.MergeCoordinator;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
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
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

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
 *     MergeTreeSink.forRowData(rowType)
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
                SupportsPostCommitTopology<MergeTreeCommittable>,
                org.apache.flink.api.connector.sink2.Sink<IN> {
    private static final long serialVersionUID = 1L;

    private final TableStorage storage;
    private final String ddl;
    private final SinkInput<IN> input;
    private final Configuration options;
    private final String sinkId;
    private final FailureInjector failures;

    MergeTreeSink(
            TableStorage storage,
            String ddl,
            SinkInput<IN> input,
            Configuration options,
            FailureInjector failures) {
        this.storage = storage;
        this.ddl = ddl;
        this.input = input;
        this.options = options;
        this.sinkId = options.get(MergeTreeSinkOptions.SINK_ID);
        this.failures = failures;
    }

    /** A builder for any input; set it with {@link MergeTreeSinkBuilder#setInput}. */
    public static <IN> MergeTreeSinkBuilder<IN> builder() {
        return new MergeTreeSinkBuilder<>();
    }

    /** A builder for Flink SQL rows of {@code rowType}, mapped to the table's columns by name. */
    public static MergeTreeSinkBuilder<RowData> forRowData(RowType rowType) {
        return new MergeTreeSinkBuilder<RowData>().setInput(RowDataInput.of(rowType));
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
                ResolvedTable.resolve(ddl, storage, options),
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
        ResolvedTable resolved = ResolvedTable.resolve(ddl, storage, options);
        return new MergeTreeCommitter(
                storage.open(resolved.layout(), Clock.systemUTC()),
                sinkId,
                options.get(MergeTreeSinkOptions.OPTIMIZE_FINAL),
                failures,
                context.getTaskInfo().getIndexOfThisSubtask(),
                context.getTaskInfo().getAttemptNumber(),
                context.metricGroup());
    }

    @Override
    public SimpleVersionedSerializer<MergeTreeCommittable> getCommittableSerializer() {
        return new MergeTreeCommittableSerializer();
    }

    /**
     * Adds the delivery coordinator (when a ClickHouse target is set) and the table's merge
     * coordinator (parallelism 1) after the committers; with {@code merges = false} and no
     * delivery, nothing: the committers' output then has no consumer. (A sink consuming it would be
     * chained to the committer and see its end of input before the final checkpoint's commit emits
     * the last committables: Flink fails such a job with "Received element after endOfInput".)
     */
    @Override
    public void addPostCommitTopology(
            DataStream<CommittableMessage<MergeTreeCommittable>> committables) {
        DataStream<CommittableMessage<MergeTreeCommittable>> committed = committables;
        if (io.github.s3mergetree.sink.mergetree.delivery.DeliveryCoordinator.enabled(options)) {
            // one chain: Flink expands a single sink in a post-commit topology
            committed =
                    committables
                            .global()
                            .map(
                                    new io.github.s3mergetree.sink.mergetree.delivery
                                            .DeliveryCoordinator(ddl, storage, options))
                            .returns(committables.getType())
                            .name(
                                    "MergeTree delivery into "
                                            + options.get(MergeTreeSinkOptions.CLICKHOUSE_TABLE))
                            .setParallelism(1)
                            .setMaxParallelism(1);
        }
        if (options.get(MergeTreeSinkOptions.MERGES_ENABLED)) {
            committed
                    .global()
                    .sinkTo(new MergeCoordinator(ddl, storage, options))
                    .name("MergeTree merges: " + storage.describe())
                    .setParallelism(1)
                    .setMaxParallelism(1);
        } else if (committed != committables) {
            // behind the delivery's network edge, so it sees every element before its end of
            // input; never chained to the committer itself (see above)
            committed.sinkTo(new DiscardingSink<>()).name("MergeTree commits");
        }
    }
}
