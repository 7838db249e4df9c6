package io.github.s3mergetree.delivery.restore;

import io.github.s3mergetree.delivery.DeliveryFaultPoints;
import io.github.s3mergetree.delivery.DeliveryOptions;
import io.github.s3mergetree.delivery.DeliveryResult;
import io.github.s3mergetree.delivery.PartDelivery;
import io.github.s3mergetree.delivery.errors.DeliveryException;
import io.github.s3mergetree.delivery.errors.DeliveryStateUnknownException;
import io.github.s3mergetree.delivery.http.ClickHouseHttpClient;
import io.github.s3mergetree.delivery.http.ClickHouseServerException;
import io.github.s3mergetree.delivery.http.ClickHouseUnreachableException;
import io.github.s3mergetree.delivery.http.Sql;
import io.github.s3mergetree.delivery.ledger.DeliveredPart;
import io.github.s3mergetree.delivery.ledger.DeliveryIds;
import io.github.s3mergetree.delivery.ledger.DeliveryIntent;
import io.github.s3mergetree.delivery.ledger.DeliveryLedger;
import io.github.s3mergetree.delivery.part.DeliverablePart;
import io.github.s3mergetree.delivery.part.PartFile;
import io.github.s3mergetree.delivery.server.DeliveryTarget;
import io.github.s3mergetree.delivery.server.ServerInfo;
import io.github.s3mergetree.delivery.server.TableName;
import io.github.s3mergetree.delivery.server.TargetDefinition;
import io.github.s3mergetree.engine.ddl.TableSchema;
import io.github.s3mergetree.engine.hash.HashingOutput;
import io.github.s3mergetree.engine.part.Checksums;
import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.PartFiles;
import io.github.s3mergetree.engine.store.PartStorage;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers parts of a table on S3 into a live server by {@code RESTORE ... FROM S3(...)}: the
 * server reads the parts in place, from the bucket, through a backup manifest at the table's root
 * that references them (see {@link BackupManifest}); nothing is copied by this process. Works with
 * any server that can reach the bucket and has RESTORE with {@code SETTINGS id} and {@code
 * system.backups} (ClickHouse 22.x and later), whatever its own storage, Replicated tables too.
 *
 * <p>Per delivery: the ledger's intent (parts and their UUIDs); per part a {@code checksums.txt}
 * that also lists {@code uuid.txt} and the {@code uuid.txt} itself, under the delivery's own
 * directory in the ledger; the server's definition of the target renamed to the delivery's backup
 * table {@code s3mergetree_delivery.d_<n>_<hash>} (so a server that reads another delivery's
 * manifest fails instead of restoring the wrong parts); the {@code .backup} manifest at the table's
 * root (one at a time: it is created only if absent, and a stale one of a dead deliverer is taken
 * over after the lease); then {@code RESTORE TABLE <backup table> AS <target> ... SETTINGS
 * allow_non_empty_tables = true, id = '<delivery id>' ASYNC}, and {@code system.backups} is polled
 * until it says RESTORED or RESTORE_FAILED.
 *
 * <p>Recovery of a delivery whose outcome the ledger lacks, in order of the evidence:
 *
 * <ol>
 *   <li>{@code system.backups} has its id: wait for RESTORED (delivered) or a failure (not
 *       delivered, unless some of its part UUIDs are in {@code system.parts}: then unknown).
 *       RESTORED is believed only once it is shown to be this delivery's: the files and bytes the
 *       server read equal those of the backup this delivery recorded before sending ({@link
 *       RestoreFingerprint}), or every part is in {@code system.parts} under its UUID with its
 *       rows; otherwise {@link DeliveryStateUnknownException}. Ids are unique per written table,
 *       target and delivery ({@link io.github.s3mergetree.delivery.ledger.DeliveryIds}), so this
 *       guards against ids reused by something else;
 *   <li>no entry, and the server has run since before the intent was recorded (its start time,
 *       {@code now() - uptime()}, is earlier than the server time the intent recorded): the RESTORE
 *       never started, since the server lists every RESTORE it started until it restarts. The id is
 *       then <em>fenced</em>: a RESTORE with that id from an empty location registers it as failed,
 *       so that a deliverer that is only slow cannot send it later (the server refuses a second
 *       RESTORE with a known id). Not delivered;
 *   <li>no entry and the server restarted since: all part UUIDs in {@code system.parts} (active or
 *       not): delivered. Otherwise the rows may have arrived and been merged into parts without
 *       those UUIDs: {@link DeliveryStateUnknownException}, naming what to check.
 * </ol>
 */
