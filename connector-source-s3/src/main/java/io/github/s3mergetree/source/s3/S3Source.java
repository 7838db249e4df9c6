package io.github.s3mergetree.source.s3;

import io.github.s3mergetree.engine.column.Block;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.source.s3.enumerator.S3EnumeratorState;
import io.github.s3mergetree.source.s3.enumerator.S3EnumeratorStateSerializer;
import io.github.s3mergetree.source.s3.enumerator.S3SourceEnumerator;
import io.github.s3mergetree.source.s3.enumerator.SplitPlanner;
import io.github.s3mergetree.source.s3.format.S3ObjectFormat;
import io.github.s3mergetree.source.s3.format.typeinfo.BlockTypeInfo;
import io.github.s3mergetree.source.s3.metrics.S3SourceMetrics;
import io.github.s3mergetree.source.s3.objects.GlobPattern;
import io.github.s3mergetree.source.s3.options.S3SourceOptions;
import io.github.s3mergetree.source.s3.options.S3SourceOptions.FailedObjects;
import io.github.s3mergetree.source.s3.reader.RecordExpander;
import io.github.s3mergetree.source.s3.reader.S3SourceReader;
import io.github.s3mergetree.source.s3.reader.S3SplitReader;
import io.github.s3mergetree.source.s3.rowdata.BlockRows;
import io.github.s3mergetree.source.s3.split.S3ObjectSplit;
import io.github.s3mergetree.source.s3.split.S3ObjectSplitSerializer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import javax.annotation.Nullable;
import org.apache.flink.annotation.PublicEvolving;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.table.data.RowData;

/**
 * A FLIP-27 source that reads the objects of an S3 bucket (or a local directory) matching a
 * ClickHouse glob and decodes them with an {@link S3ObjectFormat}, e.g. into columnar {@link
 * io.github.s3mergetree.engine.column.Block}s for the MergeTree sink.
 *
 * <p>Why: it does what makes ClickHouse's {@code s3()} fast inside Flink: parallel listing of
 * independent prefixes, one split per small object and several per large object, pull-based split
 * assignment, parallel ranged GETs with read-ahead, retries that resume from the last byte. In
 * continuous mode it discovers new objects with bounded state like ClickHouse's S3Queue. Splits
 * checkpoint their exact position, so a restore neither duplicates nor loses records.
 *
 * <pre>{@code
 * S3Source<Block> source = S3Source.builder(new ParquetBlockFormat(TargetSchema.parse("id UInt64, name String")))
 *     .setLocation("s3://bucket/events/{2025,2026}/**.parquet")
 *     .setEndpoint(URI.create("http://127.0.0.1:9000"))
 *     .setPathStyleAccess(true)
 *     .setCredentials("access", "secret")
 *     .build();
 * }</pre>
 */
