package io.github.s3mergetree.delivery.ledger;

import io.github.s3mergetree.engine.part.PartName;
import io.github.s3mergetree.engine.store.TableStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * What one target (a server's table) has received from the written table, kept in the table's own
 * metadata: {@code s3mergetree_metadata/deliveries/<target key>/}, one object per step, each
 * created with a create-if-absent condition so that two deliverers cannot both take a step.
 *
 * <ul>
 *   <li>{@code <seq>.intent}: a delivery about to be made (its id, method, parts with their UUIDs,
 *       the server's clock), written <em>before</em> anything is sent to the server;
 *   <li>{@code <seq>.outcome}: how it ended (delivered or not, with the evidence);
 *   <li>{@code <seq>.copied}: for ATTACH, that all its parts are in the server's {@code detached/}
 *       directory.
 * </ul>
 *
 * <p>Sequence numbers are consecutive; intent {@code n + 1} is only written once {@code n} has an
 * outcome, so at most one delivery per target is unresolved at any time and the ledger orders
 * deliveries. The parts delivered to the target are those of every intent whose outcome is
 * "delivered". Each target is tracked on its own, so one written table can be delivered into
 * several servers.
 *
 * <p>The ledger is compacted so that reading it stays cheap on a table delivered every checkpoint
 * for months: {@link #compact} writes {@code <seq>.summary} (every part delivered through delivery
 * {@code seq}, created if absent) and only then deletes the records through {@code seq}, the
 * per-delivery directories of those deliveries (their manifests' files; every one of them is
 * resolved, so no server reads them any more) and older summaries. A reader takes the newest
 * summary and the records after it; a record that vanishes while it reads (a concurrent compaction)
 * makes it read the listing again, which then holds the summary that replaced it. Sequence numbers
 * keep counting past a summary; a delivery id (the RESTORE's {@code id} on the server) also carries
 * a random tag ({@link DeliveryIds}), so it is never used twice, nor by another written table
 * delivering into the same target.
 */
public final class DeliveryLedger {
    /** Where the ledgers of every target live, relative to the table's root. */
    public static final String ROOT = "s3mergetree_metadata/deliveries";

    private static final String INTENT_HEADER = "s3mergetree delivery intent 1";
    private static final String OUTCOME_HEADER = "s3mergetree delivery outcome 1";
    private static final String COPIED_HEADER = "s3mergetree delivery copied 1";
    private static final String SUMMARY_HEADER = "s3mergetree delivery summary 1";
    private static final int LOAD_ATTEMPTS = 5;
    private static final String PROBE = "probe.txt";
    // the probe, or a directory marker on its path (stores that list directories, as S3Proxy's
    // filesystem store does, show them as keys ending with /)
    private static final java.util.regex.Pattern CHECK_LEFTOVER =
            java.util.regex.Pattern.compile(
                    "s3mergetree_metadata/(deliveries/([A-Za-z0-9_.-]+/("
                            + java.util.regex.Pattern.quote(PROBE)
                            + ")?)?)?");

    private final TableStore files;
    private final String targetKey;
    private final TreeMap<Long, DeliveryIntent> intents = new TreeMap<>();
    private final TreeMap<Long, DeliveryOutcome> outcomes = new TreeMap<>();
    private final java.util.Set<Long> copied = new java.util.HashSet<>();

    /** Deliveries through this sequence are in the summary (0: none). */
    private long summarizedThrough;

    private final Map<PartName, DeliveredPart> summarizedParts = new TreeMap<>();

    private DeliveryLedger(TableStore files, String targetKey) {
        this.files = files;
        this.targetKey = targetKey;
    }

    /**
     * Where a target check writes the object it asks the server to read back ({@code
     * RestoreDelivery.check}), relative to the table's root; the check removes it again.
     */
    public static String probePath(String targetKey) {
        return directory(targetKey) + "/" + PROBE;
    }

    /**
     * Whether {@code key} (relative to the table's root) is an object only a target check writes
     * and removes again (its probe, or a directory marker on the probe's path), so that a prefix
     * holding nothing else (after a check was killed between writing and removing it) is still an
     * empty place for a new table.
     */
    public static boolean isCheckLeftover(String key) {
        return CHECK_LEFTOVER.matcher(key).matches();
    }

    /** The directory of {@code targetKey}'s ledger, relative to the table's root. */
    public static String directory(String targetKey) {
        return ROOT + "/" + targetKey;
    }

    /** Reads the ledger of {@code targetKey} (empty if the target never got anything). */
    public static DeliveryLedger load(TableStore files, String targetKey) throws IOException {
        for (int attempt = 1; attempt <= LOAD_ATTEMPTS; attempt++) {
            DeliveryLedger l = new DeliveryLedger(files, targetKey);
            if (l.read()) {
                return l;
            }
        }
        // never a partial ledger: it would make delivered parts look undelivered
        throw new IOException(
                "the delivery ledger "
                        + files.describe(directory(targetKey))
                        + " kept changing under "
                        + LOAD_ATTEMPTS
                        + " reads (records vanishing: concurrent compactions?)");
    }

    /** Reads the listing; false if a record vanished meanwhile (a compaction: read again). */
    private boolean read() throws IOException {
        String dir = directory(targetKey);
        List<String> names = files.listFileNames(dir + "/");
        long newestSummary = 0;
        for (String name : names) {
            if (name.endsWith(".summary")) {
                newestSummary = Math.max(newestSummary, sequenceOf(name));
            }
        }
        if (newestSummary > 0) {
            String path = path(newestSummary, "summary");
            Optional<byte[]> content = files.readIfExists(path);
            if (content.isEmpty()) {
                return false;
            }
            parseSummary(
                    newestSummary,
                    new String(content.get(), StandardCharsets.UTF_8),
                    files.describe(path));
        }
        for (String name : names) {
            int dot = name.indexOf('.');
            long seq = sequenceOf(name);
            if (seq <= 0 || seq <= summarizedThrough) {
                continue;
            }
            String kind = name.substring(dot + 1);
            if (!kind.equals("intent") && !kind.equals("outcome") && !kind.equals("copied")) {
                continue;
            }
            Optional<byte[]> content = files.readIfExists(dir + "/" + name);
            if (content.isEmpty()) {
                return false;
            }
            String text = new String(content.get(), StandardCharsets.UTF_8);
            switch (kind) {
                case "intent" ->
                        intents.put(seq, parseIntent(seq, text, files.describe(dir + "/" + name)));
                case "outcome" ->
                        outcomes.put(
                                seq, parseOutcome(seq, text, files.describe(dir + "/" + name)));
                default -> copied.add(seq);
            }
        }
        return true;
    }

    /** The sequence of record {@code name} ({@code <seq>.<kind>}), 0 if it is not one. */
    private static long sequenceOf(String name) {
        int dot = name.indexOf('.');
        if (dot <= 0) {
            return 0;
        }
        try {
            return Long.parseLong(name.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    public String targetKey() {
        return targetKey;
    }

    /** Every recorded intent, by sequence. */
    public List<DeliveryIntent> intents() {
        return List.copyOf(intents.values());
    }

    /** The recorded outcome of delivery {@code sequence} (empty if compacted or unresolved). */
    public Optional<DeliveryOutcome> outcome(long sequence) {
        return Optional.ofNullable(outcomes.get(sequence));
    }

    /** Whether delivery {@code sequence} has an outcome (recorded, or compacted into a summary). */
    public boolean isResolved(long sequence) {
        return outcomes.containsKey(sequence) || (sequence > 0 && sequence <= summarizedThrough);
    }

    /** The deliveries through this sequence are compacted into a summary (0: none). */
    public long summarizedThrough() {
        return summarizedThrough;
    }

    /** The delivery recorded but not resolved, if any (at most one). */
    public Optional<DeliveryIntent> pending() {
        for (DeliveryIntent i : intents.values()) {
            if (!outcomes.containsKey(i.sequence())) {
                return Optional.of(i);
            }
        }
        return Optional.empty();
    }

    /** Whether an ATTACH delivery recorded that all its parts are in {@code detached/}. */
    public boolean isCopied(long sequence) {
        return copied.contains(sequence);
    }

    /** The parts the target received, by name (rows as recorded). */
    public Map<PartName, DeliveredPart> deliveredParts() {
        Map<PartName, DeliveredPart> out = new TreeMap<>(summarizedParts);
        for (DeliveryIntent i : intents.values()) {
            DeliveryOutcome o = outcomes.get(i.sequence());
            if (o != null && o.delivered()) {
                for (DeliveredPart p : i.parts()) {
                    out.put(p.name(), p);
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** Total rows of delivered parts. */
    public long deliveredRows() {
        long r = 0;
        for (DeliveredPart p : deliveredParts().values()) {
            r += p.rows();
        }
        return r;
    }

    /**
     * Records a new delivery as the next sequence number, under a new id ({@link
     * DeliveryIds#deliveryId}: unique to this written table, target and delivery); the parts' UUIDs
     * are assigned here from that id ({@link DeliveryIds#partUuid}), whatever {@code parts} carry.
     *
     * @throws IllegalStateException if a delivery is still unresolved
     * @throws ConcurrentDeliveryException if another deliverer took that number first
     */
    public DeliveryIntent begin(
            String method, List<DeliveredPart> parts, long serverNowSeconds, long nowMillis)
            throws IOException {
        Optional<DeliveryIntent> p = pending();
        if (p.isPresent()) {
            throw new IllegalStateException("delivery " + p.get().id() + " is not resolved yet");
        }
        long seq = Math.max(summarizedThrough, intents.isEmpty() ? 0 : intents.lastKey()) + 1;
        String id = DeliveryIds.deliveryId(targetKey, DeliveryIds.newTag(), seq);
        List<DeliveredPart> named = new ArrayList<>(parts.size());
        for (DeliveredPart part : parts) {
            named.add(
                    new DeliveredPart(
                            part.name(),
                            part.rows(),
                            part.bytes(),
                            DeliveryIds.partUuid(id, part.name())));
        }
        parts = named;
        String owner = DeliveryIntent.currentOwner();
        DeliveryIntent intent =
                new DeliveryIntent(seq, id, method, serverNowSeconds, nowMillis, owner, parts);
        StringBuilder b = new StringBuilder(INTENT_HEADER).append('\n');
        b.append("id\t").append(id).append('\n');
        b.append("method\t").append(method).append('\n');
        b.append("server_now\t").append(serverNowSeconds).append('\n');
        b.append("created_ms\t").append(nowMillis).append('\n');
        b.append("owner\t").append(owner).append('\n');
        for (DeliveredPart part : parts) {
            appendPart(b, part);
        }
        String path = path(seq, "intent");
        if (!files.createIfAbsent(path, b.toString().getBytes(StandardCharsets.UTF_8))) {
            throw new ConcurrentDeliveryException(
                    "another deliverer recorded delivery "
                            + seq
                            + " to "
                            + targetKey
                            + " first ("
                            + files.describe(path)
                            + ")");
        }
        intents.put(seq, intent);
        return intent;
    }

    /** Records that all parts of ATTACH delivery {@code intent} are in {@code detached/}. */
    public void markCopied(DeliveryIntent intent) throws IOException {
        files.createIfAbsent(
                path(intent.sequence(), "copied"),
                (COPIED_HEADER + "\nid\t" + intent.id() + "\n").getBytes(StandardCharsets.UTF_8));
        copied.add(intent.sequence());
    }

    /**
     * Records how {@code intent} ended.
     *
     * @throws ConcurrentDeliveryException if another deliverer recorded an outcome first (its
     *     record stands; the caller reloads)
     */
    public DeliveryOutcome complete(DeliveryIntent intent, boolean delivered, String evidence)
            throws IOException {
        String text =
                OUTCOME_HEADER
                        + "\nid\t"
                        + intent.id()
                        + "\noutcome\t"
                        + (delivered ? "delivered" : "not_delivered")
                        + "\nevidence\t"
                        + evidence.replace('\n', ' ').replace('\t', ' ')
                        + "\n";
        String path = path(intent.sequence(), "outcome");
        if (!files.createIfAbsent(path, text.getBytes(StandardCharsets.UTF_8))) {
            throw new ConcurrentDeliveryException(
                    "another deliverer recorded the outcome of delivery "
                            + intent.id()
                            + " first ("
                            + files.describe(path)
                            + ")");
        }
        DeliveryOutcome o = new DeliveryOutcome(intent.sequence(), delivered, evidence);
        outcomes.put(intent.sequence(), o);
        return o;
    }

    /** The path of a step's record, relative to the table's root. */
    public String path(long seq, String kind) {
        return directory(targetKey) + "/" + String.format("%010d", seq) + "." + kind;
    }

    /** The directory of a delivery's own files (per-part checksums, uuid.txt, the DDL). */
    public String deliveryDirectory(DeliveryIntent intent) {
        return directory(targetKey) + "/" + String.format("%010d", intent.sequence());
    }

    /**
     * Compacts the ledger when at least {@code minResolved} resolved deliveries follow the newest
     * summary: writes the summary through the newest resolved delivery, then deletes what it
     * replaces (records, per-delivery directories, older summaries). Safe against concurrent
     * deliverers and readers (see the class comment); a crash part-way leaves records a later
     * compaction deletes.
     *
     * @return the sequence summarized through, or 0 if nothing was compacted
     */
    public long compact(int minResolved) throws IOException {
        long through = summarizedThrough;
        int resolved = 0;
        for (long seq : intents.keySet()) {
            if (!outcomes.containsKey(seq)) {
                break; // the open delivery, and nothing after it, stays
            }
            through = seq;
            resolved++;
        }
        if (resolved < Math.max(1, minResolved)) {
            return 0;
        }
        StringBuilder b = new StringBuilder(SUMMARY_HEADER).append('\n');
        b.append("through\t").append(through).append('\n');
        Map<PartName, DeliveredPart> parts = new TreeMap<>(summarizedParts);
        for (DeliveryIntent i : intents.headMap(through, true).values()) {
            if (outcomes.get(i.sequence()).delivered()) {
                for (DeliveredPart p : i.parts()) {
                    parts.put(p.name(), p);
                }
            }
        }
        for (DeliveredPart part : parts.values()) {
            appendPart(b, part);
        }
        files.createIfAbsent(
                path(through, "summary"), b.toString().getBytes(StandardCharsets.UTF_8));
        // the summary stands: what it replaces can go
        long previous = summarizedThrough;
        String dir = directory(targetKey);
        for (String name : files.listFileNames(dir + "/")) {
            long seq = sequenceOf(name);
            if (seq > 0 && (seq < through || (seq == through && !name.endsWith(".summary")))) {
                files.delete(dir + "/" + name);
            }
        }
        for (String sub : files.listDirectories(dir + "/")) {
            long seq;
            try {
                seq = Long.parseLong(sub);
            } catch (NumberFormatException e) {
                continue;
            }
            if (seq <= through) {
                deleteTree(dir + "/" + sub);
            }
        }
        summarizedThrough = through;
        summarizedParts.clear();
        summarizedParts.putAll(parts);
        intents.headMap(through, true).clear();
        outcomes.headMap(through, true).clear();
        copied.removeIf(seq -> seq <= summarizedThrough);
        return previous == through ? 0 : through;
    }

    private void deleteTree(String dir) throws IOException {
        for (String sub : files.listDirectories(dir + "/")) {
            deleteTree(dir + "/" + sub);
        }
        for (String name : files.listFileNames(dir + "/")) {
            files.delete(dir + "/" + name);
        }
    }

    private static void appendPart(StringBuilder b, DeliveredPart part) {
        b.append("part\t")
                .append(part.name())
                .append('\t')
                .append(part.rows())
                .append('\t')
                .append(part.bytes())
                .append('\t')
                .append(part.uuid())
                .append('\n');
    }

    private void parseSummary(long seq, String text, String where) throws IOException {
        String[] lines = text.split("\n");
        if (lines.length < 2 || !lines[0].equals(SUMMARY_HEADER)) {
            throw new IOException("not a delivery summary: " + where);
        }
        long through = -1;
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t");
            if (f[0].equals("through") && f.length == 2) {
                through = Long.parseLong(f[1]);
            } else if (f[0].equals("part") && f.length == 5) {
                PartName name =
                        PartName.tryParse(f[1])
                                .orElseThrow(
                                        () ->
                                                new IOException(
                                                        "bad part name " + f[1] + " in " + where));
                summarizedParts.put(
                        name,
                        new DeliveredPart(
                                name,
                                Long.parseLong(f[2]),
                                Long.parseLong(f[3]),
                                UUID.fromString(f[4])));
            } else if (!lines[i].isEmpty()) {
                throw new IOException("bad line " + (i + 1) + " in " + where + ": " + lines[i]);
            }
        }
        if (through != seq) {
            throw new IOException("delivery summary " + where + " says it is through " + through);
        }
        summarizedThrough = seq;
    }

    private static DeliveryIntent parseIntent(long seq, String text, String where)
            throws IOException {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals(INTENT_HEADER)) {
            throw new IOException("not a delivery intent record: " + where);
        }
        String id = null;
        String method = null;
        long serverNow = 0;
        long created = 0;
        String owner = null;
        List<DeliveredPart> parts = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t");
            switch (f[0]) {
                case "id" -> id = f[1];
                case "method" -> method = f[1];
                case "server_now" -> serverNow = Long.parseLong(f[1]);
                case "created_ms" -> created = Long.parseLong(f[1]);
                case "owner" -> owner = f[1];
                case "part" ->
                        parts.add(
                                new DeliveredPart(
                                        PartName.tryParse(f[1])
                                                .orElseThrow(
                                                        () ->
                                                                new IOException(
                                                                        "bad part name "
                                                                                + f[1]
                                                                                + " in "
                                                                                + where)),
                                        Long.parseLong(f[2]),
                                        Long.parseLong(f[3]),
                                        UUID.fromString(f[4])));
                default -> {}
            }
        }
        if (id == null || method == null) {
            throw new IOException("incomplete delivery intent record: " + where);
        }
        return new DeliveryIntent(seq, id, method, serverNow, created, owner, parts);
    }

    private static DeliveryOutcome parseOutcome(long seq, String text, String where)
            throws IOException {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].equals(OUTCOME_HEADER)) {
            throw new IOException("not a delivery outcome record: " + where);
        }
        Boolean delivered = null;
        String evidence = "";
        for (int i = 1; i < lines.length; i++) {
            String[] f = lines[i].split("\t", 2);
            if (f[0].equals("outcome")) {
                delivered = f[1].equals("delivered");
            } else if (f[0].equals("evidence") && f.length > 1) {
                evidence = f[1];
            }
        }
        if (delivered == null) {
            throw new IOException("incomplete delivery outcome record: " + where);
        }
        return new DeliveryOutcome(seq, delivered, evidence);
    }
}
