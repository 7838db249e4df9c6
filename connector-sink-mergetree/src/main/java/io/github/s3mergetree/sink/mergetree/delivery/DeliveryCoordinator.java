package io.github.s3mergetree.sink.mergetree.delivery;

import io.github.s3mergetree.delivery.DeliveryMethod;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.attach.AttachDelivery;
import io.github.s3mergetree.delivery.errors.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.restore.RestoreDelivery;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.TableStore;
import io.github.s3mergetree.objectstore.ObjectStoreConfig;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.metrics.TableMetricGroup;
import io.github.s3mergetree.sink.mergetree.options.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.storage.S3TableStorage;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import io.github.s3mergetree.sink.mergetree.table.SinkTable;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import org.apache.flink.annotation.Internal;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the table's commits into a running ClickHouse server's table: a parallelism-1 sink after
 * the committers (the post-commit topology, beside the merge coordinator), which runs a delivery
 * round ({@link PartDelivery#deliverPending()}) whenever commits arrive and once more when it
 * closes. Exactly once does not depend on Flink state: the delivery ledger in the table's metadata
 * and the server's own records decide, so a restarted job (or a {@code s3-mergetree deliver} run)
 * sends only what the server lacks.
 *
 * <p>A round that fails is retried at the next commit; a delivery whose outcome the server cannot
 * tell fails the job ({@link DeliveryStateUnknownException}: an operator decides). Metrics: {@code
 * deliveredParts}, {@code deliveredRows}, {@code deliveredBytes}, {@code deliveryFailures} and the
 * gauges {@code lastDeliveryLatencyMs} (from the round's start until the server reported the parts
 * applied) and {@code commitToVisibleMs} (from the commit's arrival here until its parts were
 * applied on the server: {@link CommitToVisibleLatency}).
 */
@Internal
public final class DeliveryCoordinator
        extends RichMapFunction<
                CommittableMessage<MergeTreeCommittable>,
                CommittableMessage<MergeTreeCommittable>> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryCoordinator.class);

    private final SinkTable table;
    private final Configuration options;
    private transient Opened opened;
    private transient PartDelivery delivery;
    private transient Counter parts;
    private transient Counter rows;
    private transient Counter bytes;
    private transient Counter failures;
    private transient volatile long lastLatency;
    private transient CommitToVisibleLatency commitToVisible;

    /** A coordinator delivering the commits of the sink's {@code table} as {@code options} say. */
    public DeliveryCoordinator(SinkTable table, Configuration options) {
        this.table = table;
        this.options = options;
    }

    /** Whether {@code options} ask for delivery. */
    public static boolean enabled(Configuration options) {
        return options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_URL).isPresent();
    }

    /**
     * A delivery and what it holds open (the table's store): closing it releases them.
     *
     * @param delivery the delivery
     * @param store the store the table is read from (and delivery's records written to), closed
     *     with it
     */
    public record Opened(PartDelivery delivery, TableStore store) implements AutoCloseable {
        @Override
        public void close() {
            store.close();
        }
    }

    /**
     * The delivery of the table in {@code storage} (parsed: {@code schema}) that {@code options}
     * name: {@code restore} (the default for an {@code s3://} table; the server restores the parts
     * from the bucket) or {@code attach} (the default for a directory). Either reads the table
     * through the {@link TableStore} {@code storage} opens, as the sink's writers and committers
     * do.
     *
     * @throws IllegalArgumentException if the options are incomplete or name a method the storage
     *     cannot serve
     */
    public static Opened open(TableSchema schema, TableStorage storage, Configuration options)
            throws IOException {
        String table =
                options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_TABLE)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "clickhouse.url is set but clickhouse.table is not"));
        DeliveryMethod method =
                DeliveryMethod.forTable(
                        MergeTreeSinkOptions.DELIVER.key(),
                        options.getOptional(MergeTreeSinkOptions.DELIVER).orElse(null),
                        !storage.isLocal(),
                        storage.describe());
        // this operator attaches a table on this host's file system only; an S3 table is restored
        if (method == DeliveryMethod.ATTACH && !storage.isLocal()) {
            throw new IllegalArgumentException(
                    "deliver = attach copies parts into the server's detached/ from a table on this"
                            + " host's file system, not "
                            + storage.describe()
                            + ": use deliver = restore");
        }
        RestoreDelivery.Source source =
                method == DeliveryMethod.RESTORE
                        ? restoreSource((S3TableStorage) storage, options)
                        : null;
        ClickHouseHttpClient client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(
                                        MergeTreeSinkOptions.CLICKHOUSE_URL.key(),
                                        options.get(MergeTreeSinkOptions.CLICKHOUSE_URL))
                                .withCredentials(
                                        options.get(MergeTreeSinkOptions.CLICKHOUSE_USER),
                                        options.get(MergeTreeSinkOptions.CLICKHOUSE_PASSWORD)));
        DeliveryTarget target =
                DeliveryTarget.resolve(
                        client,
                        TableName.parse(MergeTreeSinkOptions.CLICKHOUSE_TABLE.key(), table));
        TableStore store = storage.openStore();
        try {
            PartDelivery delivery =
                    source == null
                            ? new AttachDelivery(
                                    store,
                                    schema,
                                    target,
                                    client,
                                    options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_TABLE_DIR)
                                            .map(Path::of)
                                            .orElse(null),
                                    Clock.systemUTC(),
                                    DeliveryOptions.defaults())
                            : new RestoreDelivery(
                                    store,
                                    schema,
                                    source,
                                    target,
                                    client,
                                    Clock.systemUTC(),
                                    DeliveryOptions.defaults());
            return new Opened(delivery, store);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /**
     * Where the server reads an S3 table: {@code clickhouse.s3.url}, else the table's root from
     * {@code s3.endpoint} (path-style or virtual-hosted) or AWS's regional URL; keys {@code
     * clickhouse.s3.access-key}/{@code secret-key}, else the table's own.
     */
    static RestoreDelivery.Source restoreSource(S3TableStorage storage, Configuration options) {
        String ak =
                options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_S3_ACCESS_KEY)
                        .or(
                                () ->
                                        options.getOptional(
                                                io.github.s3mergetree.connector.options
                                                        .S3ConnectionOptions.ACCESS_KEY))
                        .orElse(null);
        String sk =
                options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_S3_SECRET_KEY)
                        .or(
                                () ->
                                        options.getOptional(
                                                io.github.s3mergetree.connector.options
                                                        .S3ConnectionOptions.SECRET_KEY))
                        .orElse(null);
        if ((ak == null) != (sk == null)) {
            throw new IllegalArgumentException(
                    "clickhouse.s3.access-key and clickhouse.s3.secret-key go together");
        }
        String url = options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_S3_URL).orElse(null);
        if (url == null) {
            ObjectStoreConfig c = storage.config();
            String prefix = storage.prefix();
            String tail = prefix.isEmpty() ? "" : "/" + prefix;
            if (c.endpoint() == null) {
                String region = c.region() == null ? "us-east-1" : c.region();
                url = "https://" + c.bucket() + ".s3." + region + ".amazonaws.com" + tail;
            } else {
                URI e = URI.create(c.endpoint());
                String base = e.getScheme() + "://";
                String host = e.getHost() + (e.getPort() < 0 ? "" : ":" + e.getPort());
                url =
                        c.pathStyle()
                                ? base + host + "/" + c.bucket() + tail
                                : base + c.bucket() + "." + host + tail;
            }
        }
        return new RestoreDelivery.Source(url, ak, sk);
    }

    @Override
    public void open(OpenContext context) throws Exception {
        TableStorage storage = table.storage();
        opened = open(table.resolve().schema(), storage, options);
        delivery = opened.delivery();
        MetricGroup metrics =
                TableMetricGroup.of(getRuntimeContext().getMetricGroup(), storage.describe());
        parts = metrics.counter("deliveredParts");
        rows = metrics.counter("deliveredRows");
        bytes = metrics.counter("deliveredBytes");
        failures = metrics.counter("deliveryFailures");
        metrics.gauge("lastDeliveryLatencyMs", () -> lastLatency);
        commitToVisible = new CommitToVisibleLatency(System::nanoTime);
        metrics.gauge("commitToVisibleMs", commitToVisible::lastMillis);
    }

    @Override
    public CommittableMessage<MergeTreeCommittable> map(
            CommittableMessage<MergeTreeCommittable> message) throws IOException {
        if (message instanceof CommittableWithLineage<MergeTreeCommittable>) {
            commitToVisible.committed();
            round();
        }
        return message;
    }

    private void round() throws IOException {
        try {
            DeliveryResult r = delivery.deliverPending();
            commitToVisible.roundSucceeded(!r.isEmpty());
            if (!r.isEmpty()) {
                parts.inc(r.parts());
                rows.inc(r.rows());
                bytes.inc(r.bytes());
                lastLatency = r.latencyMillis();
                LOG.info(
                        "Delivered {} parts ({} rows) into {} in {} ms",
                        r.parts(),
                        r.rows(),
                        delivery.target(),
                        r.latencyMillis());
            }
        } catch (DeliveryStateUnknownException e) {
            throw e;
        } catch (IOException e) {
            failures.inc();
            LOG.warn("Delivery into {} failed; retrying at the next commit", delivery.target(), e);
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (delivery != null) {
                round();
            }
        } finally {
            if (opened != null) {
                opened.close();
            }
        }
    }
}