@PublicEvolving
public final class S3Source<T>
        implements Source<T, S3ObjectSplit, S3EnumeratorState>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    static {
        // lambdas on Block (map, filter, flatMap) get BlockTypeInfo instead of Kryo
        BlockTypeInfo.registerForLambdas();
    }

    private final ObjectStoreConfig storeConfig;
    private final GlobPattern pattern;
    private final S3ObjectFormat<?> format;
    @Nullable private final RecordExpander<?, T> expander;
    private final Configuration options;
    @Nullable private final List<S3ObjectSplit> splits;

    /**
     * @param expander how a decoded record becomes output records; null: the format's records are
     *     the output (the format produces {@code T})
     * @param splits the splits to read instead of listing {@code pattern}; null: list it
     */
    S3Source(
            ObjectStoreConfig storeConfig,
            GlobPattern pattern,
            S3ObjectFormat<?> format,
            @Nullable RecordExpander<?, T> expander,
            Configuration options,
            @Nullable List<S3ObjectSplit> splits) {
        this.storeConfig = storeConfig;
        this.pattern = pattern;
        this.format = format;
        this.expander = expander;
        this.options = options;
        this.splits = splits == null ? null : List.copyOf(splits);
    }

    /** A builder of a source decoding objects with {@code format}. */
    public static <T> S3SourceBuilder<T> builder(S3ObjectFormat<T> format) {
        return new S3SourceBuilder<T>().setFormat(format);
    }

    /**
     * A builder of a source of the engine's column {@link Block}s, the fast path into the MergeTree
     * sink: name the columns ({@link S3SourceBuilder#forTable} or {@link
     * S3SourceBuilder#setSchema}) and the format ({@link S3SourceBuilder#setFormat(String)}).
     */
    public static S3SourceBuilder<Block> builder() {
        return new S3SourceBuilder<>();
    }

    /**
     * A builder whose blocks reach the output through the expander {@code factory} makes from the
     * decoded columns and the session time zone (the SQL source's typed rows).
     */
    @org.apache.flink.annotation.Internal
    public static <T> S3SourceBuilder<T> expandingBlocks(
            java.util.function.BiFunction<
                            io.github.s3mergetree.source.s3.format.TargetSchema,
                            java.time.ZoneId,
                            RecordExpander<Block, T>>
                    factory) {
        return new S3SourceBuilder<T>().expandBlocks(factory);
    }

    /** The same as {@link #builder()}. */
    public static S3SourceBuilder<Block> forBlocks() {
        return builder();
    }

    /**
     * A builder of a source of Flink SQL rows ({@code RowData}, for ordinary Flink operators),
     * typed from the ClickHouse columns ({@link S3SourceBuilder#forTable} or {@link
     * S3SourceBuilder#setSchema}) by the mapping of the README's table: UInt64 → DECIMAL(20, 0),
     * Enum → STRING, DateTime64(3) → TIMESTAMP(3), Array → ARRAY, ... Needs {@code
     * flink-table-runtime} on the classpath (it is in every Flink distribution's {@code lib/}).
     */
    public static S3SourceBuilder<RowData> forRowData() {
        return new S3SourceBuilder<RowData>().expandBlocks(BlockRows::forSchema);
    }

    @Override
    public Boundedness getBoundedness() {
        return discoveryInterval() == null ? Boundedness.BOUNDED : Boundedness.CONTINUOUS_UNBOUNDED;
    }

    private Duration discoveryInterval() {
        return options.getOptional(S3SourceOptions.DISCOVERY_INTERVAL).orElse(null);
    }

    @Override
    public SourceReader<T, S3ObjectSplit> createReader(SourceReaderContext readerContext) {
        return typedReader(readerContext, format);
    }

    @SuppressWarnings("unchecked")
    private <B> SourceReader<T, S3ObjectSplit> typedReader(
            SourceReaderContext readerContext, S3ObjectFormat<B> format) {
        return createReader(readerContext, format, (RecordExpander<B, T>) expander);
    }

    private <B> SourceReader<T, S3ObjectSplit> createReader(
            SourceReaderContext readerContext,
            S3ObjectFormat<B> format,
            @Nullable RecordExpander<B, T> expander) {
        Configuration config = new Configuration(options);
        S3SourceMetrics metrics = new S3SourceMetrics(readerContext.metricGroup());
        Map<String, String> failures =
                failedObjects() == FailedObjects.PARK ? new ConcurrentHashMap<>() : null;
        int threads = options.get(S3SourceOptions.MAX_DOWNLOAD_THREADS);
        int subtask = readerContext.getIndexOfSubtask();
        return new S3SourceReader<>(
                () -> {
                    AtomicInteger n = new AtomicInteger();
                    ExecutorService downloads =
                            Executors.newFixedThreadPool(
                                    Math.max(1, threads),
                                    r -> {
                                        Thread t =
                                                new Thread(
                                                        r,
                                                        "s3-source-download-"
                                                                + subtask
                                                                + "-"
                                                                + n.incrementAndGet());
                                        t.setDaemon(true);
                                        return t;
                                    });
                    return new S3SplitReader<>(
                            format,
                            storeConfig.createClient(),
                            config,
                            metrics,
                            downloads,
                            failures);
                },
                expander,
                config,
                readerContext,
                failures);
    }

    /** What a failed object does: {@code s3.failed-objects}, by default FAIL when bounded. */
    public FailedObjects failedObjects() {
        return options.getOptional(S3SourceOptions.FAILED_OBJECTS)
                .orElse(
                        getBoundedness() == Boundedness.BOUNDED
                                ? FailedObjects.FAIL
                                : FailedObjects.PARK);
    }

    /** The splits this source reads instead of listing its pattern, if it was given some. */
    public Optional<List<S3ObjectSplit>> splits() {
        return Optional.ofNullable(splits);
    }

    @Override
    public SplitEnumerator<S3ObjectSplit, S3EnumeratorState> createEnumerator(
            SplitEnumeratorContext<S3ObjectSplit> enumContext) {
        return restoreEnumerator(
                enumContext,
                splits == null
                        ? S3EnumeratorState.initial()
                        : new S3EnumeratorState(splits, true, null, Map.of(), Map.of()));
    }

    @Override
    public SplitEnumerator<S3ObjectSplit, S3EnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<S3ObjectSplit> enumContext, S3EnumeratorState checkpoint) {
        return new S3SourceEnumerator(
                enumContext,
                storeConfig,
                pattern,
                options,
                splitPlanner(),
                discoveryInterval(),
                checkpoint,
                System::currentTimeMillis);
    }

    /** How this source cuts an object into splits ({@code s3.split.size}, the format). */
    public SplitPlanner splitPlanner() {
        return new SplitPlanner(
                format,
                options.get(S3SourceOptions.SPLIT_SIZE),
                options.get(S3SourceOptions.COMPRESSION));
    }

    @Override
    public SimpleVersionedSerializer<S3ObjectSplit> getSplitSerializer() {
        return S3ObjectSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<S3EnumeratorState> getEnumeratorCheckpointSerializer() {
        return new S3EnumeratorStateSerializer();
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<T> getProducedType() {
        return expander != null
                ? expander.producedType()
                : (TypeInformation<T>) format.getProducedType();
    }

    /** Where the source reads from (never includes secrets). */
    public ObjectStoreConfig storeConfig() {
        return storeConfig;
    }

    public GlobPattern pattern() {
        return pattern;
    }

    /** The format that decodes the objects. */
    public S3ObjectFormat<?> format() {
        return format;
    }

    /** A copy of the effective options. */
    public Configuration options() {
        return new Configuration(options);
    }
}
