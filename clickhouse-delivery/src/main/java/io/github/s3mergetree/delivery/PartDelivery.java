package io.github.s3mergetree.delivery;

import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.errors.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.ClickHouseServerException;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.ConcurrentDeliveryException;
import io.github.s3mergetree.delivery.ledger.DeliveredPart;
import io.github.s3mergetree.delivery.ledger.DeliveryIntent;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.part.DeliverablePart;
import io.github.s3mergetree.delivery.part.PartInventory;
import io.github.s3mergetree.delivery.plan.DeliveryPlanner;
import io.github.s3mergetree.delivery.server.AggregateStateVersions;
import io.github.s3mergetree.delivery.server.DataTypeFamilies;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.TargetDefinition;
import io.github.s3mergetree.engine.ddl.EngineDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the committed parts of a written table that one target has not received yet, exactly
 * once, whatever crashed before: the common protocol of {@link
 * io.github.s3mergetree.delivery.restore.RestoreDelivery} and {@link
 * io.github.s3mergetree.delivery.attach.AttachDelivery}.
 *
 * <p>A round ({@link #deliverPending()}) first resolves the target's unresolved delivery, if the
 * ledger has one (the method's {@link #recover} asks the server what became of it), then plans what
 * the target lacks ({@link DeliveryPlanner}) and delivers it: record the intent in the ledger (a
 * conditional create: two deliverers cannot both take the step), send, wait until the server
 * reports it applied, record the outcome. A delivery another live deliverer recorded is left to it
 * for {@link DeliveryOptions#lease()}. Not thread-safe: one round at a time per instance.
 */
public abstract class PartDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(PartDelivery.class);

    /** The written table's objects (its parts, and the ledger and manifests delivery keeps). */
    protected final TableStore files;

    protected final TableSchema written;
    protected final DeliveryTarget target;
    protected final ClickHouseHttpClient client;
    protected final Clock clock;
    protected final DeliveryOptions options;
    private final Set<String> mine = new HashSet<>();

    /**
     * @param files the written table's store, which the caller owns and closes
     * @throws IllegalArgumentException if the store does not enforce conditional writes: two
     *     deliverers could then both record the same delivery
     */
    protected PartDelivery(
            TableStore files,
            TableSchema written,
            DeliveryTarget target,
            ClickHouseHttpClient client,
            Clock clock,
            DeliveryOptions options) {
        this.files = Objects.requireNonNull(files, "files");
        if (!files.supportsConditionalWrites()) {
            throw new IllegalArgumentException(
                    "delivery needs a store that enforces conditional writes (If-None-Match), "
                            + files.location()
                            + " does not");
        }
        this.written = Objects.requireNonNull(written, "written");
        this.target = Objects.requireNonNull(target, "target");
        this.client = Objects.requireNonNull(client, "client");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.options = Objects.requireNonNull(options, "options");
    }

    /** {@code "restore"} or {@code "attach"}, as recorded in the ledger. */
    protected abstract String method();

    /**
     * Checks before anything is delivered that the target fits: the server answers with these
     * credentials, the table exists, its definition matches the written table's, and whatever the
     * method needs (S3 access from the server, a writable {@code detached/}).
     *
     * @return the server's definition of the target
     * @throws DeliveryException with one line naming the problem
     */
    public abstract TargetDefinition check() throws IOException;

    /** Sends a recorded delivery, waits until applied, records the outcome. */
    protected abstract DeliveryResult send(
            DeliveryIntent intent, List<DeliverablePart> parts, DeliveryLedger ledger)
            throws IOException;

    /**
     * Finds out what became of an unresolved delivery and records its outcome.
     *
     * @return whether its parts are in the target
     * @throws DeliveryStateUnknownException if the server cannot tell
     */
    protected abstract boolean recover(DeliveryIntent intent, DeliveryLedger ledger)
            throws IOException;

    public DeliveryTarget target() {
        return target;
    }

    /** The target's ledger as it is now. */
    public DeliveryLedger ledger() throws IOException {
        return DeliveryLedger.load(files, target.key());
    }

    /**
     * Delivers every committed part the target lacks (in deliveries of at most {@link
     * DeliveryOptions#maxPartsPerDelivery()} parts).
     *
     * @throws DeliveryStateUnknownException if an earlier delivery's outcome cannot be known
     * @throws DeliveryException if a delivery failed (recorded as not delivered; retry later)
     */
    public DeliveryResult deliverPending() throws IOException {
        long start = clock.millis();
        DeliveryResult total = DeliveryResult.NOTHING;
        while (true) {
            DeliveryLedger ledger = ledger();
            Optional<DeliveryIntent> pending = ledger.pending();
            if (pending.isPresent()) {
                DeliveryIntent p = pending.get();
                if (!mine.contains(p.id())
                        && !p.ownerIsGone()
                        && clock.millis() - p.createdMillis() < options.lease().toMillis()) {
                    LOG.info(
                            "Delivery {} to {} is being made by another deliverer; waiting",
                            p.id(),
                            target);
                    sleep(Math.max(options.pollInterval().toMillis(), 500));
                    continue;
                }
                LOG.info("Resolving the unfinished delivery {} to {}", p.id(), target);
                if (recover(p, ledger)) {
                    total = total.plus(result(p, start));
                }
                mine.remove(p.id());
                continue;
            }
            DeliveryPlanner.Plan plan = plan(ledger);
            if (!plan.problems().isEmpty()) {
                throw new DeliveryException(
                        "cannot deliver into "
                                + target
                                + ": "
                                + String.join("; ", plan.problems()));
            }
            if (plan.isEmpty()) {
                long through = ledger.compact(options.compactAfter());
                if (through > 0) {
                    LOG.info(
                            "Compacted the delivery ledger of {} through delivery {}",
                            target,
                            through);
                }
                return total;
            }
            List<PartName> batch =
                    plan.toDeliver()
                            .subList(
                                    0,
                                    Math.min(
                                            plan.toDeliver().size(),
                                            options.maxPartsPerDelivery()));
            PartInventory inventory = new PartInventory(files);
            List<DeliverablePart> parts = new ArrayList<>();
            List<DeliveredPart> recorded = new ArrayList<>();
            for (PartName name : batch) {
                DeliverablePart part = inventory.describe(name);
                parts.add(part);
                // the UUID is assigned by the ledger from the delivery's id
                recorded.add(new DeliveredPart(name, part.rows(), part.bytes(), null));
            }
            long serverNow = serverNowSeconds();
            DeliveryIntent intent;
            try {
                intent = ledger.begin(method(), recorded, serverNow, clock.millis());
            } catch (ConcurrentDeliveryException e) {
                LOG.info("{}; deciding again", e.getMessage());
                continue;
            }
            mine.add(intent.id());
            DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_INTENT);
            LOG.info(
                    "Delivering {} parts ({} rows) into {} as {}",
                    parts.size(),
                    intent.rows(),
                    target,
                    intent.id());
            DeliveryResult r = send(intent, parts, ledger);
            mine.remove(intent.id());
            total =
                    total.plus(
                            new DeliveryResult(
                                    r.deliveryIds(),
                                    r.parts(),
                                    r.rows(),
                                    r.bytes(),
                                    clock.millis() - start));
        }
    }

    /**
     * Records the outcome of delivery {@code id} as the operator found it, after a {@link
     * DeliveryStateUnknownException}.
     */
    public void resolve(String id, boolean delivered) throws IOException {
        DeliveryLedger ledger = ledger();
        DeliveryIntent p =
                ledger.pending()
                        .filter(i -> i.id().equals(id))
                        .orElseThrow(
                                () ->
                                        new DeliveryException(
                                                "delivery "
                                                        + id
                                                        + " to "
                                                        + target
                                                        + " is not unresolved (the ledger's unresolved delivery: "
                                                        + ledger.pending()
                                                                .map(DeliveryIntent::id)
                                                                .orElse("none")
                                                        + ")"));
        ledger.complete(p, delivered, "resolved by the operator");
        afterOutcome(p);
    }

    /** Called after the outcome of {@code intent} is recorded (e.g. to release the manifest). */
    protected void afterOutcome(DeliveryIntent intent) throws IOException {}

    /** The plan for the target given its ledger. */
    public DeliveryPlanner.Plan plan(DeliveryLedger ledger) throws IOException {
        PartInventory inventory = new PartInventory(files);
        Map<PartName, Long> committed = new LinkedHashMap<>();
        for (PartName p : inventory.committedParts()) {
            committed.put(p, inventory.rows(p));
        }
        Map<PartName, Long> received = new LinkedHashMap<>();
        for (DeliveredPart p : ledger.deliveredParts().values()) {
            received.put(p.name(), p.rows());
        }
        return DeliveryPlanner.plan(
                committed, received, written.engine().kind() == EngineDefinition.Kind.MERGE_TREE);
    }

    protected DeliveryResult result(DeliveryIntent intent, long start) {
        return new DeliveryResult(
                List.of(intent.id()),
                intent.parts().size(),
                intent.rows(),
                intent.bytes(),
                clock.millis() - start);
    }

    protected long serverNowSeconds() throws IOException {
        return Long.parseLong(client.value(Sql.of("SELECT toUInt64(toUnixTimestamp(now()))")));
    }

    /** Reads the server's definition of the target and compares it with the written table. */
    protected TargetDefinition checkDefinition() throws IOException {
        DataTypeFamilies.requireKnown(client, written);
        AggregateStateVersions.requireReadable(client, written);
        String ddl;
        try {
            ddl = client.value(Sql.of("SHOW CREATE TABLE " + target.table().sql()));
        } catch (ClickHouseServerException e) {
            if (e.code() == ClickHouseServerException.UNKNOWN_TABLE
                    || e.code() == ClickHouseServerException.UNKNOWN_DATABASE
                    || e.code() == 390 /* CANNOT_GET_CREATE_TABLE_QUERY: no such table */) {
                throw new DeliveryException(
                        "the target table "
                                + target.table()
                                + " does not exist on "
                                + client.endpoint().url()
                                + ": create it first, e.g. "
                                + written.toCreateTableSql().replaceAll("\\s+", " "),
                        e);
            }
            throw new DeliveryException(
                    "cannot read the definition of " + target + ": " + e.getMessage(), e);
        }
        TargetDefinition def;
        try {
            def = TargetDefinition.parse(target.table(), ddl);
        } catch (IllegalArgumentException e) {
            throw new DeliveryException(e.getMessage(), e);
        }
        List<String> diff = def.differencesFrom(written);
        if (!diff.isEmpty()) {
            throw new DeliveryException(
                    "the target table "
                            + target
                            + " does not fit the written table: "
                            + String.join("; ", diff));
        }
        return def;
    }

    protected void sleep(long millis) throws IOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while delivering into " + target);
        }
    }
}