public final class RestoreDelivery extends PartDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreDelivery.class);

    /** The database name the manifests give their tables; never created on the server. */
    public static final String BACKUP_DATABASE = "s3mergetree_delivery";

    /** The manifest's name: ClickHouse reads a backup's metadata from this file at its root. */
    public static final String MANIFEST = ".backup";

    /** The record, in a delivery's directory, of what its RESTORE's backup holds. */
    static final String EXPECTED = "restore.expected";

    private static final Pattern CREATE =
            Pattern.compile(
                    "^\\s*(?:CREATE|ATTACH)\\s+TABLE\\s+(?:`(?:[^`\\\\]|\\\\.)*`|[A-Za-z_][A-Za-z0-9_]*)(?:\\.(?:`(?:[^`\\\\]|\\\\.)*`|[A-Za-z_][A-Za-z0-9_]*))?");

    /**
     * Where the server finds the table: the S3 URL of the table's root as the server reaches it
     * (e.g. {@code http://s3.local:9000/bucket/tables/posts}, path-style, or {@code
     * https://bucket.s3.region.amazonaws.com/tables/posts}) and the keys it uses there.
     */
    public record Source(String rootUrl, String accessKeyId, String secretAccessKey) {
        public Source {
            Objects.requireNonNull(rootUrl, "rootUrl");
            while (rootUrl.endsWith("/")) {
                rootUrl = rootUrl.substring(0, rootUrl.length() - 1);
            }
        }

        String url(String relative) {
            return rootUrl + "/" + relative;
        }

        /** The {@code S3(...)} arguments for {@code relative} under the root. */
        String s3Arguments(String relative) {
            String url = relative.isEmpty() ? rootUrl : url(relative);
            if (accessKeyId == null || accessKeyId.isEmpty()) {
                return TableName.literal(url);
            }
            return TableName.literal(url)
                    + ", "
                    + TableName.literal(accessKeyId)
                    + ", "
                    + TableName.literal(secretAccessKey);
        }

        @Override
        public String toString() {
            return rootUrl + (accessKeyId == null ? "" : " (key " + accessKeyId + ")");
        }
    }

    private final Source source;
    private TargetDefinition definition;

    public RestoreDelivery(
            TableStore files,
            TableSchema written,
            Source source,
            DeliveryTarget target,
            ClickHouseHttpClient client,
            Clock clock,
            DeliveryOptions options) {
        super(files, written, target, client, clock, options);
        this.source = Objects.requireNonNull(source, "source");
    }

    @Override
    protected String method() {
        return "restore";
    }

    private Sql sql(String text) {
        return Sql.withSecret(text, source.secretAccessKey());
    }

    /**
     * Checks the target: the server answers (version, credentials), has RESTORE with ids and {@code
     * system.backups}, the table exists and fits, and the server reads this table's bucket with the
     * given keys (it reads back a probe object written under the ledger).
     */
    @Override
    public TargetDefinition check() throws IOException {
        ServerInfo info = ServerInfo.read(client);
        if (!info.atLeast(22, 8)) {
            throw new DeliveryException(
                    "ClickHouse "
                            + info.version()
                            + " at "
                            + client.endpoint().url()
                            + " cannot take deliveries by RESTORE (needs 22.8 or later: RESTORE ... SETTINGS id, system.backups); use --deliver attach, in SQL 'deliver' = 'attach'");
        }
        TargetDefinition def = checkDefinition();
        String probe = DeliveryLedger.probePath(target.key());
        String token = "s3mergetree probe " + UUID.randomUUID();
        files.put(probe, token.getBytes(StandardCharsets.UTF_8));
        String read;
        try {
            read =
                    client.value(
                            sql("SELECT * FROM s3(" + source.s3Arguments(probe) + ", 'RawBLOB')"));
        } catch (ClickHouseServerException e) {
            throw new DeliveryException(
                    "ClickHouse at "
                            + client.endpoint().url()
                            + " cannot read the table's objects at "
                            + source.rootUrl()
                            + " (it must reach the bucket with the given keys for RESTORE): "
                            + e.serverMessage(),
                    e);
        } finally {
            deleteProbe(probe);
        }
        if (!read.equals(token)) {
            throw new DeliveryException(
                    "ClickHouse at "
                            + client.endpoint().url()
                            + " reads other content at "
                            + source.url(probe)
                            + " than this process wrote at "
                            + files.describe(probe)
                            + ": the server's S3 URL points at another store or prefix");
        }
        definition = def;
        return def;
    }

    /**
     * Removes the probe: a check leaves nothing under a prefix that may not be a table yet (a probe
     * left by a crash is one of {@link DeliveryLedger#isCheckLeftover}'s).
     */
    private void deleteProbe(String probe) {
        try {
            files.delete(probe);
        } catch (IOException e) {
            LOG.warn("Could not remove the probe {}", files.describe(probe), e);
        }
    }

    private TargetDefinition definition() throws IOException {
        if (definition == null) {
            definition = checkDefinition();
        }
        return definition;
    }

    @Override
    protected DeliveryResult send(
            DeliveryIntent intent, List<DeliverablePart> parts, DeliveryLedger ledger)
            throws IOException {
        long start = clock.millis();
        String dir = ledger.deliveryDirectory(intent);
        String backupTable = backupTable(intent);
        BackupManifest manifest =
                new BackupManifest(
                        UUID.nameUUIDFromBytes(intent.id().getBytes(StandardCharsets.UTF_8)),
                        LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC),
                        intent.id() + "|" + clock.millis());
        String dataPrefix = "data/" + BACKUP_DATABASE + "/" + backupTable + "/";
        for (int i = 0; i < parts.size(); i++) {
            DeliverablePart part = parts.get(i);
            DeliveredPart recorded = intent.parts().get(i);
            String name = part.name().toString();
            byte[] uuid = recorded.uuid().toString().getBytes(StandardCharsets.US_ASCII);
            String checksumsKey = PartStorage.fileKey(name, PartFiles.CHECKSUMS);
            Checksums checksums =
                    Checksums.parse(
                            files.readIfExists(checksumsKey)
                                    .orElseThrow(
                                            () ->
                                                    new IOException(
                                                            "missing "
                                                                    + files.describe(
                                                                            checksumsKey))),
                            files.describe(checksumsKey));
            checksums.add(
                    PartFiles.UUID,
                    new Checksums.Entry(
                            uuid.length,
                            HashingOutput.hash(uuid, 0, uuid.length),
                            false,
                            0,
                            io.github.s3mergetree.engine.hash.Hash128.ZERO));
            byte[] checksumsBytes = checksums.serialize();
            String backupPart = dir + "/" + name;
            files.put(PartStorage.fileKey(backupPart, PartFiles.CHECKSUMS), checksumsBytes);
            files.put(PartStorage.fileKey(backupPart, PartFiles.UUID), uuid);
            for (PartFile f : part.files()) {
                if (f.name().equals(PartFiles.CHECKSUMS) || f.name().equals(PartFiles.UUID)) {
                    continue;
                }
                manifest.add(
                        dataPrefix + name + "/" + f.name(),
                        f.size(),
                        f.checksum(),
                        name + "/" + f.name());
            }
            manifest.add(
                    PartStorage.fileKey(dataPrefix + name, PartFiles.CHECKSUMS),
                    checksumsBytes.length,
                    HashingOutput.hash(checksumsBytes, 0, checksumsBytes.length),
                    PartStorage.fileKey(backupPart, PartFiles.CHECKSUMS));
            manifest.add(
                    PartStorage.fileKey(dataPrefix + name, PartFiles.UUID),
                    uuid.length,
                    HashingOutput.hash(uuid, 0, uuid.length),
                    PartStorage.fileKey(backupPart, PartFiles.UUID));
        }
        byte[] ddl =
                renamed(definition().serverDdl(), backupTable).getBytes(StandardCharsets.UTF_8);
        files.put(dir + "/table.sql", ddl);
        manifest.add(
                "metadata/" + BACKUP_DATABASE + "/" + backupTable + ".sql",
                ddl.length,
                HashingOutput.hash(ddl, 0, ddl.length),
                dir + "/table.sql");
        // what the server's system.backups will report for this RESTORE, recorded before it can
        // be sent: an entry with this id that does not match it is not this delivery's
        files.put(dir + "/" + EXPECTED, RestoreFingerprint.of(intent.id(), manifest).serialize());
        takeManifestSlot(intent, manifest.toXml());
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_MANIFEST);
        try {
            client.query(restoreStatement(intent, backupTable, ""));
        } catch (ClickHouseServerException e) {
            if (!isSameIdRefusal(e)) {
                failed(intent, ledger, "RESTORE refused: " + e.serverMessage());
                throw new DeliveryException(
                        "RESTORE of delivery "
                                + intent.id()
                                + " into "
                                + target
                                + " was refused: "
                                + e.serverMessage(),
                        e);
            }
            // an earlier attempt of this delivery already started it: wait for that one
        } catch (ClickHouseUnreachableException e) {
            // whether the server got it is unknown: system.backups will tell
            LOG.warn(
                    "No answer to the RESTORE of {}; asking the server what became of it",
                    intent.id(),
                    e);
        }
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_SEND);
        if (!recover(intent, ledger)) {
            throw new DeliveryException(
                    "RESTORE of delivery "
                            + intent.id()
                            + " into "
                            + target
                            + " failed: "
                            + ledger.outcome(intent.sequence())
                                    .map(o -> o.evidence())
                                    .orElse("(no outcome)"));
        }
        return result(intent, start);
    }

    /** The statement that restores {@code intent} (or, with {@code fence}, fences its id). */
    private Sql restoreStatement(DeliveryIntent intent, String backupTable, String fenceLocation) {
        String from =
                fenceLocation.isEmpty()
                        ? source.s3Arguments("")
                        : source.s3Arguments(fenceLocation);
        return sql(
                "RESTORE TABLE "
                        + TableName.quote(BACKUP_DATABASE)
                        + "."
                        + TableName.quote(backupTable)
                        + " AS "
                        + target.table().sql()
                        + " FROM S3("
                        + from
                        + ")"
                        + " SETTINGS allow_non_empty_tables = true, id = "
                        + TableName.literal(intent.id())
                        + " ASYNC");
    }

    private static boolean isSameIdRefusal(ClickHouseServerException e) {
        return e.code() == ClickHouseServerException.BAD_ARGUMENTS
                && e.serverMessage().contains("same ID");
    }

    @Override
    protected boolean recover(DeliveryIntent intent, DeliveryLedger ledger) throws IOException {
        Optional<BackupStatus> status = status(intent.id());
        if (status.isEmpty()) {
            ServerInfo info = ServerInfo.read(client);
            if (info.startSeconds() + 1 < intent.serverNowSeconds()) {
                if (fence(intent)) {
                    complete(
                            intent,
                            ledger,
                            false,
                            "no RESTORE "
                                    + intent.id()
                                    + " in system.backups of a server up since before the delivery was recorded: never sent; id fenced");
                    return false;
                }
                status = status(intent.id());
            } else {
                Set<UUID> present = presentUuids(intent);
                if (present.size() == intent.parts().size()) {
                    complete(
                            intent,
                            ledger,
                            true,
                            "every part UUID is in system.parts (the server restarted since the RESTORE)");
                    return true;
                }
                throw unknown(
                        intent,
                        present,
                        "the server restarted after the delivery was recorded (its RESTORE ids are forgotten) and "
                                + (present.isEmpty()
                                        ? "none"
                                        : present.size() + " of " + intent.parts().size())
                                + " of its part UUIDs are in system.parts: the rows may have arrived and been merged");
            }
        }
        BackupStatus s = awaitFinal(intent, status.orElse(null));
        if (s.status().equals("RESTORED")) {
            String evidence = believeRestored(intent, ledger, s);
            DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_APPLIED);
            complete(intent, ledger, true, "system.backups: RESTORED" + evidence);
            return true;
        }
        Set<UUID> present = presentUuids(intent);
        if (!present.isEmpty()) {
            throw unknown(
                    intent,
                    present,
                    "its RESTORE ended "
                            + s.status()
                            + " ("
                            + s.error()
                            + ") but "
                            + present.size()
                            + " of its parts are in the table");
        }
        complete(intent, ledger, false, "system.backups: " + s.status() + ": " + s.error());
        return false;
    }

    private void complete(
            DeliveryIntent intent, DeliveryLedger ledger, boolean delivered, String evidence)
            throws IOException {
        ledger.complete(intent, delivered, evidence);
        DeliveryFaultPoints.reach(DeliveryFaultPoints.AFTER_OUTCOME);
        afterOutcome(intent);
    }

    private void failed(DeliveryIntent intent, DeliveryLedger ledger, String evidence)
            throws IOException {
        complete(intent, ledger, false, evidence);
    }

    @Override
    protected void afterOutcome(DeliveryIntent intent) throws IOException {
        Optional<byte[]> current = files.readIfExists(MANIFEST);
        if (current.isPresent()) {
            String marker = BackupManifest.markerOf(current.get());
            if (marker != null && marker.startsWith(intent.id() + "|")) {
                files.delete(MANIFEST);
            }
        }
    }

    /**
     * Registers the id of {@code intent} on the server as a failed RESTORE; false if it is known.
     */
    private boolean fence(DeliveryIntent intent) throws IOException {
        String empty = DeliveryLedger.directory(target.key()) + "/fence";
        try {
            client.query(restoreStatement(intent, "fence", empty));
        } catch (ClickHouseServerException e) {
            if (isSameIdRefusal(e)) {
                return false; // the real RESTORE got there first
            }
            if (status(intent.id()).isEmpty()) {
                throw new DeliveryException(
                        "cannot fence the RESTORE id "
                                + intent.id()
                                + " on "
                                + client.endpoint().url()
                                + ": "
                                + e.serverMessage(),
                        e);
            }
            return true; // registered, and failed at once
        }
        // registered: it reads a location without a backup, so it fails and restores nothing
        awaitFinal(intent, null);
        return true;
    }

    /** The server's entry of RESTORE {@code id}, if it knows it. */
    private Optional<BackupStatus> status(String id) throws IOException {
        // every column by name: which of them a server has depends on its version
        List<List<String>> rows =
                client.rows(
                        Sql.of(
                                "SELECT * FROM system.backups WHERE id = "
                                        + TableName.literal(id)
                                        + " FORMAT TabSeparatedWithNames"));
        if (rows.size() < 2) {
            return Optional.empty();
        }
        return Optional.of(BackupStatus.of(rows.get(0), rows.get(1)));
    }

    /**
     * Checks that the RESTORED entry of {@code intent}'s id is this delivery's before it is
     * believed: the files and bytes the server read from the backup equal those of the manifest
     * this delivery wrote (recorded before its RESTORE was sent), or, on a server that does not
     * report them, every part of the delivery is in the table under its UUID with its rows.
     *
     * @return the evidence, for the outcome record
     * @throws DeliveryStateUnknownException if the entry is not (provably) this delivery's: the
     *     server refuses a second RESTORE with a known id, so this delivery's parts were then never
     *     restored under it, unless the entry is of an earlier server life; nothing is recorded
     */
    private String believeRestored(DeliveryIntent intent, DeliveryLedger ledger, BackupStatus s)
            throws IOException {
        String record = ledger.deliveryDirectory(intent) + "/" + EXPECTED;
        Optional<byte[]> bytes = files.readIfExists(record);
        Optional<RestoreFingerprint> expected =
                bytes.isEmpty()
                        ? Optional.empty()
                        : Optional.of(
                                RestoreFingerprint.parse(bytes.get(), files.describe(record)));
        if (expected.isPresent() && !expected.get().deliveryId().equals(intent.id())) {
            throw unknown(
                    intent,
                    presentUuids(intent),
                    "system.backups lists a RESTORED entry with its id, but the backup recorded at "
                            + files.describe(record)
                            + " is delivery "
                            + expected.get().deliveryId()
                            + "'s, so the entry is not this delivery's");
        }
        if (expected.isPresent()
                && s.numFiles().isPresent()
                && s.totalSize().isPresent()
                // 0 and 0: a server that does not count what a RESTORE read
                && (s.numFiles().getAsLong() != 0 || s.totalSize().getAsLong() != 0)) {
            RestoreFingerprint e = expected.get();
            if (e.numFiles() == s.numFiles().getAsLong()
                    && e.totalSize() == s.totalSize().getAsLong()) {
                return " (" + e.numFiles() + " files, " + e.totalSize() + " bytes, as sent)";
            }
            throw unknown(
                    intent,
                    presentUuids(intent),
                    "system.backups lists a RESTORED entry with its id that is not this delivery's:"
                            + " it read "
                            + s.numFiles().getAsLong()
                            + " files, "
                            + s.totalSize().getAsLong()
                            + " bytes, but this delivery's backup has "
                            + e.numFiles()
                            + " files, "
                            + e.totalSize()
                            + " bytes (the id was used by another RESTORE)");
        }
        Map<UUID, Long> present = presentRows(intent);
        boolean all = true;
        for (DeliveredPart p : intent.parts()) {
            Long rows = present.get(p.uuid());
            all &= rows != null && rows == p.rows();
        }
        if (all) {
            return " (every part is in system.parts under its UUID with its rows)";
        }
        throw unknown(
                intent,
                present.keySet(),
                "system.backups lists a RESTORED entry with its id, but "
                        + (expected.isEmpty()
                                ? "this delivery recorded no backup it sent"
                                : "the server does not report the files it read")
                        + " and its parts are not all in the table with their rows, so the entry"
                        + " may be another RESTORE's");
    }

    private BackupStatus awaitFinal(DeliveryIntent intent, BackupStatus first) throws IOException {
        long deadline = clock.millis() + options.applyTimeout().toMillis();
        BackupStatus s = first;
        while (true) {
            if (s != null
                    && !s.status().equals("RESTORING")
                    && !s.status().equals("CREATING_BACKUP")) {
                return s;
            }
            if (clock.millis() > deadline) {
                throw new DeliveryException(
                        "RESTORE "
                                + intent.id()
                                + " into "
                                + target
                                + " still runs after "
                                + options.applyTimeout()
                                + "; the next round waits for it again");
            }
            sleep(options.pollInterval().toMillis());
            s = status(intent.id()).orElse(null);
        }
    }

    /** The UUIDs of {@code intent}'s parts that the target's {@code system.parts} lists. */
    private Set<UUID> presentUuids(DeliveryIntent intent) throws IOException {
        return new HashSet<>(presentRows(intent).keySet());
    }

    /** The rows of {@code intent}'s parts that the target's {@code system.parts} lists, by UUID. */
    private Map<UUID, Long> presentRows(DeliveryIntent intent) throws IOException {
        StringBuilder in = new StringBuilder();
        for (DeliveredPart p : intent.parts()) {
            in.append(in.length() == 0 ? "" : ", ")
                    .append("toUUID(")
                    .append(TableName.literal(p.uuid().toString()))
                    .append(')');
        }
        List<List<String>> rows =
                client.rows(
                        Sql.of(
                                "SELECT toString(uuid), any(rows) FROM system.parts WHERE database = "
                                        + TableName.literal(target.table().database())
                                        + " AND table = "
                                        + TableName.literal(target.table().table())
                                        + " AND uuid IN ("
                                        + in
                                        + ") GROUP BY uuid"));
        Map<UUID, Long> out = new HashMap<>();
        for (List<String> r : rows) {
            out.put(UUID.fromString(r.get(0)), Long.parseLong(r.get(1)));
        }
        return out;
    }

    private DeliveryStateUnknownException unknown(
            DeliveryIntent intent, Set<UUID> present, String why) {
        List<String> parts = new ArrayList<>();
        for (DeliveredPart p : intent.parts()) {
            parts.add(
                    p.name()
                            + " ("
                            + p.rows()
                            + " rows, uuid "
                            + p.uuid()
                            + (present.contains(p.uuid()) ? ", present" : "")
                            + ")");
        }
        return new DeliveryStateUnknownException(
                intent.id(),
                "cannot tell whether delivery "
                        + intent.id()
                        + " ("
                        + intent.rows()
                        + " rows in "
                        + intent.parts().size()
                        + " parts: "
                        + String.join(", ", parts)
                        + ") reached "
                        + target
                        + ": "
                        + why
                        + ". Check whether these rows are in "
                        + target.table()
                        + " (e.g. by a key range of the parts), then run: s3-mergetree deliver --resolve "
                        + intent.id()
                        + "=delivered (or =not-delivered)");
    }

    /** Puts the manifest at the table's root, waiting while another live delivery holds it. */
    private void takeManifestSlot(DeliveryIntent intent, byte[] xml) throws IOException {
        long deadline = clock.millis() + options.lease().toMillis();
        while (true) {
            if (files.createIfAbsent(MANIFEST, xml)) {
                return;
            }
            Optional<byte[]> current = files.readIfExists(MANIFEST);
            if (current.isEmpty()) {
                continue;
            }
            String marker = BackupManifest.markerOf(current.get());
            if (marker == null) {
                throw new DeliveryException(
                        files.describe(MANIFEST)
                                + " exists and is not a delivery manifest of this project (a backup written into the table's root?): move it away");
            }
            int bar = marker.lastIndexOf('|');
            String holder = bar < 0 ? marker : marker.substring(0, bar);
            long since = bar < 0 ? 0 : Long.parseLong(marker.substring(bar + 1));
            if (holder.equals(intent.id())
                    || resolved(holder)
                    || clock.millis() - since > options.lease().toMillis()) {
                // ours from an earlier attempt, a finished one, or a dead deliverer's: a server
                // still reading that one would not find its backup table in ours and fail, never
                // restore our parts
                files.put(MANIFEST, xml);
                return;
            }
            if (clock.millis() > deadline) {
                throw new DeliveryException(
                        "delivery "
                                + holder
                                + " holds "
                                + files.describe(MANIFEST)
                                + " for longer than "
                                + options.lease());
            }
            sleep(Math.max(options.pollInterval().toMillis(), 200));
        }
    }

    /** Whether delivery {@code id} (of any target of this table) has a recorded outcome. */
    private boolean resolved(String id) throws IOException {
        Optional<DeliveryIds.Parsed> parsed =
                DeliveryIds.parse(id).or(() -> DeliveryIds.parseUntagged(id));
        if (parsed.isEmpty()) {
            return false;
        }
        DeliveryLedger ledger = DeliveryLedger.load(files, parsed.get().targetKey());
        long seq = parsed.get().sequence();
        // the same sequence under another id is another delivery
        return ledger.isResolved(seq)
                && ledger.intents().stream()
                        .filter(i -> i.sequence() == seq)
                        .allMatch(i -> i.id().equals(id));
    }

    /** The name the manifest gives the delivery's table. */
    static String backupTable(DeliveryIntent intent) {
        return DeliveryIds.backupTable(intent.id(), intent.sequence());
    }

    /** {@code ddl} (the server's SHOW CREATE TABLE) naming {@code s3mergetree_delivery.<table>}. */
    static String renamed(String ddl, String table) {
        Matcher m = CREATE.matcher(ddl);
        if (!m.find()) {
            throw new IllegalArgumentException("not a CREATE TABLE statement: " + ddl);
        }
        return "CREATE TABLE " + BACKUP_DATABASE + "." + table + ddl.substring(m.end());
    }

    /** The parts a delivery carries, for messages. */
    static List<PartName> names(List<DeliverablePart> parts) {
        List<PartName> out = new ArrayList<>();
        for (DeliverablePart p : parts) {
            out.add(p.name());
        }
        return out;
    }
}
