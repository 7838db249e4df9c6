package io.github.s3mergetree.sink.mergetree.delivery;

import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.attach.AttachDelivery;
import io.github.s3mergetree.delivery.http.ClickHouseEndpoint;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.store.LocalTableFiles;
import io.github.s3mergetree.delivery.target.DeliveryTarget;
import io.github.s3mergetree.delivery.target.TableName;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.sink.mergetree.MergeTreeSinkOptions;
import io.github.s3mergetree.sink.mergetree.committer.MergeTreeCommittable;
import io.github.s3mergetree.sink.mergetree.storage.TableStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
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
 * gauge {@code lastDeliveryLatencyMs} (from the round's start until the server reported the parts
 * applied).
 */
@Internal
public final class DeliveryCoordinator
        extends RichMapFunction<
                CommittableMessage<MergeTreeCommittable>,
                CommittableMessage<MergeTreeCommittable>> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(DeliveryCoordinator.class);

    private final String ddl;
    private final TableStorage storage;
    private final Configuration options;
    private transient PartDelivery delivery;
    private transient Counter parts;
    private transient Counter rows;
    private transient Counter bytes;
    private transient Counter failures;
    private transient volatile long lastLatency;

    public DeliveryCoordinator(String ddl, TableStorage storage, Configuration options) {
        this.ddl = ddl;
        this.storage = storage;
        this.options = options;
    }

    /** Whether {@code options} ask for delivery. */
    public static boolean enabled(Configuration options) {
        return options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_URL).isPresent();
    }

    /**
     * The delivery of the table in {@code storage} (DDL {@code ddl}) that {@code options} name.
     *
     * @throws IllegalArgumentException if the options are incomplete or name another method
     */
    public static PartDelivery open(String ddl, TableStorage storage, Configuration options)
            throws IOException {
        String table =
                options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_TABLE)
                        .orElseThrow(
                                () ->
                                        new IllegalArgumentException(
                                                "clickhouse.url is set but clickhouse.table is not"));
        if (!storage.isLocal()) {
            throw new IllegalArgumentException(
                    "delivery from the sink needs a table on a local or shared filesystem for now;"
                            + " deliver an s3:// table with `s3-mergetree deliver` (RESTORE), not "
                            + storage.describe());
        }
        String method = options.get(MergeTreeSinkOptions.DELIVER).toLowerCase(Locale.ROOT);
        if (!method.equals("attach")) {
            throw new IllegalArgumentException(
                    "deliver = "
                            + method
                            + ": only attach is available for a table on a local or shared filesystem (restore needs a table on S3)");
        }
        ClickHouseHttpClient client =
                ClickHouseHttpClient.create(
                        ClickHouseEndpoint.of(options.get(MergeTreeSinkOptions.CLICKHOUSE_URL))
                                .withCredentials(
                                        options.get(MergeTreeSinkOptions.CLICKHOUSE_USER),
                                        options.get(MergeTreeSinkOptions.CLICKHOUSE_PASSWORD)));
        DeliveryTarget target = DeliveryTarget.resolve(client, TableName.parse(table));
        return new AttachDelivery(
                new LocalTableFiles(Path.of(storage.describe())),
                TableSchema.parse(ddl),
                target,
                client,
                options.getOptional(MergeTreeSinkOptions.CLICKHOUSE_TABLE_DIR)
                        .map(Path::of)
                        .orElse(null),
                Clock.systemUTC(),
                DeliveryOptions.defaults());
    }

    @Override
    public void open(OpenContext context) throws Exception {
        String text =
                ddl != null
                        ? ddl
                        : storage.storedDdl()
                                .orElseThrow(
                                        () ->
                                                new IOException(
                                                        "no DDL stored with "
                                                                + storage.describe()));
        delivery = open(text, storage, options);
        MetricGroup metrics = getRuntimeContext().getMetricGroup();
        parts = metrics.counter("deliveredParts");
        rows = metrics.counter("deliveredRows");
        bytes = metrics.counter("deliveredBytes");
        failures = metrics.counter("deliveryFailures");
        metrics.gauge("lastDeliveryLatencyMs", () -> lastLatency);
    }

    @Override
    public CommittableMessage<MergeTreeCommittable> map(
            CommittableMessage<MergeTreeCommittable> message) throws IOException {
        if (message instanceof CommittableWithLineage<MergeTreeCommittable>) {
            round();
        }
        return message;
    }

    private void round() throws IOException {
        try {
            DeliveryResult r = delivery.deliverPending();
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
        if (delivery != null) {
            round();
        }
    }
}
