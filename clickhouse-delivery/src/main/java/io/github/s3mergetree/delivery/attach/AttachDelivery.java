package io.github.s3mergetree.delivery.attach;

import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.ClickHouseServerException;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.DeliveredPart;
import io.github.s3mergetree.delivery.ledger.DeliveryIds;
import io.github.s3mergetree.delivery.ledger.DeliveryIntent;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.part.DeliverablePart;
import io.github.s3mergetree.delivery.part.PartFile;
import io.github.s3mergetree.delivery.part.PartInventory;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.ServerInfo;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.server.TargetDefinition;
import io.github.s3mergetree.engine.compress.ColumnCodec;
import io.github.s3mergetree.engine.compress.CompressionCodecs;
import io.github.s3mergetree.engine.ddl.ColumnDefinition;
import io.github.s3mergetree.engine.ddl.ProjectionDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers parts into a server whose table directory this process can write (the same host, or a
 * volume both mount), by ClickHouse's oldest interface: each part is copied into the table's {@code
 * detached/} directory (into a temporary name, then renamed, so a half-copied part is never there
 * under its name) and attached with {@code ALTER TABLE ... ATTACH PART 'name'} over HTTP. Works
 * with every ClickHouse since 18.16; a server older than 19.6 reads only the portable part profile
 * ({@code index_granularity_bytes = 0}), which {@link #check} requires.
 *
 * <p>Exactly once: the ledger's intent names the parts; {@code <seq>.copied} records that all of
 * them are in {@code detached/}. There each part has a name of this delivery's own ({@link
 * DeliveryIds#detachedName}: its partition and level, block numbers derived from the delivery id),
 * since other written tables delivering into the same target have parts of the same names. ATTACH
 * PART moves a part out of {@code detached/} atomically (a rename inside the server's disk), so
 * after the copy is recorded, a part still in {@code detached/} is not attached yet and a part gone
 * from it is attached. Before the record, nothing was attached (attaching starts only after it), so
 * copying is simply completed. Recovery is thus always certain, with no server state needed.
 */
public final class AttachDelivery extends PartDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(AttachDelivery.class);

    private final Path tableDirectoryOverride;
    private Path detached;

    /**
     * @param tableDirectory the server's table data directory as this process sees it, or null to
     *     use the path the server reports ({@code system.tables}), which is right on the same host
     */
    public AttachDelivery(
            TableStore files,
            TableSchema written,
            DeliveryTarget target,
            ClickHouseHttpClient client,
            Path tableDirectory,
            Clock clock,
            DeliveryOptions options) {
        super(files, written, target, client, clock, options);
        this.tableDirectoryOverride = tableDirectory;
    }

    /**
     * Refuses a written table whose parts hold blocks an old server (before column codecs) cannot
     * decompress: a column with a codec chain or a specialised codec.
     */
    private void refuseColumnCodecs(ServerInfo info) throws DeliveryException {
        for (ColumnDefinition c : written.storedColumns()) {
            if (c.codec().isEmpty()) {
                continue;
            }
            ColumnCodec codec;
            try {
                codec = ColumnCodec.parse(c.codec().get(), CompressionCodecs.lz4());
            } catch (IllegalArgumentException e) {
                throw new DeliveryException(
                        "column " + c.name() + " of the written table: " + e.getMessage());
            }
            if (!codec.onlyGenericCodecs()) {
                throw new DeliveryException(
                        "ClickHouse "
                                + info.version()
                                + " at "
                                + client.endpoint().url()
                                + " reads only blocks compressed with NONE, LZ4, LZ4HC or ZSTD, but"
                                + " column "
                                + c.name()
                                + " of the written table has CODEC("
                                + c.codec().get()
                                + "): write the table with one of those codecs per column (no"
                                + " chains, no Delta, DoubleDelta, Gorilla, T64 or FPC) for a"
                                + " server before 19.1");
            }
        }
    }

    @Override
    protected String method() {
        return "attach";
    }

    @Override
    public TargetDefinition check() throws IOException {
        ServerInfo info = ServerInfo.read(client);
        if (!info.hasTtl() && written.hasAnyTtl()) {
            throw new DeliveryException(
                    "ClickHouse "
                            + info.version()
                            + " at "
                            + client.endpoint().url()
                            + " has no TTL (table and column TTL came in ClickHouse 19.6), but the"
                            + " written table has TTL: its parts carry ttl.txt and its merges remove"
                            + " expired rows, which this server's table cannot declare; deliver the"
                            + " table written without TTL");
        }
        if (!info.readsProjections() && !written.projections().isEmpty()) {
            List<String> names = new ArrayList<>();
            for (ProjectionDefinition p : written.projections()) {
                names.add(p.name());
            }
            throw new DeliveryException(
                    "ClickHouse "
                            + info.version()
                            + " at "
                            + client.endpoint().url()
                            + " has no projections (they came in ClickHouse 21.6), but the written"
                            + " table has PROJECTION "
                            + String.join(", ", names)
                            + ": its parts carry <name>.proj sub-parts, which this server cannot"
                            + " read; deliver the table written without projections");
        }
        TargetDefinition def = checkDefinition();
        if (!info.readsAdaptiveGranularity() && written.settings().adaptiveGranularity()) {
            throw new DeliveryException(
                    "ClickHouse "
                            + info.version()
                            + " at "
                            + client.endpoint().url()
                            + " reads only the portable part profile, but the written table's parts use adaptive granularity (.mrk2):"
                            + " write the table with SETTINGS index_granularity_bytes = 0");
        }
        if (!info.readsColumnCodecs()) {
            refuseColumnCodecs(info);
        }
        Path dir = detached();
        // unique: two deliverers (of two written tables, maybe in one JVM) may check at once
        Path probe = dir.resolve(".s3mergetree-probe-" + java.util.UUID.randomUUID());
        try {
            Files.writeString(probe, "probe");
            Files.delete(probe);
        } catch (IOException e) {
            throw new DeliveryException(
                    "cannot write into "
                            + dir
                            + ", the detached/ directory of "
                            + target
                            + " (ATTACH delivery needs the server's table directory on this host or a shared volume; otherwise use --deliver restore, in SQL 'deliver' = 'restore'): "
                            + e.getMessage(),
                    e);
        }
        return def;
    }

    /** The server's {@code detached/} directory of the target table. */
    public Path detached() throws IOException {
        if (detached == null) {
            Path table =
                    tableDirectoryOverride != null
                            ? tableDirectoryOverride
                            : reportedTableDirectory();
            detached = table.resolve("detached");
            if (!Files.isDirectory(detached)) {
                throw new DeliveryException(
                        "the table directory of "
                                + target
                                + " is not at "
                                + table
                                + " as seen from this host (no detached/ there): ATTACH delivery needs the server's table directory on this host or a shared volume");
            }
        }
        return detached;
    }

    private Path reportedTableDirectory() throws IOException {
        String where =
                " WHERE database = "
                        + TableName.literal(target.table().database())
                        + " AND name = "
                        + TableName.literal(target.table().table());
        List<List<String>> rows;
        try {
            rows = client.rows(Sql.of("SELECT data_paths[1] FROM system.tables" + where));
        } catch (ClickHouseServerException e) {
            rows =
                    client.rows(
                            Sql.of("SELECT data_path FROM system.tables" + where)); // before 19.x
        }
        if (rows.isEmpty() || rows.get(0).get(0).isEmpty()) {
            throw new DeliveryException("the server reports no data directory for " + target);
        }
        return Path.of(rows.get(0).get(0));
    }

    @Override
    protected DeliveryResult send(
            DeliveryIntent intent, List<DeliverablePart> parts, DeliveryLedger ledger)
            throws IOException {
        long start = clock.millis();
        for (DeliverablePart p : parts) {
            for (PartFile f : p.files()) {
                if (f.name().endsWith(".mrk2")
                        && !ServerInfo.read(client).readsAdaptiveGranularity()) {
                    throw new DeliveryException(
                            "part "
                                    + p.name()
                                    + " uses adaptive granularity ("
                                    + f.name()
                                    + "), which the server cannot read: write the table with SETTINGS index_granularity_bytes = 0");
                }
            }
        }
        apply(intent, ledger);
        return result(intent, start);
    }

    @Override
    protected boolean recover(DeliveryIntent intent, DeliveryLedger ledger) throws IOException {
        apply(intent, ledger);
        return true;
    }

    /** Completes {@code intent} from wherever it stopped. */
    private void apply(DeliveryIntent intent, DeliveryLedger ledger) throws IOException {
        Path dir = detached();
        if (!ledger.isCopied(intent.sequence())) {
            PartInventory inventory = new PartInventory(files);
            for (DeliveredPart p : intent.parts()) {
                copy(inventory.describe(p.name()), dir, intent);
            }
            ledger.markCopied(intent);
        }
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_MANIFEST);
        boolean first = true;
        for (DeliveredPart p : intent.parts()) {
            String detachedName = DeliveryIds.detachedName(intent.id(), p.name()).toString();
            if (!Files.isDirectory(dir.resolve(detachedName))) {
                continue; // attached by an earlier attempt
            }
            try {
                client.query(
                        Sql.of(
                                "ALTER TABLE "
                                        + target.table().sql()
                                        + " ATTACH PART "
                                        + TableName.literal(detachedName)));
            } catch (ClickHouseServerException e) {
                if (Files.isDirectory(dir.resolve(detachedName))) {
                    throw new DeliveryException(
                            "ATTACH PART "
                                    + detachedName
                                    + " (part "
                                    + p.name()
                                    + " of delivery "
                                    + intent.id()
                                    + ") into "
                                    + target
                                    + " failed (the part stays in detached/; the next round tries again): "
                                    + e.serverMessage(),
                            e);
                }
                // it moved: an answer lost, or a concurrent attempt attached it
            }
            if (first) {
                DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_SEND);
                first = false;
            }
        }
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_APPLIED);
        ledger.complete(intent, true, "every part left detached/ by ATTACH PART");
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_OUTCOME);
        LOG.info(
                "Attached {} parts ({} rows) into {}",
                intent.parts().size(),
                intent.rows(),
                target);
    }

    /**
     * Puts {@code part} into {@code detached/} under its name in this delivery ({@link
     * DeliveryIds#detachedName}) unless an identical copy is there.
     */
    private void copy(DeliverablePart part, Path dir, DeliveryIntent intent) throws IOException {
        String name = part.name().toString();
        String detachedName = DeliveryIds.detachedName(intent.id(), part.name()).toString();
        Path target = dir.resolve(detachedName);
        if (Files.isDirectory(target)) {
            Optional<byte[]> ours =
                    files.readIfExists(PartStorage.fileKey(name, PartFiles.CHECKSUMS));
            Path theirs = target.resolve(PartFiles.CHECKSUMS);
            if (ours.isPresent()
                    && Files.isRegularFile(theirs)
                    && Arrays.equals(ours.get(), Files.readAllBytes(theirs))) {
                return; // copied by an earlier attempt
            }
            throw new DeliveryException(
                    "detached/"
                            + detachedName
                            + " (part "
                            + name
                            + " of delivery "
                            + intent.id()
                            + ") of "
                            + this.target
                            + " exists and is not this part ("
                            + target
                            + "): move it away before delivering");
        }
        Path tmp = dir.resolve("tmp_s3mergetree_" + detachedName);
        if (Files.exists(tmp)) {
            deleteRecursively(tmp);
        }
        Files.createDirectory(tmp);
        for (PartFile f : part.files()) {
            if (f.name().indexOf('/') > 0) {
                Files.createDirectories(tmp.resolve(f.name()).getParent()); // <name>.proj/
            }
            try (InputStream in = files.openStream(name + "/" + f.name())) {
                Files.copy(in, tmp.resolve(f.name()));
            }
            if (Files.size(tmp.resolve(f.name())) != f.size()) {
                throw new IOException(
                        "copied "
                                + f.size()
                                + " bytes of "
                                + files.describe(name + "/" + f.name())
                                + " but got "
                                + Files.size(tmp.resolve(f.name())));
            }
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Deletes a directory tree of the server's disk (a temporary copy of an earlier attempt). */
    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (java.util.stream.Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
